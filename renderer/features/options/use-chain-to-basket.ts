import { useCallback, useEffect, useRef } from 'react';
import type { Instrument } from '@shared/domain/instrument';
import type { TransactionType } from '@shared/domain/order';
import { formatPrice } from '../../lib/format';
import { legAdded, MAX_LEGS } from '../../state/baskets-model';
import { useToastActions } from '../../state/toast-store';
import { useBasket } from '../basket/use-basket';
import { chainLegOrder } from './chain-basket';

let added = 0;

/**
 * The option chain's "add to basket" (docs/desk.md §Baskets): the contract as a one-lot LIMIT leg
 * at the price shown, added to the basket (nothing is sent), with a toast saying what was added —
 * or why not (the basket is full, no price to start from). Stable across renders, so the chain's
 * memoised legs do not re-render for it.
 */
export function useChainToBasket(
  byToken: ReadonlyMap<number, Instrument>,
): (instrumentToken: number, side: TransactionType, lastPrice: number) => void {
  const { basket, change } = useBasket();
  const { toastRaised } = useToastActions();
  const legs = useRef(basket.legs.length);
  useEffect(() => {
    legs.current = basket.legs.length;
  });
  return useCallback(
    (token, side, lastPrice) => {
      const i = byToken.get(token);
      if (!i) return;
      added += 1;
      const id = `chain-basket-${added}`;
      const order = chainLegOrder(i, side, lastPrice);
      if (legs.current >= MAX_LEGS || !order) {
        const detail = order ? `A basket holds at most ${MAX_LEGS} legs` : 'It has no price to start a LIMIT from';
        toastRaised({ id, tone: 'bad', title: `${i.tradingsymbol} not added to the basket`, detail });
        return;
      }
      change((b) => legAdded(b, order));
      legs.current += 1;
      toastRaised({
        id,
        tone: 'neutral',
        title: `Basket leg ${legs.current}: ${side} ${order.quantity} ${i.tradingsymbol}`,
        detail: `LIMIT ${formatPrice(order.price ?? null, i.tickSize)} ${order.product} — not sent until Place all`,
      });
    },
    [byToken, change, toastRaised],
  );
}

import { useCallback, useState } from 'react';
import type { OrderRequest } from '@shared/domain/order';
import { crossedStopProblem } from '@shared/trading/stop-trigger';
import { call } from '../../lib/ipc-client';
import { formatPrice, formatQty } from '../../lib/format';
import { newRequestId } from '../ticket/use-submit-order';
import { isRefusal, refusalReason } from '../placements/placement-model';

/**
 * What one click on the ladder became (docs/ladder.md §Each state in its cell): sending, then one
 * of the three honest answers — placed (its order id), not yet confirmed (its reference; never
 * "failed" while it may exist), or refused with the reason (nothing was created).
 */
export type ClickState =
  | { readonly kind: 'sending' }
  | { readonly kind: 'placed'; readonly orderId: string }
  | { readonly kind: 'unconfirmed'; readonly clientOrderId: string | null; readonly detail: string }
  | { readonly kind: 'refused'; readonly reason: string };

/** One click: where, what, and what it became. */
export interface LadderClick {
  readonly key: string;
  readonly side: 'bid' | 'offer';
  readonly price: number;
  readonly order: OrderRequest;
  readonly state: ClickState;
}

/** The key of a click's cell: its side and row. */
export const clickKey = (side: 'bid' | 'offer', price: number): string => `${side}:${price}`;

/**
 * The ladder's clicks: each places one order through `orders.place` (a fresh request id each, so
 * main never makes a second intent for it), and its cell keeps what it became until the next
 * click there. `said`: the status line's words; `afterOrder`: the order lists read again.
 */
export function useLadderClicks(said: (text: string) => void, afterOrder: () => void) {
  const [clicks, setClicks] = useState<ReadonlyMap<string, LadderClick>>(new Map());
  const setClick = useCallback((c: LadderClick) => {
    setClicks((m) => new Map(m).set(c.key, c));
  }, []);

  const place = useCallback(
    (side: 'bid' | 'offer', price: number, order: OrderRequest, lastPrice?: number | null) => {
      const key = clickKey(side, price);
      const what = `${order.transactionType} ${formatQty(order.quantity)} ${order.orderType === 'SL' ? 'SL ' : ''}@ ${order.price === null || order.price === undefined ? '' : formatPrice(order.price)}`;
      // A stop the last price has already crossed would trigger at once: refused, nothing sent.
      const crossed = crossedStopProblem(order, lastPrice);
      if (crossed !== null) {
        setClick({ key, side, price, order, state: { kind: 'refused', reason: crossed } });
        said(`${what} — Not placed: ${crossed}`);
        return;
      }
      setClick({ key, side, price, order, state: { kind: 'sending' } });
      said(`${what}: sending…`);
      call('orders.place', { order, requestId: newRequestId(), clickedAt: Date.now() })
        .then((o) => {
          const state: ClickState =
            o.state === 'placed'
              ? { kind: 'placed', orderId: o.orderId }
              : { kind: 'unconfirmed', clientOrderId: o.clientOrderId, detail: o.detail };
          setClick({ key, side, price, order, state });
          said(
            o.state === 'placed' ? `${what}: placed as order ${o.orderId}` : `${what}: not yet confirmed — ${o.detail}`,
          );
        })
        .catch((err: unknown) => {
          // A lost link or an unreadable answer may hide an order: never "failed" then.
          const state: ClickState = isRefusal(err)
            ? { kind: 'refused', reason: refusalReason(err.info.message) }
            : {
                kind: 'unconfirmed',
                clientOrderId: null,
                detail: 'Lost contact with the Tradedesk service — check the Orders list',
              };
          setClick({ key, side, price, order, state });
          said(
            state.kind === 'refused'
              ? `${what} — ${/^not /i.test(state.reason) ? state.reason : `Not placed: ${state.reason}`}`
              : `${what}: not yet confirmed — ${state.detail}`,
          );
        })
        .finally(afterOrder);
    },
    [setClick, said, afterOrder],
  );

  return { clicks, place };
}

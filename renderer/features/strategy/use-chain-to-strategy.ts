import { useCallback } from 'react';
import type { Instrument } from '@shared/domain/instrument';
import type { TransactionType } from '@shared/domain/order';
import { formatPrice } from '../../lib/format';
import { useToastActions } from '../../state/toast-store';
import { legOf, MAX_STRATEGY_LEGS } from './builder-model';
import { useStrategyActions } from './strategy-store';

let added = 0;

/**
 * The option chain's B / S in strategy mode (docs/strategy.md §Building): the contract as one lot
 * at the price shown, added to the strategy builder's legs (nothing is sent), with a toast saying
 * what was added — or why not. A contract of another underlying starts a new strategy, and the
 * toast says so.
 */
export function useChainToStrategy(
  byToken: ReadonlyMap<number, Instrument>,
): (instrumentToken: number, side: TransactionType, lastPrice: number) => void {
  const { legAdded } = useStrategyActions();
  const { toastRaised } = useToastActions();
  return useCallback(
    (token, side, lastPrice) => {
      const i = byToken.get(token);
      if (!i) return;
      added += 1;
      const id = `chain-strategy-${added}`;
      const leg = lastPrice > 0 ? legOf(i, side, lastPrice) : null;
      if (!leg) {
        toastRaised({
          id,
          tone: 'bad',
          title: `${i.tradingsymbol} not added to the strategy`,
          detail: 'It has no price to start from',
        });
        return;
      }
      const result = legAdded(leg);
      if (result === 'full') {
        toastRaised({
          id,
          tone: 'bad',
          title: `${i.tradingsymbol} not added to the strategy`,
          detail: `A strategy holds at most ${MAX_STRATEGY_LEGS} legs`,
        });
        return;
      }
      toastRaised({
        id,
        tone: 'neutral',
        title: `Strategy leg: ${side} 1 lot ${i.tradingsymbol} at ${formatPrice(leg.price, i.tickSize)}`,
        detail:
          result === 'replaced'
            ? `A new strategy on ${leg.underlying}: the legs on the other underlying were cleared`
            : 'Not sent — open the strategy builder to see its payoff and place it',
      });
    },
    [byToken, legAdded, toastRaised],
  );
}

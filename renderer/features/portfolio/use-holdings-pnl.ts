import { useQuery } from '@tanstack/react-query';
import { useQuotesOf } from '../market/use-quotes';
import { markHolding, sumRupees } from './position-pnl';
import { portfolioQueries } from './queries';

/** Total P&L of holdings at the latest ticks (for the "overall" figure on Positions). */
export function useHoldingsPnl(): number {
  const { data } = useQuery(portfolioQueries.holdings());
  const quotes = useQuotesOf((data ?? []).map((h) => h.instrumentToken));
  return sumRupees((data ?? []).map((h) => markHolding(h, quotes[h.instrumentToken]?.lastPrice).pnl));
}

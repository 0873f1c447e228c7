import { useQuery } from '@tanstack/react-query';
import { usePollInterval } from '../layout/use-poll-interval';
import { useMarketSubscription } from '../market/use-market-subscription';
import { useQuotesOf } from '../market/use-quotes';
import { positionTotals, type PositionTotals } from './position-pnl';
import { portfolioQueries } from './queries';

/**
 * The positions' totals at the latest ticks, from the same positions read and the same marks as
 * the Positions panel's Total row, so Funds' unrealised P&L and Positions' never disagree; null
 * until the positions have been read (unknown, never zero).
 */
export function usePositionTotals(owner: string): PositionTotals | null {
  const refetchInterval = usePollInterval('positions');
  const positions = useQuery({ ...portfolioQueries.positions(), refetchInterval }).data;
  const tokens = positions?.map((p) => p.instrumentToken) ?? [];
  const quotes = useQuotesOf(tokens);
  useMarketSubscription(owner, tokens);
  if (!positions) return null;
  return positionTotals(positions, (token) => quotes[token]?.lastPrice);
}

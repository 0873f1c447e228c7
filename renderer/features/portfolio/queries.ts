import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { OrderRequest } from '@shared/domain/order';
import { call } from '../../lib/ipc-client';

/**
 * Query factory for the account: positions, holdings, funds, and the margin a prospective
 * order needs. An order change invalidates `portfolioQueries.all()` as a whole.
 */
export const portfolioQueries = {
  all: () => ['portfolio'] as const,
  positions: () =>
    queryOptions({
      queryKey: [...portfolioQueries.all(), 'positions'],
      queryFn: () => call('positions.list'),
      retry: false,
    }),
  holdings: () =>
    queryOptions({
      queryKey: [...portfolioQueries.all(), 'holdings'],
      queryFn: () => call('holdings.list'),
      retry: false,
    }),
  funds: () =>
    queryOptions({ queryKey: [...portfolioQueries.all(), 'funds'], queryFn: () => call('funds.get'), retry: false }),
  /** Margin for an order the trader is still typing: kept while the next figure loads. */
  margin: (order: OrderRequest) =>
    queryOptions({
      queryKey: [...portfolioQueries.all(), 'margin', order],
      queryFn: () => call('margins.order', order),
      staleTime: 5_000,
      retry: false,
      placeholderData: keepPreviousData,
    }),
  /** Margin of a basket's legs together, hedging counted (docs/desk.md §Baskets): the last figure kept while the next loads. */
  basketMargin: (orders: readonly OrderRequest[]) =>
    queryOptions({
      queryKey: [...portfolioQueries.all(), 'basket-margin', orders],
      queryFn: () => call('margins.basket', { orders: [...orders] }),
      staleTime: 5_000,
      retry: false,
      placeholderData: keepPreviousData,
    }),
};

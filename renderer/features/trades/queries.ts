import { queryOptions } from '@tanstack/react-query';
import { call } from '../../lib/ipc-client';
import { orderQueries } from '../orders/queries';

/**
 * Query factory for the day's fills. Keyed under `orderQueries.all()`, so whatever refreshes the
 * orders after an order event (a fill is one) refreshes the trade book with them.
 */
export const tradeQueries = {
  list: () =>
    queryOptions({ queryKey: [...orderQueries.all(), 'trades'], queryFn: () => call('trades.list'), retry: false }),
};

import { queryOptions } from '@tanstack/react-query';
import { call } from '../../lib/ipc-client';

/** How often the chain's volatilities, deltas and open interest are re-read (prices tick live meanwhile). */
export const CHAIN_REFRESH_MS = 15_000;

/**
 * Query factory for option chains (`options.chain`). Last prices and changes move with the
 * stream's ticks; what only the chain carries — IV, delta, OI — is re-read every
 * `CHAIN_REFRESH_MS` while the chain is shown (and not while the window is hidden).
 */
export const optionQueries = {
  all: () => ['options'] as const,
  chain: (underlying: string, expiry: string | null) =>
    queryOptions({
      queryKey: [...optionQueries.all(), 'chain', underlying, expiry],
      queryFn: () => call('options.chain', { underlying, ...(expiry ? { expiry } : {}) }),
      refetchInterval: CHAIN_REFRESH_MS,
      retry: false,
    }),
};

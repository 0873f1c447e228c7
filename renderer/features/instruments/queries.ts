import { queryOptions } from '@tanstack/react-query';
import { call } from '../../lib/ipc-client';

/**
 * Query factory for the instrument universe. It changes at most daily, so it is fetched once
 * per session and kept (`staleTime: Infinity`).
 */
export const instrumentQueries = {
  all: () => ['instruments'] as const,
  list: () =>
    queryOptions({
      queryKey: [...instrumentQueries.all(), 'list'],
      queryFn: () => call('instruments.list'),
      staleTime: Infinity,
    }),
};

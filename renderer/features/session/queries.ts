import { queryOptions } from '@tanstack/react-query';
import { call } from '../../lib/ipc-client';

/** Query factory for the session and the broker link (TkDodo's key-factory pattern). */
export const sessionQueries = {
  all: () => ['session'] as const,
  status: () => queryOptions({ queryKey: [...sessionQueries.all(), 'status'], queryFn: () => call('session.status') }),
  connection: () =>
    queryOptions({ queryKey: [...sessionQueries.all(), 'connection'], queryFn: () => call('connection.status') }),
};

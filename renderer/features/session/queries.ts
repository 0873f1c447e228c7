import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { BrokerProfile } from '../../../shared/domain/session';
import { call } from '../../lib/ipc-client';

/** Query factory for the session and the broker link (TkDodo's key-factory pattern). */
export const sessionQueries = {
  all: () => ['session'] as const,
  status: () => queryOptions({ queryKey: [...sessionQueries.all(), 'status'], queryFn: () => call('session.status') }),
  connection: () =>
    queryOptions({
      queryKey: [...sessionQueries.all(), 'connection'],
      queryFn: () => call('connection.status'),
      retry: false,
    }),
};

/**
 * Logs in; on success every cached read is refetched with the new session.
 *
 * The profile (with the REST key and secret) goes to main and is not kept here: the mutation
 * variables are cleared with `gcTime: 0` once it settles.
 */
export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['session', 'login'],
    gcTime: 0,
    mutationFn: (profile: BrokerProfile) => call('session.login', { profile }),
    onSuccess: async (info) => {
      client.setQueryData(sessionQueries.status().queryKey, info);
      await client.invalidateQueries();
    },
  });
}

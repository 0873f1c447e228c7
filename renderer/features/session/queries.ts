import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { BrokerProfile } from '@shared/domain/session';
import { call } from '../../lib/ipc-client';
import { useAlertsActions } from '../../state/alerts-store';

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
  /** The request meter: read once, then kept current by `usage.changed` pushes (main answers from memory). */
  usage: () =>
    queryOptions({
      queryKey: [...sessionQueries.all(), 'usage'],
      queryFn: () => call('connection.usage'),
      staleTime: Infinity,
      retry: false,
    }),
};

/**
 * Logs in: the expiry alert is cleared when the trader asks, and on success every cached read is
 * refetched with the new session.
 *
 * The profile (with the REST key and secret) goes to main and is not kept here: the mutation
 * variables are cleared with `gcTime: 0` once it settles.
 */
export function useLogin() {
  const client = useQueryClient();
  const { loggedIn } = useAlertsActions();
  return useMutation({
    mutationKey: ['session', 'login'],
    gcTime: 0,
    // Clear the old expiry when the trader logs in, not when the answer comes: if the new session
    // is refused at once, main may report that (`session.expired`, from its own background reads)
    // before the login's answer arrives, and it must stay on screen, not be wiped after it.
    onMutate: () => loggedIn(),
    mutationFn: (profile: BrokerProfile) => call('session.login', { profile }),
    onSuccess: async (info) => {
      client.setQueryData(sessionQueries.status().queryKey, info);
      await client.invalidateQueries();
    },
  });
}

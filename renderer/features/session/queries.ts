import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { isOlderSession, type BrokerProfile, type SessionInfo, type SessionVersion } from '@shared/domain/session';
import { call } from '../../lib/ipc-client';

/**
 * The later of the session status held and one just received, by main's numbering, not by
 * arrival (docs/session.md §Session facts are ordered by main): a reply main made before
 * a push that arrived first must not overwrite it.
 */
export function laterSession(held: SessionInfo | undefined, next: SessionInfo): SessionInfo {
  return held !== undefined && isOlderSession(next.version, held.version) ? held : next;
}

/** Query factory for the session and the broker link (TkDodo's key-factory pattern). */
export const sessionQueries = {
  all: () => ['session'] as const,
  status: () =>
    queryOptions({
      queryKey: [...sessionQueries.all(), 'status'],
      // A refetch answered before a push that overtook it keeps the push.
      queryFn: async ({ client, queryKey }) =>
        laterSession(client.getQueryData<SessionInfo>(queryKey), await call('session.status')),
    }),
  connection: () =>
    queryOptions({
      queryKey: [...sessionQueries.all(), 'connection'],
      queryFn: () => call('connection.status'),
      retry: false,
    }),
  /**
   * The broker kinds main offers, as data (docs/brokers.md §The broker registry): the session
   * dialog's forms and the ticket's products. Fixed for main's run.
   */
  brokers: () =>
    queryOptions({
      queryKey: [...sessionQueries.all(), 'brokers'],
      queryFn: () => call('brokers.list'),
      staleTime: Infinity,
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
 * True when `next` is a connected session the page has not served yet: none was connected
 * before (`held` null), or it was numbered after the last one, or by another run of main.
 */
export function beginsSession(held: SessionVersion | null, next: SessionInfo): boolean {
  if (next.state !== 'connected') return false;
  if (held === null) return true;
  return held.run !== next.version.run || held.seq < next.version.seq;
}

/**
 * Starts the page over on a new session (docs/session.md §A new session re-asks every
 * read): a read still on its way was asked of the session before, and its answer — "not logged
 * in", another account's book — must not settle anything now. Cancelling puts each query back
 * as it was before that read; invalidating asks the new session.
 */
export async function askNewSession(client: QueryClient): Promise<void> {
  await client.cancelQueries();
  await client.invalidateQueries();
}

/** Takes a session status from a push or a reply into the cache, unless the cache holds a later one. */
export function takeSession(client: QueryClient, info: SessionInfo): void {
  client.setQueryData(sessionQueries.status().queryKey, (held) => laterSession(held, info));
}

/**
 * Logs in; on success the new session becomes the status (which ends the expiry alert and
 * re-asks every read, see `useBridgeEvents`).
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
    onSuccess: (info) => {
      // If main refused the new session at once, its expiry may have been pushed before this
      // reply went out: the reply is then the older fact and changes nothing. A newer session
      // re-asks every read (`useBridgeEvents`), whichever of this reply and its push came first.
      takeSession(client, info);
    },
  });
}

/**
 * Starts a login through the broker's own page (docs/session.md §Login through the broker's
 * page): main listens for the redirect and answers the page's URL; unless main opened it in its
 * own window, it opens in a new tab here. The session arrives later as `session.changed`. The
 * secret goes to main only.
 */
export function useLoginPage() {
  return useMutation({
    mutationKey: ['session', 'loginPage'],
    gcTime: 0,
    mutationFn: (profile: BrokerProfile) => call('session.loginPage', { profile }),
    onSuccess: ({ loginUrl, opened }) => {
      if (!opened) window.open(loginUrl, '_blank', 'noopener,noreferrer');
    },
  });
}

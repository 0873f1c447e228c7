import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { orderQueries } from '../orders/queries';
import { portfolioQueries } from '../portfolio/queries';
import { sessionQueries } from './queries';

/**
 * True while the broker's stream is live as far as the desk can tell: main reports it open
 * (`connection.changed`; main's watchdog replaces a socket that has been silent for 10 s, so
 * "open" means heard from within that window) and the last read of the link from main
 * succeeded, so no push can have been lost on the way (docs/live-data.md §The cadence).
 * Reads the cache only; `ConnectionStatus` keeps the link query current.
 */
export function useStreamLive(): boolean {
  const link = useQuery({ ...sessionQueries.connection(), enabled: false });
  return link.data?.stream === 'open' && link.error == null;
}

/**
 * Reconciles every account read at once when the stream is lost (the panels fall back to fast
 * polling, and their figures may be a slow cadence old) and when it comes back after a loss
 * (pushes sent meanwhile were never seen). The first time it goes live needs nothing: the
 * panels have just read everything.
 */
export function useReconcileOnStreamChange(): void {
  const client = useQueryClient();
  const live = useStreamLive();
  const seen = useRef({ live, everLive: live });
  useEffect(() => {
    const was = seen.current;
    if (was.live === live) return;
    seen.current = { live, everLive: was.everLive || live };
    if (live && !was.everLive) return;
    void client.invalidateQueries({ queryKey: orderQueries.all() }, { cancelRefetch: false });
    void client.invalidateQueries({ queryKey: portfolioQueries.all() }, { cancelRefetch: false });
  }, [client, live]);
}

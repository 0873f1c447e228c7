import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Order, OrderStatus } from '@shared/domain/order';
import { beep } from '../../lib/beep';
import { useSoundOnRef } from '../../state/settings-store';
import { useToastActions } from '../../state/toast-store';
import { orderBookOf } from '../orders/order-book-store';
import { orderQueries } from '../orders/queries';
import { instrumentQueries } from '../instruments/queries';
import { toastFor } from './order-transitions';

/** Keeps the order book loaded without re-rendering on each change (the book's listener sees those). */
const nothing = (): null => null;

/**
 * Raises a toast (and a beep, if enabled) when an order completes, is rejected or is cancelled.
 *
 * Subscribed once to the page's order book (docs/live-data.md §The order book in main), which
 * both pushes (`orders.changed`) and polls (`orders.sync`) feed: each change is looked at once, as
 * it is applied, not the whole book on every poll. A map of last-known statuses, seeded from the
 * first load so yesterday's orders stay quiet, makes each transition announce once.
 */
export function useOrderNotifications(): void {
  useQuery({ ...orderQueries.list(), select: nothing });
  const client = useQueryClient();
  const soundRef = useSoundOnRef();
  const { toastRaised } = useToastActions();

  useEffect(() => {
    const book = orderBookOf(client);
    let known: Map<string, OrderStatus> | null = null;
    const seed = (): void => {
      known = new Map(book.list().map((o) => [o.orderId, o.status]));
    };
    const see = (o: Order): void => {
      if (!known) return;
      const instruments = client.getQueryData(instrumentQueries.list().queryKey);
      const tick = instruments?.find((i) => i.instrumentToken === o.instrumentToken)?.tickSize;
      const t = toastFor(o, known.get(o.orderId), tick);
      known.set(o.orderId, o.status);
      if (!t) return;
      toastRaised(t);
      if (soundRef.current) beep(t.tone);
    };
    const quietOrSee = (o: Order): void => {
      if (known?.has(o.orderId)) see(o);
      else known?.set(o.orderId, o.status);
    };
    if (book.version > 0) seed();
    return book.subscribe((changes, how) => {
      if (!known) seed();
      // A reload (a reconnect's full answer): compare every order, announcing what moved meanwhile.
      else if (how === 'reset') for (const o of book.list()) see(o);
      // More of a book still loading: orders that were there before the first page stay quiet.
      else if (how === 'page') for (const o of book.list()) quietOrSee(o);
      else for (const c of changes) if (c.next) see(c.next);
    });
  }, [client, toastRaised, soundRef]);
}

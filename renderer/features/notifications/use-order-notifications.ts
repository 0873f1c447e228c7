import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { Order, OrderStatus } from '@shared/domain/order';
import { beep } from '../../lib/beep';
import { subscribe } from '../../lib/ipc-client';
import { useSoundOn } from '../../state/settings-store';
import { useToastActions } from '../../state/toast-store';
import { orderQueries } from '../orders/queries';
import { toastFor } from './order-transitions';

/**
 * Raises a toast (and a beep, if enabled) when an order completes, is rejected or is cancelled.
 *
 * Two sources feed it: the `order.updated` push (fast) and the polled order list (a push can be
 * lost while the stream reconnects). A map of last-known statuses, seeded from the first list
 * so yesterday's orders stay quiet, makes each transition announce once.
 */
export function useOrderNotifications(): void {
  const { data } = useQuery(orderQueries.list());
  const known = useRef<Map<string, OrderStatus> | null>(null);
  const sound = useSoundOn();
  const soundRef = useRef(sound);
  const { toastRaised } = useToastActions();

  useEffect(() => {
    soundRef.current = sound;
  }, [sound]);

  useEffect(() => {
    const see = (o: Order): void => {
      const map = known.current;
      if (!map) return;
      const t = toastFor(o, map.get(o.orderId));
      map.set(o.orderId, o.status);
      if (!t) return;
      toastRaised(t);
      if (soundRef.current) beep(t.tone);
    };
    if (data) {
      if (!known.current) known.current = new Map(data.map((o) => [o.orderId, o.status]));
      else for (const o of data) see(o);
    }
    return subscribe('order.updated', see);
  }, [data, toastRaised]);
}

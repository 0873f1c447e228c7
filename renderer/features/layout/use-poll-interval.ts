import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { isWorking, type Order } from '@shared/domain/order';
import { pollInterval, type PollableQuery } from '../../lib/poll-schedule';
import { useTicketOpen } from '../ticket/ticket-store';
import { orderQueries } from '../orders/queries';

function countWorking(orders: Order[]): number {
  let n = 0;
  for (const o of orders) if (isWorking(o.status)) n++;
  return n;
}

/** True while the account has working orders or the ticket is open: then panels poll fast. */
export function useBusy(): boolean {
  const ticketOpen = useTicketOpen();
  const { data: working = 0 } = useQuery({ ...orderQueries.list(), select: countWorking });
  return ticketOpen || working > 0;
}

/**
 * The `refetchInterval` every polled panel passes to `useQuery`: ~1 s busy, ~5 s idle, backing
 * off on failures (see `polling-policy.ts`). Its identity changes only when "busy" flips, so
 * react-query re-arms the timer exactly then.
 */
export function usePollInterval(): (query: PollableQuery) => number | false {
  const busy = useBusy();
  return useMemo(() => pollInterval(busy), [busy]);
}

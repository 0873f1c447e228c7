import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { isWorking, type Order } from '@shared/domain/order';
import type { Placement } from '@shared/domain/placement';
import { cadenceMs, type DeskState, type PolledRead } from '../../lib/cadence';
import { pollInterval, type PollableQuery } from '../../lib/poll-schedule';
import { orderQueries } from '../orders/queries';
import { isOpenPlacement } from '../placements/placement-model';
import { placementQueries } from '../placements/queries';
import { useStreamLive } from '../session/use-stream-live';
import { useTicketOpen } from '../ticket/ticket-store';

const anyWorking = (orders: Order[]): boolean => orders.some((o) => isWorking(o.status));
const anyOpen = (placements: Placement[]): boolean => placements.some(isOpenPlacement);

/**
 * What the desk knows is changing (the cadence's input), read from the caches the panels
 * already fill: the stream's liveness, working orders, unconfirmed placements, the ticket.
 */
export function useDeskState(): DeskState {
  const ticketOpen = useTicketOpen();
  const streamLive = useStreamLive();
  const { data: workingOrders = false } = useQuery({ ...orderQueries.list(), select: anyWorking });
  // Read from the cache only: the list's own observers poll it (a second interval would double that).
  const { data: unconfirmed = false } = useQuery({ ...placementQueries.list(), enabled: false, select: anyOpen });
  return { streamLive, workingOrders, unconfirmed, ticketOpen };
}

/**
 * The `refetchInterval` a polled panel passes to `useQuery` for its read: the cadence of that
 * read in the desk's current state (`cadence.ts`), backing off on failures
 * (`polling-policy.ts`). Its identity changes only when that cadence does, so react-query
 * re-arms the timer exactly then.
 */
export function usePollInterval(read: PolledRead): (query: PollableQuery) => number | false {
  const baseMs = cadenceMs(read, useDeskState());
  return useMemo(() => pollInterval(baseMs), [baseMs]);
}

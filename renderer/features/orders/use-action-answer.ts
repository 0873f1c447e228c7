import { useQuery } from '@tanstack/react-query';
import type { OrderActionKind, OrderActionOutcome } from '@shared/domain/order-action';
import { call } from '../../lib/ipc-client';
import { answerOf, failureAnswer, followedState, stillChecking, type ActionAnswer } from './action-answer';
import { FOLLOW_EVERY_MS } from './follow-action';
import { orderQueries } from './queries';

/** A modify or cancel mutation as far as its answer goes. */
export interface ActionCall {
  readonly data?: OrderActionOutcome | undefined;
  readonly error: unknown;
  readonly isPending: boolean;
  /** When it was sent: one click's reading back is never shown for another's. */
  readonly submittedAt: number;
}

/**
 * The answer of the last modify or cancel, followed while main reads the order back
 * (`orders.action`, polled every second while it is still checking): null before any answer.
 */
export function useActionAnswer(action: OrderActionKind, m: ActionCall): ActionAnswer | null {
  const first = m.data;
  const followed = useQuery({
    queryKey: [...orderQueries.all(), 'action', action, first?.orderId ?? '', m.submittedAt],
    queryFn: () => call('orders.action', { orderId: first?.orderId ?? '' }),
    enabled: !m.isPending && stillChecking(first),
    refetchInterval: (q) =>
      first && stillChecking(followedState(first, q.state.data) ?? first) ? FOLLOW_EVERY_MS : false,
    retry: false,
  });
  if (m.isPending) return null;
  if (m.error) return failureAnswer(action, m.error);
  if (!first) return null;
  return answerOf(followedState(first, followed.data) ?? first);
}

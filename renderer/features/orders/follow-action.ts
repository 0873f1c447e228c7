import type { OrderActionOutcome, OrderActionState } from '@shared/domain/order-action';
import { call } from '../../lib/ipc-client';
import { followedState, stillChecking } from './action-answer';

/** How often a page asks main where an unconfirmed action stands. */
export const FOLLOW_EVERY_MS = 1_000;

/**
 * Follows an action main could not confirm at once: asks `orders.action` every second while main
 * is still reading the order back, telling `onState` each change; resolves with where it ended.
 * `signal` stops it (the cell or the dialog went away). For panels that keep their answers per
 * order outside React's queries (the ladder); the dialog and the blotter use `useActionAnswer`.
 */
export async function followAction(
  first: OrderActionOutcome,
  onState: (s: OrderActionState) => void,
  signal?: AbortSignal,
): Promise<OrderActionState> {
  let now: OrderActionState = first;
  while (stillChecking(now) && !signal?.aborted) {
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_EVERY_MS));
    if (signal?.aborted) break;
    const next = await call('orders.action', { orderId: first.orderId }).catch(() => now);
    if (signal?.aborted) break;
    now = followedState(first, next) ?? now;
    onState(now);
  }
  return now;
}

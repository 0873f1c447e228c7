import type { ErrorKind } from '../../../shared/ipc/result';
import { TRANSIENT_KINDS } from '../broker-error';

/**
 * How a request may be repeated by the transport (DESIGN.md §4, seed §7).
 *
 * - `read`: GET (and the margin calculator, which creates nothing): retried on transient kinds.
 * - `idempotent-write`: PATCH/DELETE of an order — repeating one has the same effect as once.
 * - `once`: creates something (POST /orders, POST /session). Never repeated here; the order
 *   service resolves an ambiguous outcome by asking for the client_order_id instead.
 */
export type RetryClass = 'read' | 'idempotent-write' | 'once';

/**
 * Whether a failure of this kind may be retried unchanged for this class of request.
 *
 * 400/403/404/409 and `unexpected_shape` are answers, not accidents: sending the same request
 * again gets the same answer. 401 is handled separately (one re-login, one retry).
 */
export function isRetryable(kind: ErrorKind, retryClass: RetryClass): boolean {
  return retryClass !== 'once' && TRANSIENT_KINDS.has(kind);
}

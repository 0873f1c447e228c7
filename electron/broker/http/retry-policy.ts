import type { ErrorKind } from '@shared/ipc/result';
import { TRANSIENT_KINDS } from '../broker-error';

/**
 * How a request may be repeated by the transport (docs/brokers.md, "HTTP client, retries and limits").
 *
 * - `read`: GET (and the margin calculator, which creates nothing): retried on transient kinds.
 * - `idempotent-write`: PATCH/DELETE of an order — repeating one has the same effect as once.
 * - `once`: creates something (POST /orders, POST /session). Never repeated here; the order
 *   service resolves an ambiguous outcome by asking for the client_order_id instead.
 * - `caller`: repeated only by the caller, on its own schedule (a placement's lookups, which
 *   retry within tens of ms, and modifications, which compare before re-sending).
 */
export type RetryClass = 'read' | 'idempotent-write' | 'once' | 'caller';

/**
 * Whether a failure of this kind may be retried unchanged for this class of request.
 *
 * 400/403/404/409 and `unexpected_shape` are answers, not accidents: sending the same request
 * again gets the same answer. 401 is handled separately (one re-login, one retry).
 */
export function isRetryable(kind: ErrorKind, retryClass: RetryClass): boolean {
  return (retryClass === 'read' || retryClass === 'idempotent-write') && TRANSIENT_KINDS.has(kind);
}

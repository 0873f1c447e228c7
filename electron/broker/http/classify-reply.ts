import type { IpcError } from '@shared/ipc/result';
import { WireProblem } from '../../wire/rest-schemas';

/** `trigger_price` → `triggerPrice`: the renderer's forms name fields in the app's spelling. */
export function camelField(field: string): string {
  return field.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/**
 * The longest pause main honours from one `Retry-After` (docs/brokers.md, "HTTP client,
 * retries and limits"): a server asking for an hour must not stop polls, let alone a cancel,
 * for an hour; after this the request is simply tried again.
 */
export const MAX_RETRY_AFTER_MS = 30_000;

/**
 * Parses `Retry-After` (delta-seconds or an HTTP date) into ms from now, capped at
 * `MAX_RETRY_AFTER_MS`; undefined if absent or unreadable.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#name-retry-after
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value.trim());
  const at = Number.isFinite(seconds) ? now + seconds * 1000 : Date.parse(value);
  if (!Number.isFinite(at)) return undefined;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, Math.round(at - now)));
}

/**
 * Turns a non-2xx reply into the typed error the app reasons about, by status family first.
 *
 * The status decides the kind; the RFC 9457
 * body only adds the words and the fields. A body that is not a problem document still gets
 * the right kind, with a generic message, because a proxy's HTML 502 is still a 502.
 * @see https://www.rfc-editor.org/rfc/rfc9457
 */
export function classifyErrorReply(status: number, body: unknown, retryAfter: string | undefined): IpcError {
  const parsed = WireProblem.safeParse(body);
  const problem = parsed.success ? parsed.data : undefined;
  const detail = problem?.detail ?? problem?.title;
  const fields = problem?.errors?.map((e) => ({ field: camelField(e.field), message: e.message }));
  const first = fields?.[0];
  const withFields = first ? { field: first.field, fields } : {};

  if (status === 400 || status === 413 || status === 415 || status === 422) {
    return { kind: 'bad_request', message: detail ?? `The broker refused the request (${status})`, ...withFields };
  }
  if (status === 401) return { kind: 'unauthorized', message: detail ?? 'The broker refused the session token' };
  if (status === 403) return { kind: 'forbidden', message: detail ?? 'This session is not allowed to do that' };
  if (status === 404) return { kind: 'not_found', message: detail ?? 'Not found at the broker' };
  // 409 (duplicate reference, order no longer modifiable) and 412 (a precondition such as a
  // modification's If-Match no longer holds) both mean: the order is not as the request assumed.
  if (status === 409 || status === 412) {
    return {
      kind: 'conflict',
      message: detail ?? 'The broker reports a conflict',
      ...(problem?.order_id ? { orderId: problem.order_id } : {}),
      ...withFields,
    };
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(retryAfter);
    return {
      kind: 'rate_limited',
      message: detail ?? 'Too many requests to the broker',
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
  }
  if (status >= 500) {
    const retryAfterMs = parseRetryAfter(retryAfter);
    return {
      kind: 'server_error',
      message: detail ?? `The broker failed (${status})`,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
  }
  return { kind: 'bad_request', message: detail ?? `The broker refused the request (${status})`, ...withFields };
}

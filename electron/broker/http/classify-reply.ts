import type { IpcError } from '../../../shared/ipc/result';
import { WireProblem } from '../../../shared/wire/schemas';

/** `trigger_price` → `triggerPrice`: the renderer's forms name fields in the app's spelling. */
export function camelField(field: string): string {
  return field.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/**
 * Parses `Retry-After` (delta-seconds or an HTTP date) into ms from now; undefined if absent.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#name-retry-after
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value.trim());
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1000));
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/**
 * Turns a non-2xx reply into the typed error the app reasons about, by status family first.
 *
 * The status decides the kind (seed §7: "the status code is inspected first"); the RFC 9457
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
  if (status === 409) {
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

/** The code of a problem document (`duplicate_client_order_id`…), if the body is one. */
export function problemCode(body: unknown): string | undefined {
  const parsed = WireProblem.safeParse(body);
  return parsed.success ? parsed.data.code : undefined;
}

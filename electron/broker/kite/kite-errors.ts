import type { IpcError } from '@shared/ipc/result';
import { camelField, parseRetryAfter } from '../http/classify-reply';
import { KiteErrorBody } from './kite-wire';

/**
 * The field a Kite message names, in the app's spelling: the paper dialect starts with it
 * (`quantity: is required`), Kite quotes it in backticks (``Invalid `price` ``).
 */
export function kiteField(message: string): string | undefined {
  const quoted = /`([a-z_]+)`/.exec(message);
  const leading = /^([a-z_]+):/.exec(message);
  // Kite's decoder: "Invalid request (failed to decode quantity, got: 65.0 (expected int))".
  const decoded = /failed to decode ([a-z_]+)/.exec(message);
  const field = quoted?.[1] ?? leading?.[1] ?? decoded?.[1];
  return field === undefined ? undefined : camelField(field);
}

/**
 * Kite's static-IP refusal (docs/kite.md §Static IP), told apart by its words alone: it comes as
 * a 403 like an expired token, and whatever its `error_type` it must never end the session. The
 * address it names, or null when the app has no IP registered at all; undefined when the message
 * is something else.
 */
export function kiteIpRefusal(message: string | undefined): string | null | undefined {
  if (message === undefined) return undefined;
  const named = /\bIP \(([0-9A-Fa-f:.]{2,64})\) is not allowed to place orders/.exec(message);
  if (named) return named[1] ?? null;
  return /No IPs configured for this app/i.test(message) ? null : undefined;
}

/** What the trader reads when Kite refuses orders from this computer's address (docs/kite.md §Static IP). */
export function ipRefusalMessage(ip: string | null): string {
  return ip === null
    ? "Kite refused orders: the app has no allowed IPs yet — add this computer's IP in the Kite developer console"
    : `Kite refused orders from this computer's IP (${ip}) — add it to the app's allowed IPs in the Kite developer console`;
}

/**
 * Turns a Kite error reply into the app's error kinds (docs/kite.md §Errors).
 *
 * The `error_type` decides where Kite gives one, the status otherwise:
 * - The static-IP refusal (a 403 whose words say so, whatever its type): nothing was created and
 *   the session is fine → `forbidden`, with the address and where to register it.
 * - `TokenException` (403): the session is over → `unauthorized` (the transport ends it, once).
 * - `PermissionException` (403) → `forbidden`.
 * - `InputException`, `MarginException` (400): the broker refused and created nothing →
 *   `bad_request`, naming the field where the message names one; the words are Kite's. An unknown
 *   order ("Couldn't find that `order_id`") is `not_found`, as on every adapter.
 * - `OrderException` (400): the order is no longer as the request assumed (modifying or
 *   cancelling one that stopped working) → `conflict`, Kite's words as the message.
 * - `NetworkException` with 429 → `rate_limited`; otherwise (and `DataException`,
 *   `GeneralException` at 5xx) → `server_error`: a 5xx leaves a write's outcome open, so it
 *   is never read as a refusal.
 * - 404 → `not_found`.
 */
export function classifyKiteReply(status: number, body: unknown, retryAfter: string | undefined): IpcError {
  const parsed = KiteErrorBody.safeParse(body);
  const type = parsed.success ? parsed.data.error_type : undefined;
  const message = parsed.success ? parsed.data.message : undefined;
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(retryAfter);
    return {
      kind: 'rate_limited',
      message: message ?? 'Too many requests to Kite',
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
  }
  if (status >= 500) {
    const retryAfterMs = parseRetryAfter(retryAfter);
    return {
      kind: 'server_error',
      message: message ?? `Kite failed (${status})`,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
  }
  const ip = kiteIpRefusal(message);
  if (ip !== undefined) return { kind: 'forbidden', message: ipRefusalMessage(ip) };
  if (type === 'TokenException' || (status === 403 && type === undefined)) {
    return { kind: 'unauthorized', message: message ?? 'The Kite session has expired: log in again' };
  }
  if (type === 'PermissionException' || status === 403) {
    return { kind: 'forbidden', message: message ?? 'This Kite session is not allowed to do that' };
  }
  if (status === 404 || (message !== undefined && /couldn.?t find|not found/i.test(message))) {
    return { kind: 'not_found', message: message ?? 'Not found at Kite' };
  }
  if (type === 'OrderException') return { kind: 'conflict', message: message ?? 'Kite refused the order action' };
  const field = message === undefined ? undefined : kiteField(message);
  return {
    kind: 'bad_request',
    message: message ?? `Kite refused the request (${status})`,
    ...(field !== undefined ? { field } : {}),
  };
}

/**
 * A token Kite no longer accepts: 403 with `TokenException` (docs/kite.md §Login) — never the
 * static-IP refusal, which shares the status (and would log the trader out in a loop).
 */
export function kiteTokenRefused(status: number, body: unknown): boolean {
  if (status !== 403) return false;
  const parsed = KiteErrorBody.safeParse(body);
  if (parsed.success && kiteIpRefusal(parsed.data.message) !== undefined) return false;
  return !parsed.success || parsed.data.error_type === 'TokenException' || parsed.data.error_type === undefined;
}

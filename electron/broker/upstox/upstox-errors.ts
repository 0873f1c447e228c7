import type { IpcError } from '@shared/ipc/result';
import { camelField, parseRetryAfter } from '../http/classify-reply';
import { UpstoxErrorBody } from './upstox-wire';
// The codes are the wire's, the same the paper /upstox answers with (docs/upstox.md §Errors).
import { UPSTOX_CODES } from '../../wire/upstox-codes';

/**
 * How long a 429 without Retry-After holds its lane: Upstox counts in fixed windows of one
 * second, one minute and thirty minutes and says nothing of which one is full (docs/upstox.md
 * §Limits); the order pacer keeps the client under the minute's and the half hour's, so a
 * refusal is the second's, over when the next one starts.
 */
export const UPSTOX_429_PAUSE_MS = 1_000;

interface First {
  readonly code: string | undefined;
  readonly message: string | undefined;
  readonly property: string | undefined;
}

function firstError(body: unknown): First {
  const parsed = UpstoxErrorBody.safeParse(body);
  const e = parsed.success ? parsed.data.errors[0] : undefined;
  return {
    code: e?.error_code ?? e?.errorCode ?? undefined,
    message: e?.message ?? undefined,
    property: e?.property_path ?? e?.propertyPath ?? undefined,
  };
}

/** What the trader reads when Upstox refuses order writes from this computer's address (docs/upstox.md §Static IP). */
export function upstoxIpRefusalMessage(upstoxWords: string | undefined): string {
  const ip = upstoxWords === undefined ? undefined : /request from ([0-9A-Fa-f:.]{2,64})/.exec(upstoxWords)?.[1];
  return ip === undefined
    ? "Upstox refused orders: this app has no static IP registered — add this computer's IP in the Upstox developer console"
    : `Upstox refused orders from this computer's IP (${ip}) — register it as the app's static IP in the Upstox developer console`;
}

/**
 * Turns an Upstox error reply into the app's error kinds (docs/upstox.md §Errors). The code
 * decides where Upstox gives one, the status otherwise:
 * - 429 (`UDAPI10005`, no Retry-After) → `rate_limited`, paused `UPSTOX_429_PAUSE_MS`.
 * - 5xx → `server_error`: a write's outcome stays open, never a refusal.
 * - `UDAPI1154` (403), the static-IP refusal → `forbidden`, saying where to register the address:
 *   nothing was created and the session is fine (told apart from an expired token by code and status).
 * - 401 (`UDAPI100050` token, `UDAPI100016` credentials) → `unauthorized`.
 * - `UDAPI100010` (no such order) or 404 → `not_found`.
 * - `UDAPI100040` (the order is complete, cancelled or rejected) → `conflict`.
 * - `UDAPI100057` (the exchange is closed) and any other 4xx → `bad_request`, naming the field
 *   Upstox's `property_path` names.
 */
export function classifyUpstoxReply(status: number, body: unknown, retryAfter: string | undefined): IpcError {
  const { code, message, property } = firstError(body);
  if (status === 429) {
    return {
      kind: 'rate_limited',
      message: message ?? 'Too many requests to Upstox',
      retryAfterMs: parseRetryAfter(retryAfter) ?? UPSTOX_429_PAUSE_MS,
    };
  }
  if (status >= 500) {
    const retryAfterMs = parseRetryAfter(retryAfter);
    return {
      kind: 'server_error',
      message: message ?? `Upstox failed (${status})`,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
  }
  if (code === UPSTOX_CODES.staticIp) return { kind: 'forbidden', message: upstoxIpRefusalMessage(message) };
  if (status === 401)
    return { kind: 'unauthorized', message: message ?? 'The Upstox session has expired: log in again' };
  if (status === 403) return { kind: 'forbidden', message: message ?? 'This Upstox session is not allowed to do that' };
  if (code === UPSTOX_CODES.orderNotFound || status === 404) {
    return { kind: 'not_found', message: message ?? 'Not found at Upstox' };
  }
  if (code === UPSTOX_CODES.orderClosed)
    return { kind: 'conflict', message: message ?? 'Upstox refused the order action' };
  const field = property === undefined || property === '' ? undefined : upstoxField(property);
  return {
    kind: 'bad_request',
    message:
      code === UPSTOX_CODES.marketClosed
        ? `The exchange is closed: ${message ?? 'Upstox takes no regular order now'}`
        : (message ?? `Upstox refused the request (${status})`),
    ...(field !== undefined ? { field } : {}),
  };
}

/** Upstox's property at fault in the app's spelling (`instrument_token` is the ticket's instrument). */
function upstoxField(property: string): string {
  if (property === 'instrument_token') return 'tradingsymbol';
  return camelField(property);
}

/**
 * A token Upstox no longer accepts: 401 (`UDAPI100050`). Never the static-IP refusal, a 403
 * that must not log the trader out (docs/upstox.md §Static IP).
 */
export function upstoxTokenRefused(status: number, body: unknown): boolean {
  if (status !== 401) return false;
  return firstError(body).code !== UPSTOX_CODES.staticIp;
}

import { UPSTOX_CODES, type UpstoxCode } from '../../wire/upstox-codes';
import type { Problem } from '../problem';

/**
 * Upstox's error envelope (docs/upstox.md §Errors): `{status:"error", errors:[…]}`, each entry an
 * Upstox code (`UDAPI…`), its message, and the property and value at fault — in both spellings
 * Upstox sends (camelCase, deprecated, and snake_case). Everything the /upstox dialect refuses is
 * one of these; the engine's own refusals (Problems) are translated here.
 */

// The codes are the wire's (../../wire/upstox-codes.ts), the same the adapter reads.
export { UPSTOX_CODES, type UpstoxCode };

/** One entry of `errors[]`. */
export interface UpstoxErrorEntry {
  readonly code: UpstoxCode;
  readonly message: string;
  readonly propertyPath?: string | null;
  readonly invalidValue?: unknown;
}

/** The JSON of one entry, in both spellings. */
export function errorEntry(e: UpstoxErrorEntry): Record<string, unknown> {
  const path = e.propertyPath ?? null;
  const value = e.invalidValue ?? null;
  return {
    errorCode: e.code,
    error_code: e.code,
    message: e.message,
    propertyPath: path,
    property_path: path,
    invalidValue: value,
    invalid_value: value,
  };
}

/** A refusal in Upstox's words: thrown below an /upstox route, written by the /upstox server. */
export class UpstoxError extends Error {
  constructor(
    readonly status: number,
    readonly code: UpstoxCode,
    message: string,
    readonly propertyPath: string | null = null,
    readonly invalidValue: unknown = null,
  ) {
    super(message);
  }

  /** The JSON body Upstox sends with an error. */
  body(): Record<string, unknown> {
    return {
      status: 'error',
      errors: [
        errorEntry({
          code: this.code,
          message: this.message,
          propertyPath: this.propertyPath,
          invalidValue: this.invalidValue,
        }),
      ],
    };
  }
}

/** 400 UDAPI100036 naming the property (every bad body, query or path field). */
export function inputError(property: string, message: string, value: unknown = null): UpstoxError {
  return new UpstoxError(400, UPSTOX_CODES.invalidInput, `${property}: ${message}`, property, value);
}

/** 401 UDAPI100050: the token is unknown, revoked or past its cut-off — log in again. */
export function tokenError(message = 'Invalid token used to access API'): UpstoxError {
  return new UpstoxError(401, UPSTOX_CODES.invalidToken, message);
}

/** 400 UDAPI100010: no order with that id (or not today's). */
export function orderNotFound(id: string): UpstoxError {
  return new UpstoxError(400, UPSTOX_CODES.orderNotFound, 'Order not found', 'order_id', id.slice(0, 40));
}

/** 429 UDAPI10005, with no Retry-After: Upstox publishes its windows instead (docs/upstox.md §Limits). */
export function tooManyRequests(message = 'Too Many Request Sent'): UpstoxError {
  return new UpstoxError(429, UPSTOX_CODES.tooManyRequests, message);
}

/**
 * The engine's Problem (docs/api.md §Errors) as the Upstox error an Upstox client expects: bad
 * input UDAPI100036 naming the field, an order that can no longer change UDAPI100040, a closed
 * market UDAPI100057, limits UDAPI10005, anything else 500 UDAPI100500.
 */
export function fromProblem(p: Problem): UpstoxError {
  const first = p.errors[0];
  switch (p.code) {
    case 'order_not_modifiable':
    case 'precondition_failed':
      return new UpstoxError(400, UPSTOX_CODES.orderClosed, p.detail, 'order_id');
    case 'market_closed':
      return new UpstoxError(400, UPSTOX_CODES.marketClosed, p.detail, first?.field ?? null);
    case 'token_invalid':
    case 'token_expired':
    case 'invalid_credentials':
      return tokenError(p.detail);
    case 'rate_limited':
      return tooManyRequests(p.detail);
    case 'not_found':
      return new UpstoxError(404, UPSTOX_CODES.notFound, p.detail);
    default:
      if (p.status >= 400 && p.status < 500)
        return new UpstoxError(400, UPSTOX_CODES.invalidInput, p.detail, first?.field ?? null);
      return new UpstoxError(p.status >= 500 ? p.status : 500, UPSTOX_CODES.serverError, p.detail);
  }
}

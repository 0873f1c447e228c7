import type { Problem } from '../problem';

/**
 * Kite Connect's error envelope (docs/kite.md §Errors): `{status:"error", message, error_type,
 * data:null}` with the HTTP status Kite uses for each exception type. Everything the /kite
 * dialect refuses is one of these; the engine's own refusals (Problems) are translated here, so
 * the trading rules speak the same words on both dialects.
 */

/** The exception types the paper broker answers with (a subset of Kite's). */
export type KiteErrorType =
  | 'TokenException'
  | 'InputException'
  | 'OrderException'
  | 'MarginException'
  | 'NetworkException'
  | 'GeneralException'
  | 'PermissionException';

/** A refusal in Kite's words: thrown below a /kite route, written by the /kite server. */
export class KiteError extends Error {
  constructor(
    readonly status: number,
    readonly errorType: KiteErrorType,
    message: string,
    /** Extra response headers (Retry-After on a 429). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  /** The JSON body Kite sends with an error. */
  body(): Record<string, unknown> {
    return { status: 'error', message: this.message, error_type: this.errorType, data: null };
  }
}

/** 400 InputException naming the field (every bad form or query field). */
export function inputError(field: string, message: string): KiteError {
  return new KiteError(400, 'InputException', `${field}: ${message}`);
}

/** 403 TokenException: Kite's "log in again" (kiteconnect's session-expiry hook fires on it). */
export function tokenError(message: string): KiteError {
  return new KiteError(403, 'TokenException', message);
}

/**
 * The engine's Problem (docs/api.md §Errors) as the Kite exception a Kite client expects:
 * bad input 400 InputException, a missing margin 400 MarginException, an order that can no
 * longer change 400 OrderException, an unknown order 400 InputException (Kite's "Couldn't find
 * that order_id"), expiry and bad tokens 403 TokenException, limits 429 NetworkException,
 * anything else 500 GeneralException.
 */
export function fromProblem(p: Problem): KiteError {
  const retry = p.headers['Retry-After'];
  const headers: Record<string, string> = retry === undefined ? {} : { 'Retry-After': retry };
  switch (p.code) {
    case 'insufficient_margin':
      return new KiteError(400, 'MarginException', p.detail);
    case 'order_not_modifiable':
    case 'gtt_not_modifiable':
    case 'precondition_failed':
      return new KiteError(400, 'OrderException', p.detail);
    case 'token_invalid':
    case 'token_expired':
    case 'invalid_credentials':
      return new KiteError(403, 'TokenException', p.detail);
    case 'forbidden':
      return new KiteError(403, 'PermissionException', p.detail);
    case 'rate_limited':
      return new KiteError(429, 'NetworkException', p.detail, headers);
    case 'payload_too_large':
      return new KiteError(413, 'InputException', p.detail);
    default:
      if (p.status >= 400 && p.status < 500) return new KiteError(400, 'InputException', p.detail);
      return new KiteError(p.status >= 500 ? p.status : 500, 'GeneralException', p.detail);
  }
}

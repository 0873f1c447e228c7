import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { nextIstTimeOfDay } from '@shared/lib/ist-time';
import type { Session, Sessions } from '../sessions';
import { PAPER_API_KEY, PAPER_API_SECRET } from '../sessions';
import { tokenError } from './errors';

/**
 * The Kite login (docs/kite.md §Login): the login page hands out a one-time `request_token`,
 * `POST /session/token` trades it (with the checksum) for an access token, and that token is
 * sent as `Authorization: token api_key:access_token`. Access tokens are the broker's own
 * sessions (one account behind both dialects) and expire at the next 06:00 IST, as Kite's do.
 */

/** How long a request token may wait to be exchanged (Kite's are short-lived too). */
const REQUEST_TOKEN_TTL_MS = 5 * 60 * 1000;
/** Request tokens outstanding at most; older ones are forgotten first (a login-page flood stays bounded). */
const MAX_REQUEST_TOKENS = 1000;

const HOUR = 60 * 60 * 1000;

/** The first 06:00 IST strictly after `at`: when a Kite access token issued at `at` expires. */
export function kiteExpiry(at: number): number {
  return nextIstTimeOfDay(at, 6 * HOUR);
}

/** Hex SHA-256 of api_key + request_token + api_secret: the checksum `POST /session/token` needs. */
export function kiteChecksum(apiKey: string, requestToken: string, apiSecret: string): string {
  return createHash('sha256')
    .update(apiKey + requestToken + apiSecret)
    .digest('hex');
}

/** Request tokens issued by the login page and not yet exchanged. */
export class RequestTokens {
  private readonly issued = new Map<string, number>();

  issue(now: number): string {
    if (this.issued.size >= MAX_REQUEST_TOKENS) {
      const oldest = this.issued.keys().next().value;
      if (oldest !== undefined) this.issued.delete(oldest);
    }
    const t = randomBytes(16).toString('hex');
    this.issued.set(t, now);
    return t;
  }

  /** Spends a request token: true once for a token issued in the last few minutes, false after. */
  spend(token: string, now: number): boolean {
    const at = this.issued.get(token);
    if (at === undefined) return false;
    this.issued.delete(token);
    return now - at <= REQUEST_TOKEN_TTL_MS;
  }
}

/** The paper account's api_key on /kite (docs/kite.md §Login): the same as /v1's. */
export const KITE_API_KEY = PAPER_API_KEY;
/** The paper account's api_secret on /kite: what the login checksum is made with (unless a test gives a canary). */
export const KITE_API_SECRET = PAPER_API_SECRET;

/** True when `checksum` is the right one for this api_key, request_token and secret (constant time). */
export function checksumMatches(requestToken: string, checksum: string, apiSecret = KITE_API_SECRET): boolean {
  const want = Buffer.from(kiteChecksum(KITE_API_KEY, requestToken, apiSecret));
  const got = Buffer.from(checksum.toLowerCase());
  return got.length === want.length && timingSafeEqual(got, want);
}

/**
 * The session an `Authorization: token api_key:access_token` header names, or 403
 * TokenException saying why not (Kite answers 403 where /v1 answers 401).
 */
export function kiteAuthenticate(sessions: Sessions, header: string | undefined, now: number): Session {
  const m = /^token\s+([^:\s]+):(\S+)\s*$/i.exec(header ?? '');
  if (!m) throw tokenError('Send Authorization: token api_key:access_token (from POST /session/token)');
  if (m[1] !== KITE_API_KEY) throw tokenError('Invalid `api_key` in the Authorization header');
  const s = sessions.get(m[2] as string);
  if (!s || s.revoked) throw tokenError('Incorrect `api_key` or `access_token`.');
  if (s.expiresAt <= now) throw tokenError('The access token has expired; log in again');
  return s;
}

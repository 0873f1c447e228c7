import { randomBytes } from 'node:crypto';
import { nextIstTimeOfDay } from '@shared/lib/ist-time';
import type { Session, Sessions } from '../sessions';
import { PAPER_API_KEY } from '../sessions';
import { tokenError } from './errors';

/**
 * The Upstox login (docs/upstox.md §Login): the authorization dialog hands out a single-use
 * `code` on the redirect, `POST /v2/login/authorization/token` trades it (with the client
 * secret) for an access token, and that token is sent as `Authorization: Bearer …`. Access
 * tokens are the broker's own sessions (one account behind every dialect) and end at the next
 * 03:30 IST, as Upstox's do. The feeds' `…/authorize` endpoints hand out single-use socket codes
 * the same way.
 */

/** How long a code may wait to be exchanged: Upstox's are short-lived and single-use. */
export const CODE_TTL_MS = 5 * 60 * 1000;
/** Codes outstanding at most; the oldest are forgotten first (a dialog flood stays bounded). */
const MAX_CODES = 1000;

const HOUR = 60 * 60 * 1000;

/** The first 03:30 IST strictly after `at`: when an Upstox access token issued at `at` ends. */
export function upstoxExpiry(at: number): number {
  return nextIstTimeOfDay(at, 3.5 * HOUR);
}

/** Single-use codes, each bound to what it was issued for (a redirect URI, a session). */
export class OneTimeCodes<T> {
  private readonly issued = new Map<string, { at: number; value: T }>();

  issue(value: T, now: number): string {
    if (this.issued.size >= MAX_CODES) {
      const oldest = this.issued.keys().next().value;
      if (oldest !== undefined) this.issued.delete(oldest);
    }
    const code = randomBytes(12).toString('base64url');
    this.issued.set(code, { at: now, value });
    return code;
  }

  /** Spends a code: what it was issued for, once, within the lifetime; undefined after. */
  spend(code: string, now: number): T | undefined {
    const got = this.issued.get(code);
    if (!got) return undefined;
    this.issued.delete(code);
    return now - got.at <= CODE_TTL_MS ? got.value : undefined;
  }
}

/** The paper app's client_id and client_secret (`paper`, as on /v1 and /kite). */
export const UPSTOX_CLIENT_ID = PAPER_API_KEY;

/** True when the header names no session the broker ever issued: a guess, not an ended login. */
export function isGuess(sessions: Sessions, header: string | undefined): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return !m || sessions.get(m[1] as string) === undefined;
}

/** The session an `Authorization: Bearer <token>` header names, or 401 UDAPI100050. */
export function upstoxAuthenticate(sessions: Sessions, header: string | undefined, now: number): Session {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!m) throw tokenError('Send Authorization: Bearer <access_token> (from POST /v2/login/authorization/token)');
  const s = sessions.get(m[1] as string);
  if (!s || s.revoked || s.expiresAt <= now) throw tokenError();
  return s;
}

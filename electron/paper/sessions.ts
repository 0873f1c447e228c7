import { randomBytes } from 'node:crypto';
import { Problem } from './problem';

/**
 * Issued access tokens: who they belong to, what they may do, and until when.
 *
 * Expired and revoked tokens are remembered so the broker can tell "expired" (401
 * token_expired: log in again) from "never valid" (401 token_invalid) — a client re-authenticates
 * on both, but the difference matters when debugging.
 */

export type Scope = 'trade' | 'read';

export interface Session {
  readonly token: string;
  readonly userId: string;
  readonly scope: Scope;
  expiresAt: number;
  revoked: boolean;
}

/** The default paper account's credentials (docs/api.md §Running it: api_key and api_secret "paper"). */
export const PAPER_API_KEY = 'paper';
export const PAPER_API_SECRET = 'paper';
export const PAPER_USER_ID = 'PAPER01';

export class Sessions {
  private readonly byToken = new Map<string, Session>();

  constructor(
    private readonly ttlMs: number,
    /** The account's api_secret (`PAPER_API_SECRET` unless a test gives a canary). */
    readonly apiSecret: string = PAPER_API_SECRET,
  ) {}

  issue(scope: Scope, now: number): Session {
    const s: Session = {
      token: randomBytes(24).toString('base64url'),
      userId: PAPER_USER_ID,
      scope,
      expiresAt: now + this.ttlMs,
      revoked: false,
    };
    this.byToken.set(s.token, s);
    return s;
  }

  /** Puts back a session read from the journal. */
  restore(s: Session): void {
    this.byToken.set(s.token, s);
  }

  get(token: string): Session | undefined {
    return this.byToken.get(token);
  }

  revoke(token: string): Session | undefined {
    const s = this.byToken.get(token);
    if (s) s.revoked = true;
    return s;
  }

  /** Forces expiry now (the `token_expiry` fault). */
  expire(token: string, now: number): void {
    const s = this.byToken.get(token);
    if (s) s.expiresAt = Math.min(s.expiresAt, now - 1);
  }

  all(): Session[] {
    return [...this.byToken.values()];
  }

  /** The session an `Authorization` header names, or a 401 problem saying why not. */
  authenticate(header: string | undefined, now: number): Session {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    if (!m) {
      throw new Problem(
        401,
        'token_invalid',
        'Send Authorization: Bearer <access_token> (from POST /v1/session)',
        [],
        {},
        { 'WWW-Authenticate': 'Bearer realm="paper"' },
      );
    }
    const s = this.byToken.get(m[1] as string);
    if (!s || s.revoked) {
      throw new Problem(
        401,
        'token_invalid',
        'The access token is not valid; log in again',
        [],
        {},
        { 'WWW-Authenticate': 'Bearer realm="paper", error="invalid_token"' },
      );
    }
    if (s.expiresAt <= now) {
      throw new Problem(
        401,
        'token_expired',
        'The access token has expired; log in again',
        [],
        {},
        {
          'WWW-Authenticate': 'Bearer realm="paper", error="invalid_token", error_description="expired"',
        },
      );
    }
    return s;
  }
}

import { Problem } from './problem';
import { type RateConfig, RateLimiter, type Take } from './rate-limit';
import type { Session, Sessions } from './sessions';

/** Failed authentications allowed per address: a burst, then this many a second. */
export const AUTH_FAILURES: RateConfig = { perSecond: 1, burst: 20 };

/**
 * Authentication with a limit on failures per address (docs/api.md §Limits).
 *
 * A bearer token that is unknown, and a login with the wrong secret, each spend one token from
 * the caller's address bucket; once it is empty those failures answer 429 with Retry-After
 * instead of 401, so a flood of guesses costs the broker a bucket lookup and earns the guesser
 * a pause. Valid credentials are never held back: tokens are 192 random bits that nobody
 * guesses, the paper account's secret is public, and refusing the right ones would let a
 * wrong-token flood from the same loopback address lock the app out of its own broker.
 */
export class AuthGuard {
  private readonly failures: RateLimiter;

  constructor(
    readonly sessions: Sessions,
    cfg: RateConfig = AUTH_FAILURES,
  ) {
    this.failures = new RateLimiter('auth_failures', cfg);
  }

  /** The session an `Authorization` header names, or 401 (429 once this address failed too often). */
  authenticate(header: string | undefined, address: string, now: number): Session {
    try {
      return this.sessions.authenticate(header, now);
    } catch (e) {
      // An expired token was a real one: only guesses (unknown or malformed tokens) count.
      if (e instanceof Problem && e.code === 'token_invalid') this.failed(address, now);
      throw e;
    }
  }

  /** Counts one failure; throws 429 when it was one too many, else returns (the caller throws its 401). */
  failed(address: string, now: number): void {
    const t = this.failures.take(address, now);
    if (!t.ok) throw this.tooMany(address, t);
  }

  private tooMany(address: string, t: Take): Problem {
    return new Problem(
      429,
      'rate_limited',
      `Too many failed authentications from ${address || 'this address'}; retry in ${t.retryAfterS} s`,
      [],
      {},
      { 'Retry-After': String(t.retryAfterS) },
    );
  }
}

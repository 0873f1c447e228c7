/** How long to wait before retry number `attempt` (0-based), and how often to try at all. */
export interface BackoffPolicy {
  /** The first retry's ceiling, in ms; it doubles per attempt. */
  readonly baseMs: number;
  /** No single wait exceeds this, so a long outage does not grow waits without bound. */
  readonly capMs: number;
  /** Retries after the first try (so `maxRetries + 1` sends at most). */
  readonly maxRetries: number;
}

/** Defaults for reads and idempotent writes: 100 ms doubling, capped at 2 s, 6 retries. */
export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 100, capMs: 2_000, maxRetries: 6 };

/**
 * Exponential backoff with full jitter: a uniform wait in `[0, min(cap, base·2^attempt))`.
 *
 * Full jitter (rather than equal jitter or none) spreads a crowd of clients that failed
 * together, so they do not come back together and knock the server over again.
 * @see https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/
 */
export function fullJitterDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}

/**
 * The wait before a retry: the jittered backoff, but never earlier than the server's Retry-After.
 *
 * A 429 tells us when the server will accept us again; retrying sooner only earns another 429.
 */
export function retryDelay(
  attempt: number,
  policy: BackoffPolicy,
  retryAfterMs?: number,
  random?: () => number,
): number {
  const jitter = fullJitterDelay(attempt, policy, random);
  return retryAfterMs === undefined ? jitter : Math.max(retryAfterMs, jitter);
}

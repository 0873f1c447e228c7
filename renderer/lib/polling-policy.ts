/**
 * When to poll the broker next: a pure function, so it is unit-tested without a clock.
 *
 * The base interval comes from the cadence (`cadence.ts`: what is known to be changing decides
 * how often each read is due). Failing polls back off exponentially from it with "equal jitter"
 * (half fixed, half random) so a flock of panels does not retry in lockstep against a broker that
 * is already refusing them, and a `rate_limited` reply's `retryAfterMs` is a floor: polling
 * sooner would only earn another 429. Hidden windows do not poll at all.
 */

/** The knobs of the backoff (milliseconds). */
export interface PollPolicy {
  /**
   * Ceiling of the exponential backoff (a `retryAfterMs` may exceed it). A read whose base interval
   * is longer retries a failure within it: the panel is stale meanwhile, and recovering sooner is
   * worth a few requests while the broker is failing.
   */
  readonly maxBackoffMs: number;
  /** The longest `retryAfterMs` honoured, so a bogus header cannot freeze a panel. */
  readonly maxRetryAfterMs: number;
}

/** Backoff up to 30 s, a Retry-After honoured up to 2 min. */
export const DEFAULT_POLL_POLICY: PollPolicy = {
  maxBackoffMs: 30_000,
  maxRetryAfterMs: 120_000,
};

/** What the policy looks at. */
export interface PollSituation {
  /** The read's interval in the desk's current state (`cadenceMs`), before any backoff. */
  readonly baseMs: number;
  /** The window is hidden (minimised, another tab). */
  readonly hidden: boolean;
  /** Polls that failed in a row since the last success. */
  readonly failures: number;
  /** From a `rate_limited` error: how long the broker asked us to wait. */
  readonly retryAfterMs?: number | null;
}

/**
 * The delay before the next poll in milliseconds, or `false` for "do not poll".
 *
 * `random` is injectable so tests can pin the jitter; it must return a number in [0, 1).
 */
export function nextPollDelay(
  s: PollSituation,
  policy: PollPolicy = DEFAULT_POLL_POLICY,
  random: () => number = Math.random,
): number | false {
  if (s.hidden) return false;
  const base = s.baseMs;
  if (s.failures <= 0) return base;
  const ceiling = Math.min(policy.maxBackoffMs, base * 2 ** Math.min(s.failures, 30));
  const jittered = Math.round(ceiling / 2 + random() * (ceiling / 2));
  const floor = Math.min(policy.maxRetryAfterMs, Math.max(0, s.retryAfterMs ?? 0));
  return Math.max(jittered, floor);
}

/** The knobs of a panel's freshness promise (milliseconds, and a count of poll intervals). */
export interface FreshnessPolicy {
  /** Data may be this many expected intervals old before it is called stale. */
  readonly intervals: number;
  /**
   * Never stale sooner than this, however fast the panel polls: at a 1 s interval a poll that
   * waits its turn behind a burst of order actions is normal, not a reason to cry wolf.
   */
  readonly floorMs: number;
  /** A poll that has been waiting this long for its answer makes the panel stale at once. */
  readonly maxWaitMs: number;
}

/** Stale past three intervals (at least 10 s), or after a poll has waited 10 s for its answer. */
export const DEFAULT_FRESHNESS_POLICY: FreshnessPolicy = { intervals: 3, floorMs: 10_000, maxWaitMs: 10_000 };

/** What a panel promises about its data: how old it may get, and how long a poll may wait. */
export interface FreshnessPromise {
  readonly maxAgeMs: number;
  readonly maxWaitMs: number;
}

/**
 * The promise of a panel polled every `expectedIntervalMs` (its current base interval, not a
 * backoff delay): stale past three intervals, but never later than one interval plus the wait a
 * poll is allowed, and never sooner than the floor. A panel polled every second is stale at 10 s,
 * every 5 s at 15 s, and one re-checked every 30 s while the stream is live at 40 s: with the
 * stream live its figures are current as long as the last reconcile is within its cadence (every
 * change in between arrives as a push and reconciles at once), and a reconcile that is late by
 * more than a poll's allowed wait means something is wrong. A poll that waits longer than
 * `maxWaitMs` breaks the promise too, because the data then cannot be refreshed in time whatever
 * its age.
 */
export function freshnessPromise(
  expectedIntervalMs: number,
  policy: FreshnessPolicy = DEFAULT_FRESHNESS_POLICY,
): FreshnessPromise {
  const maxAgeMs = Math.max(
    policy.floorMs,
    Math.min(policy.intervals * expectedIntervalMs, expectedIntervalMs + policy.maxWaitMs),
  );
  return { maxAgeMs, maxWaitMs: Math.min(policy.maxWaitMs, maxAgeMs) };
}

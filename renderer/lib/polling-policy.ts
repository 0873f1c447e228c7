/**
 * When to poll the broker next: a pure function, so it is unit-tested without a clock.
 *
 * A trader with working orders needs the blotter within about a second; an idle account can
 * wait five. Failing polls back off exponentially with "equal jitter" (half fixed, half random)
 * so a flock of panels does not retry in lockstep against a broker that is already refusing
 * them, and a `rate_limited` reply's `retryAfterMs` is a floor: polling sooner would only earn
 * another 429. Hidden windows do not poll at all.
 */

/** The knobs of the policy (milliseconds). */
export interface PollPolicy {
  /** Interval while orders are working or the ticket is open. */
  readonly busyMs: number;
  /** Interval when nothing is in flight. */
  readonly idleMs: number;
  /** Ceiling of the exponential backoff (a `retryAfterMs` may exceed it). */
  readonly maxBackoffMs: number;
  /** The longest `retryAfterMs` honoured, so a bogus header cannot freeze a panel. */
  readonly maxRetryAfterMs: number;
}

/** The defaults (docs/architecture.md, "Live data: polling, the stream and ticks"): ~1 s busy, ~5 s idle, backoff up to 30 s. */
export const DEFAULT_POLL_POLICY: PollPolicy = {
  busyMs: 1_000,
  idleMs: 5_000,
  maxBackoffMs: 30_000,
  maxRetryAfterMs: 120_000,
};

/** What the policy looks at. */
export interface PollSituation {
  /** Orders are working or the ticket is open. */
  readonly busy: boolean;
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
  const base = s.busy ? policy.busyMs : policy.idleMs;
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
 * backoff delay): a panel polled every 5 s is stale at 15 s, one polled every 30 s while the
 * stream is live at 90 s. A poll that waits longer than `maxWaitMs` breaks the promise too,
 * because the data then cannot be refreshed in time whatever its age.
 */
export function freshnessPromise(
  expectedIntervalMs: number,
  policy: FreshnessPolicy = DEFAULT_FRESHNESS_POLICY,
): FreshnessPromise {
  const maxAgeMs = Math.max(policy.floorMs, policy.intervals * expectedIntervalMs);
  return { maxAgeMs, maxWaitMs: Math.min(policy.maxWaitMs, maxAgeMs) };
}

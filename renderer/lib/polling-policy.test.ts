import { describe, expect, it } from 'vitest';
import { DEFAULT_POLL_POLICY, nextPollDelay } from './polling-policy';

const low = () => 0; // jitter pinned to the bottom of its range
const high = () => 0.999_999; // …and to the top

describe('nextPollDelay', () => {
  it("polls at the read's base interval while nothing fails", () => {
    expect(nextPollDelay({ baseMs: 1_000, hidden: false, failures: 0 })).toBe(1_000);
    expect(nextPollDelay({ baseMs: 30_000, hidden: false, failures: 0 })).toBe(30_000);
  });

  it('does not poll at all while the window is hidden, fast or slow, failing or not', () => {
    expect(nextPollDelay({ baseMs: 1_000, hidden: true, failures: 0 })).toBe(false);
    expect(nextPollDelay({ baseMs: 5_000, hidden: true, failures: 3, retryAfterMs: 10_000 })).toBe(false);
  });

  it('backs off exponentially on consecutive failures, with equal jitter', () => {
    // Ceiling doubles per failure from the base interval; the delay lies in [ceiling/2, ceiling].
    for (const [failures, ceiling] of [
      [1, 2_000],
      [2, 4_000],
      [3, 8_000],
      [4, 16_000],
    ] as const) {
      expect(nextPollDelay({ baseMs: 1_000, hidden: false, failures }, DEFAULT_POLL_POLICY, low)).toBe(ceiling / 2);
      expect(nextPollDelay({ baseMs: 1_000, hidden: false, failures }, DEFAULT_POLL_POLICY, high)).toBe(ceiling);
    }
  });

  it('spreads retries of the same failure count over a range instead of in lockstep', () => {
    const delays = new Set<number | false>();
    for (let i = 0; i < 50; i++) delays.add(nextPollDelay({ baseMs: 1_000, hidden: false, failures: 3 }));
    expect(delays.size).toBeGreaterThan(10);
    for (const d of delays) {
      expect(d).toBeGreaterThanOrEqual(4_000);
      expect(d).toBeLessThanOrEqual(8_000);
    }
  });

  it('caps the backoff at 30 s however long the outage', () => {
    expect(nextPollDelay({ baseMs: 5_000, hidden: false, failures: 50 }, DEFAULT_POLL_POLICY, high)).toBe(30_000);
    expect(nextPollDelay({ baseMs: 5_000, hidden: false, failures: 1_000 }, DEFAULT_POLL_POLICY, low)).toBe(15_000);
  });

  it('never polls sooner than a rate-limited reply asked', () => {
    expect(
      nextPollDelay({ baseMs: 1_000, hidden: false, failures: 1, retryAfterMs: 7_000 }, DEFAULT_POLL_POLICY, low),
    ).toBe(7_000);
    // Above the backoff ceiling too: the broker's word wins over our cap…
    expect(
      nextPollDelay({ baseMs: 1_000, hidden: false, failures: 9, retryAfterMs: 45_000 }, DEFAULT_POLL_POLICY, high),
    ).toBe(45_000);
    // …but a short retryAfter does not shorten the backoff.
    expect(
      nextPollDelay({ baseMs: 1_000, hidden: false, failures: 3, retryAfterMs: 1_000 }, DEFAULT_POLL_POLICY, low),
    ).toBe(4_000);
  });

  it('does not let an absurd retryAfterMs freeze a panel', () => {
    expect(
      nextPollDelay({ baseMs: 1_000, hidden: false, failures: 1, retryAfterMs: 86_400_000 }, DEFAULT_POLL_POLICY, low),
    ).toBe(120_000);
  });

  it('retries a failed slow read within the 30 s backoff cap, not at its longer base interval', () => {
    expect(nextPollDelay({ baseMs: 120_000, hidden: false, failures: 1 }, DEFAULT_POLL_POLICY, high)).toBe(30_000);
    expect(nextPollDelay({ baseMs: 120_000, hidden: false, failures: 1 }, DEFAULT_POLL_POLICY, low)).toBe(15_000);
  });

  it('goes back to the normal interval after a success', () => {
    expect(nextPollDelay({ baseMs: 1_000, hidden: false, failures: 0, retryAfterMs: 9_000 })).toBe(1_000);
  });
});

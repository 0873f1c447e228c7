import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fullJitterDelay, retryDelay } from './backoff';

const policy = { baseMs: 100, capMs: 2_000, maxRetries: 6 };

describe('full-jitter backoff', () => {
  it('stays within [0, min(cap, base·2^attempt)) for any attempt and random draw', () => {
    fc.assert(
      fc.property(fc.nat(60), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, r) => {
        const d = fullJitterDelay(attempt, policy, () => r);
        return d >= 0 && d < Math.min(policy.capMs, policy.baseMs * 2 ** attempt) + 1e-9;
      }),
    );
  });

  it('grows its ceiling exponentially until the cap', () => {
    const top = (a: number): number => fullJitterDelay(a, policy, () => 0.999999);
    expect([0, 1, 2, 3, 4, 5].map(top)).toEqual([99, 199, 399, 799, 1599, 1999]);
  });

  it('never retries before the server said Retry-After', () => {
    expect(retryDelay(0, policy, 1_000, () => 0)).toBe(1_000);
    expect(retryDelay(5, policy, 10, () => 0.999)).toBeGreaterThan(10);
    expect(retryDelay(1, policy, undefined, () => 0.5)).toBe(100);
  });
});

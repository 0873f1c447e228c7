import { describe, expect, it } from 'vitest';
import { TokenBucket, type BucketClock } from './token-bucket';

/** A clock that only moves when told: sleeps advance it, so waits are counted, not waited. */
function fakeClock(): BucketClock & { t: number } {
  const c = {
    t: 0,
    now: () => c.t,
    sleep: async (ms: number) => {
      c.t += ms;
    },
  };
  return c;
}

describe('client token bucket', () => {
  it('lets a burst through at once, then paces at the rate in arrival order', () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ perSecond: 10, burst: 3 }, clock);
    const waits = Array.from({ length: 6 }, () => bucket.reserve());
    expect(waits).toEqual([0, 0, 0, 100, 200, 300]);
  });

  it('never admits more than burst + rate·t requests in any window starting full', async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ perSecond: 8, burst: 16 }, clock);
    const admitted: number[] = [];
    for (let i = 0; i < 100; i += 1) {
      const start = clock.t;
      const wait = bucket.reserve();
      admitted.push(start + wait);
    }
    for (const t of [0, 500, 1_000, 5_000]) {
      expect(admitted.filter((a) => a <= t).length).toBeLessThanOrEqual(16 + (8 * t) / 1000);
    }
  });

  it('a Retry-After pause holds back every caller until it has passed', () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ perSecond: 10, burst: 20 }, clock);
    bucket.pause(1_000);
    expect(bucket.reserve()).toBeGreaterThanOrEqual(1_000);
  });

  it('refills up to the burst, not beyond', () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ perSecond: 10, burst: 2 }, clock);
    clock.t += 60_000;
    expect([bucket.reserve(), bucket.reserve(), bucket.reserve()]).toEqual([0, 0, 100]);
  });
});

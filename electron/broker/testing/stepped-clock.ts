import type { BucketClock } from '../http/token-bucket';

/** Lets pending promise callbacks run (one turn of the event loop). */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Test-only: a clock whose sleeps end only when the test advances it past them, in time order,
 * so a limiter's waits are counted, not waited.
 */
export function steppedClock(): BucketClock & { t: number; advance(ms: number): Promise<void> } {
  const timers: Array<{ at: number; fire: () => void }> = [];
  const c = {
    t: 0,
    now: () => c.t,
    sleep: (ms: number) => new Promise<void>((resolve) => void timers.push({ at: c.t + ms, fire: resolve })),
    async advance(ms: number): Promise<void> {
      const end = c.t + ms;
      for (;;) {
        await settle();
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > end) break;
        timers.shift();
        c.t = next.at;
        next.fire();
      }
      c.t = end;
      await settle();
    },
  };
  return c;
}

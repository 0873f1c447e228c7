import { describe, expect, it } from 'vitest';
import { measuredWindow } from './measured-window';

/**
 * A page taking main's 10 `market.ticks` messages a second, on a clock the test moves: the
 * window is 6 s, and stopping the profiler takes 4 s more (a loaded machine writing its trace).
 */
function tickingPage() {
  let now = 0;
  let on = false;
  let messages = 0;
  const pass = (ms: number): void => {
    for (let t = now + 1; t <= now + ms; t += 1) if (on && t % 100 === 0) messages += 1;
    now += ms;
  };
  return {
    now: () => now,
    wait: async (ms: number) => pass(ms),
    probesOn: async () => {
      on = true;
    },
    probesOff: async () => {
      on = false;
      return messages;
    },
    profile: async () => async () => {
      pass(4_000);
      return 'profile';
    },
  };
}

describe('a profiled bench window', () => {
  it("counts the page's messages over the window only, not while the profiler stops", async () => {
    const page = tickingPage();
    const w = await measuredWindow(6_000, page);
    expect(w.profile).toBe('profile');
    expect(w.probes / w.seconds).toBe(10);
    expect(w.seconds).toBe(6);
    expect(w.profilerStopSeconds).toBe(4);
  });

  it('reads the same rate without a profiler', async () => {
    const { profile: _, ...page } = tickingPage();
    const w = await measuredWindow(6_000, page);
    expect(w.probes / w.seconds).toBe(10);
  });
});

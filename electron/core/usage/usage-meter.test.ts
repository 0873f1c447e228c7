import { describe, expect, it } from 'vitest';
import type { BrokerUsage } from '@shared/domain/usage';
import type { BrokerLimits } from '../../broker/broker';
import { UsageMeter, type MeterClock } from './usage-meter';

/** A clock moved by hand; scheduled callbacks run when it passes their time. */
function manualClock(): MeterClock & { advance(ms: number): void; pending(): number } {
  let t = 0;
  let timers: Array<{ at: number; fn: () => void }> = [];
  return {
    now: () => t,
    schedule(fn, ms) {
      const timer = { at: t + ms, fn };
      timers.push(timer);
      return () => (timers = timers.filter((x) => x !== timer));
    },
    advance(ms) {
      const end = t + ms;
      for (;;) {
        const next = timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        timers = timers.filter((x) => x !== next);
        t = next.at;
        next.fn();
      }
      t = end;
    },
    pending: () => timers.length,
  };
}

const PAPER: BrokerLimits = { requests: { perSecond: 10, burst: 20 }, placements: null, source: 'broker' };

function meter(windowMs = 30_000) {
  const clock = manualClock();
  const published: BrokerUsage[] = [];
  const m = new UsageMeter({ broker: 'Paper broker', publish: (u) => published.push(u), windowMs, clock });
  m.setLimits(PAPER, { perSecond: 8, burst: 16 });
  return { m, clock, published };
}

describe('UsageMeter', () => {
  it('publishes the rate over its window against the broker’s limit and the desk’s pace', () => {
    const { m, clock, published } = meter();
    for (let i = 0; i < 3; i++) m.sent();
    clock.advance(1_000);
    expect(published.at(-1)).toEqual({
      broker: 'Paper broker',
      windowMs: 30_000,
      requests: 3,
      perSecond: 0.1,
      peakPerSecond: 3,
      limit: { perSecond: 10, burst: 20 },
      limitSource: 'broker',
      pace: { perSecond: 8, burst: 16 },
    });
  });

  it('publishes at most once a second however many requests go out, and only when the figures change', () => {
    const { m, clock, published } = meter();
    const before = published.length;
    for (let ms = 0; ms < 5_000; ms += 100) {
      m.sent();
      clock.advance(100);
    }
    expect(published.length - before).toBe(5);
    // Nothing new for a while: the count stays until requests leave the window, so nothing is published.
    const steady = published.length;
    clock.advance(20_000);
    expect(published.length).toBe(steady);
  });

  it('counts a request down to zero once it leaves the window, then stops ticking until the next one', () => {
    const { m, clock, published } = meter(10_000);
    m.sent();
    clock.advance(12_000);
    expect(published.at(-1)).toMatchObject({ requests: 0, perSecond: 0, peakPerSecond: 0 });
    expect(clock.pending()).toBe(0);
    m.sent();
    clock.advance(1_000);
    expect(published.at(-1)).toMatchObject({ requests: 1 });
  });

  it('republishes at once when the broker publishes other limits', () => {
    const { m, published } = meter();
    const before = published.length;
    m.setLimits({ requests: { perSecond: 4, burst: 8 }, placements: null, source: 'broker' }, null);
    expect(published.length).toBe(before + 1);
    expect(published.at(-1)).toMatchObject({ limit: { perSecond: 4, burst: 8 }, pace: null });
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Tick } from '@shared/domain/market';
import { TickBatcher } from './tick-batcher';

const tick = (instrumentToken: number, lastPrice: number): Tick => ({
  instrumentToken,
  lastPrice,
  volume: 0,
  ts: '2026-11-23T10:00:00+05:30',
});

describe('TickBatcher', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('delivers a lone tick on the next turn, without waiting a full interval', () => {
    const out: Tick[][] = [];
    const b = new TickBatcher((t) => out.push(t), { everyMs: 100, now: () => Date.now() });
    b.push(tick(1, 10));
    expect(out).toHaveLength(0);
    vi.advanceTimersByTime(0);
    expect(out).toEqual([[tick(1, 10)]]);
  });

  it('sends at most one message per interval, with only the latest tick of each instrument', () => {
    const out: Tick[][] = [];
    const b = new TickBatcher((t) => out.push(t), { everyMs: 100, now: () => Date.now() });
    // 1,000 ticks over one second across 3 instruments.
    for (let ms = 0; ms < 1_000; ms += 1) {
      b.push(tick(1 + (ms % 3), ms));
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(100);
    expect(out.length).toBeLessThanOrEqual(11);
    for (const batch of out) expect(new Set(batch.map((t) => t.instrumentToken)).size).toBe(batch.length);
    const latest = new Map<number, number>();
    for (const batch of out) for (const t of batch) latest.set(t.instrumentToken, t.lastPrice);
    expect(latest).toEqual(
      new Map([
        [1, 999],
        [2, 997],
        [3, 998],
      ]),
    );
  });

  it('drops what is queued when closed', () => {
    const out: Tick[][] = [];
    const b = new TickBatcher((t) => out.push(t), { everyMs: 100, now: () => Date.now() });
    b.push(tick(1, 10));
    b.close();
    vi.advanceTimersByTime(500);
    expect(out).toHaveLength(0);
  });
});

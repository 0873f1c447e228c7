import { describe, expect, it } from 'vitest';
import type { Tick } from '@shared/domain/market';
import { changeFrom, isStale, mergeTicks, STALE_AFTER_MS } from './quote-cache';

const tick = (token: number, price: number, ts = '2026-11-23T10:00:00+05:30'): Tick => ({
  instrumentToken: token,
  lastPrice: price,
  volume: 1,
  ts,
});

describe('quote cache', () => {
  it('keeps the latest tick per instrument with the time it arrived', () => {
    const q = mergeTicks(undefined, [tick(1, 10), tick(2, 20)], 1_000, 'stream');
    const r = mergeTicks(q, [tick(1, 11, '2026-11-23T10:00:01+05:30')], 2_000, 'stream');
    expect(r[1]).toMatchObject({ lastPrice: 11, receivedAt: 2_000, source: 'stream' });
    expect(r[2]).toBe(q[2]);
  });

  it('never moves a price back to an older tick (a late poll after a stream tick)', () => {
    const q = mergeTicks(undefined, [tick(1, 11, '2026-11-23T10:00:05+05:30')], 1_000, 'stream');
    expect(mergeTicks(q, [tick(1, 10, '2026-11-23T10:00:01+05:30')], 2_000, 'poll')).toBe(q);
  });

  it('says stale only after the quote stopped moving for a while', () => {
    const q = mergeTicks(undefined, [tick(1, 10)], 1_000, 'stream')[1];
    expect(isStale(q, 1_000 + STALE_AFTER_MS)).toBe(false);
    expect(isStale(q, 1_001 + STALE_AFTER_MS)).toBe(true);
    expect(isStale(undefined, 1e12)).toBe(false);
  });

  it('computes change from the previous close', () => {
    expect(changeFrom(100, 102.5)).toEqual({ abs: 2.5, pct: 2.5 });
    expect(changeFrom(null, 102.5)).toBeNull();
  });

  it('keeps a one-tick CDS move of ₹0.0025 instead of rounding it to no change', () => {
    expect(changeFrom(83.25, 83.2525)?.abs).toBe(0.0025);
    expect(changeFrom(83.25, 83.2475)?.abs).toBe(-0.0025);
  });
});

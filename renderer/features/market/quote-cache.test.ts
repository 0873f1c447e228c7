import { describe, expect, it } from 'vitest';
import type { Tick } from '@shared/domain/market';
import { changeFrom, isStale, STALE_AFTER_MS, type Quote } from './quote-cache';

const tick = (token: number, price: number, ts = '2026-11-23T10:00:00+05:30'): Tick => ({
  instrumentToken: token,
  lastPrice: price,
  volume: 1,
  ts,
});

describe('quote cache', () => {
  it('says stale only after the quote stopped moving for a while', () => {
    const q: Quote = { ...tick(1, 10), receivedAt: 1_000, source: 'stream' };
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

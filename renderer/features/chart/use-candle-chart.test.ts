import { describe, expect, it } from 'vitest';
import { TickMarkType, type UTCTimestamp } from 'lightweight-charts';
import { bucketOf } from './candle-model';
import { chartPriceFormat, sessionTickMark } from './use-candle-chart';

describe('chart price axis', () => {
  it('labels a CDS contract to ₹0.0001 in ₹0.0025 steps, and an equity to the paisa', () => {
    expect(chartPriceFormat(0.0025)).toEqual({ type: 'price', precision: 4, minMove: 0.0025 });
    expect(chartPriceFormat(0.05)).toEqual({ type: 'price', precision: 2, minMove: 0.05 });
  });
});

describe('chart time axis', () => {
  it('labels the first bar of a new day with its date in IST, so a skipped night reads as a new session', () => {
    // Wednesday's 09:15 open, drawn right after Monday's 15:29 bar (Tuesday was a holiday).
    const open = bucketOf(Date.parse('2026-11-25T09:15:00+05:30'), 'minute') as UTCTimestamp;
    expect(sessionTickMark(open, TickMarkType.DayOfMonth)).toBe('25 Nov');
    // Just after midnight IST is still the 25th, not the UTC 24th.
    const early = bucketOf(Date.parse('2026-11-25T00:30:00+05:30'), 'minute') as UTCTimestamp;
    expect(sessionTickMark(early, TickMarkType.DayOfMonth)).toBe('25 Nov');
    expect(sessionTickMark(open, TickMarkType.Time)).toBeNull();
  });
});

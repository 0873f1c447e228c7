import { afterEach, describe, expect, it, vi } from 'vitest';
import { TickMarkType, type UTCTimestamp } from 'lightweight-charts';
import { bucketOf } from './candle-model';
import { chartPriceFormat, refreshPalette, sessionTickMark, volumePoint } from './use-candle-chart';

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

describe('chart volume bars', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    document.documentElement.style.removeProperty('--up');
    refreshPalette();
  });

  const bar = { time: 1, open: 100, high: 101, low: 99, close: 101, volume: 10 };

  it('colours a tick’s volume bar without asking the stylesheet again: 100 ticks, no style read', () => {
    // Reading computed style after the watchlist changed text forces a style recalculation of
    // the whole page within the tick's frame; at a few ticks a second that drops frames.
    volumePoint(bar);
    const reads = vi.spyOn(window, 'getComputedStyle');
    for (let n = 0; n < 100; n += 1) volumePoint({ ...bar, volume: n });
    expect(reads).not.toHaveBeenCalled();
  });

  it('follows the theme: after the theme’s colours are read again, bars take the new up colour', () => {
    document.documentElement.style.setProperty('--up', '#000001');
    refreshPalette();
    expect(volumePoint(bar).color).toBe('rgba(0, 0, 1, 0.35)');
    document.documentElement.style.setProperty('--up', '#000002');
    refreshPalette();
    expect(volumePoint(bar).color).toBe('rgba(0, 0, 2, 0.35)');
  });
});

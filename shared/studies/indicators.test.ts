import { describe, expect, it } from 'vitest';
import { bollinger, ema, rsi, sma, vwap } from './indicators';

/**
 * Known published series: StockCharts ChartSchool's worked spreadsheets ("Moving Averages — Simple
 * and Exponential": a 10-day SMA and EMA of these 30 closes; "Relative Strength Index": a 14-day
 * RSI of these 33 closes). The tables print two decimals and round their intermediate averages,
 * so the values agree to within their rounding, never by restating the formula here.
 */
const MA_CLOSES = [
  22.27, 22.19, 22.08, 22.17, 22.18, 22.13, 22.23, 22.43, 22.24, 22.29, 22.15, 22.39, 22.38, 22.61, 23.36, 24.05, 23.75,
  23.83, 23.95, 23.63, 23.82, 23.87, 23.65, 23.19, 23.1, 23.33, 22.68, 23.1, 22.4, 22.17,
];
const SMA10 = [
  22.22, 22.21, 22.23, 22.26, 22.31, 22.42, 22.61, 22.77, 22.91, 23.08, 23.21, 23.38, 23.53, 23.65, 23.71, 23.69, 23.61,
  23.51, 23.43, 23.28, 23.13,
];
const EMA10 = [
  22.22, 22.21, 22.24, 22.27, 22.33, 22.52, 22.8, 22.97, 23.13, 23.28, 23.34, 23.43, 23.51, 23.54, 23.47, 23.4, 23.39,
  23.26, 23.23, 23.08, 22.92,
];
const RSI_CLOSES = [
  44.34, 44.09, 44.15, 43.61, 44.33, 44.83, 45.1, 45.42, 45.84, 46.08, 45.89, 46.03, 45.61, 46.28, 46.28, 46.0, 46.03,
  46.41, 46.22, 45.64, 46.21, 46.25, 45.71, 46.45, 45.78, 45.35, 44.03, 44.18, 44.22, 44.57, 43.42, 42.66, 43.13,
];
const RSI14 = [
  70.53, 66.32, 66.55, 69.41, 66.36, 57.97, 62.93, 63.26, 56.06, 62.38, 54.71, 50.42, 39.99, 41.46, 41.87, 45.46, 37.3,
  33.08, 37.77,
];

function expectNear(actual: (number | null)[], published: number[], tolerance: number): void {
  expect(actual.length).toBe(published.length);
  actual.forEach((v, i) => {
    expect(v, `value ${i}`).not.toBeNull();
    expect(Math.abs((v ?? Number.NaN) - published[i]!), `value ${i}: ${v} vs ${published[i]}`).toBeLessThanOrEqual(
      tolerance,
    );
  });
}

describe('moving averages against the published 10-day table', () => {
  it('SMA(10) has no value for the first 9 closes, then matches the table to the cent', () => {
    const out = sma(MA_CLOSES, 10);
    expect(out.slice(0, 9)).toEqual(new Array(9).fill(null));
    expectNear(out.slice(9), SMA10, 0.01);
  });

  it('EMA(10) starts from the SMA of the first 10 closes, then matches the table to the cent', () => {
    const out = ema(MA_CLOSES, 10);
    expect(out.slice(0, 9)).toEqual(new Array(9).fill(null));
    expectNear(out.slice(9), EMA10, 0.01);
  });

  it('refuses a period that is not a whole number of bars, naming it', () => {
    expect(() => sma(MA_CLOSES, 0)).toThrow(/period must be a whole number/);
    expect(() => ema(MA_CLOSES, 2.5)).toThrow(/period/);
  });

  it('has no value at all when there are fewer closes than the period', () => {
    expect(ema([1, 2, 3], 10)).toEqual([null, null, null]);
    expect(rsi([1, 2, 3], 14)).toEqual([null, null, null]);
  });
});

describe('RSI against the published 14-day table', () => {
  it('is first defined on the 15th close, then follows the table within its rounding of the averages', () => {
    const out = rsi(RSI_CLOSES, 14);
    expect(out.slice(0, 14)).toEqual(new Array(14).fill(null));
    expectNear(out.slice(14), RSI14, 0.1);
  });

  it('reads 100 while nothing has fallen', () => {
    expect(rsi([1, 2, 3, 4, 5], 3).slice(3)).toEqual([100, 100]);
  });
});

describe('Bollinger bands', () => {
  it('around 1…20 the middle is 10.5 and each band two population deviations, √(399/12), away', () => {
    const closes = Array.from({ length: 20 }, (_, i) => i + 1);
    const b = bollinger(closes, 20, 2);
    expect(b.middle[19]).toBeCloseTo(10.5, 10);
    expect(b.upper[19]).toBeCloseTo(10.5 + 2 * 5.766281297335398, 10);
    expect(b.lower[19]).toBeCloseTo(10.5 - 2 * 5.766281297335398, 10);
    expect(b.upper[18]).toBeNull();
  });

  it('closes to the average on a flat price', () => {
    const b = bollinger([5, 5, 5, 5], 3, 2);
    expect([b.lower[3], b.middle[3], b.upper[3]]).toEqual([5, 5, 5]);
  });
});

describe('VWAP', () => {
  const bar = (day: string, high: number, low: number, close: number, volume: number) => ({
    day,
    high,
    low,
    close,
    volume,
  });

  it('weights each bar’s typical price by its volume and starts again with the next session', () => {
    const bars = [
      bar('2026-11-26', 102, 98, 100, 100), // typical 100
      bar('2026-11-26', 112, 106, 109, 300), // typical 109 → (100×100 + 109×300) / 400 = 106.75
      bar('2026-11-27', 51, 48, 48, 10), // a new session: its own typical 49
    ];
    expect(vwap(bars, (b) => b.day)).toEqual([100, 106.75, 49]);
  });

  it('has no value until the session has traded', () => {
    expect(vwap([bar('d', 10, 10, 10, 0), bar('d', 12, 12, 12, 5)], (b) => b.day)).toEqual([null, 12]);
  });
});

/**
 * The chart's studies, computed from candles (docs/desk.md §Chart studies and drawings): pure
 * functions of the bars, with no clock, no I/O and no rendering, so the chart draws them and main
 * can evaluate them (an alert on a cross) from the same numbers.
 *
 * Each returns one value per input bar, `null` where the study is not defined yet (the first
 * `period - 1` bars of a moving average): never a zero that would draw a line to the floor.
 */

/** A study's value per bar; null before it has enough bars. */
export type StudySeries = (number | null)[];

/** The bar fields the studies read. */
export interface StudyBar {
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
}

function checkPeriod(period: number, field = 'period'): void {
  if (!Number.isInteger(period) || period < 1 || period > 1000) {
    throw new RangeError(`${field} must be a whole number of bars from 1 to 1000, got ${period}`);
  }
}

/** Simple moving average: the mean of the last `period` values. */
export function sma(values: readonly number[], period: number): StudySeries {
  checkPeriod(period);
  const out: StudySeries = new Array<number | null>(values.length).fill(null);
  let sum = 0;
  for (let i = 0; i < values.length; i += 1) {
    sum += values[i]!;
    if (i >= period) sum -= values[i - period]!;
    if (i >= period - 1) out[i] = sum / period;
  }
  return out;
}

/**
 * Exponential moving average with the smoothing 2 / (period + 1), seeded with the simple average
 * of the first `period` values (the convention of StockCharts, TA-Lib and most charting peers).
 */
export function ema(values: readonly number[], period: number): StudySeries {
  checkPeriod(period);
  const out: StudySeries = new Array<number | null>(values.length).fill(null);
  if (values.length < period) return out;
  const k = 2 / (period + 1);
  let prev = 0;
  for (let i = 0; i < period; i += 1) prev += values[i]!;
  prev /= period;
  out[period - 1] = prev;
  for (let i = period; i < values.length; i += 1) {
    prev = (values[i]! - prev) * k + prev;
    out[i] = prev;
  }
  return out;
}

/** Bollinger bands: the `period` simple average and `width` population standard deviations either side. */
export function bollinger(
  values: readonly number[],
  period = 20,
  width = 2,
): { middle: StudySeries; upper: StudySeries; lower: StudySeries } {
  checkPeriod(period);
  if (!(width > 0 && width <= 10)) throw new RangeError(`width must be from 0 to 10 deviations, got ${width}`);
  const middle = sma(values, period);
  const upper: StudySeries = new Array<number | null>(values.length).fill(null);
  const lower: StudySeries = new Array<number | null>(values.length).fill(null);
  for (let i = period - 1; i < values.length; i += 1) {
    const mean = middle[i]!;
    let sq = 0;
    for (let j = i - period + 1; j <= i; j += 1) sq += (values[j]! - mean) ** 2;
    const sd = Math.sqrt(sq / period);
    upper[i] = mean + width * sd;
    lower[i] = mean - width * sd;
  }
  return { middle, upper, lower };
}

/**
 * Relative strength index with Wilder's smoothing: the first average gain and loss are the means
 * of the first `period` changes, each next one `(previous × (period − 1) + change) / period`.
 * Defined from the bar after the first `period` changes; 100 when nothing fell.
 */
export function rsi(values: readonly number[], period = 14): StudySeries {
  checkPeriod(period);
  const out: StudySeries = new Array<number | null>(values.length).fill(null);
  if (values.length <= period) return out;
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= period; i += 1) {
    const change = values[i]! - values[i - 1]!;
    if (change > 0) gain += change;
    else loss -= change;
  }
  gain /= period;
  loss /= period;
  const value = (): number => (loss === 0 ? 100 : 100 - 100 / (1 + gain / loss));
  out[period] = value();
  for (let i = period + 1; i < values.length; i += 1) {
    const change = values[i]! - values[i - 1]!;
    gain = (gain * (period - 1) + Math.max(change, 0)) / period;
    loss = (loss * (period - 1) + Math.max(-change, 0)) / period;
    out[i] = value();
  }
  return out;
}

/**
 * Volume-weighted average price of the session so far: Σ(typical price × volume) / Σ volume, the
 * typical price being (high + low + close) / 3, starting again at each new session (`sessionOf`
 * names a bar's session, e.g. its IST date). Null until the session has traded.
 */
export function vwap<B extends StudyBar>(bars: readonly B[], sessionOf: (bar: B) => string | number): StudySeries {
  const out: StudySeries = new Array<number | null>(bars.length).fill(null);
  let session: string | number | undefined;
  let pv = 0;
  let vol = 0;
  for (let i = 0; i < bars.length; i += 1) {
    const b = bars[i]!;
    const s = sessionOf(b);
    if (s !== session) {
      session = s;
      pv = 0;
      vol = 0;
    }
    pv += ((b.high + b.low + b.close) / 3) * b.volume;
    vol += b.volume;
    out[i] = vol > 0 ? pv / vol : null;
  }
  return out;
}

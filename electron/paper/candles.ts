import type { CandleInterval } from '@shared/domain/market';
import { IST_OFFSET_MS, istDate, istDayStart } from '@shared/lib/ist-time';
import { HOURS, atMinute, previousTradingDay, sessionMinutesBefore } from './calendar';
import type { PaperInstrument } from './instruments';
import { deriveRng, normal } from './rng';

/**
 * Candle history: generated deterministically backwards from the broker's opening price, so a
 * chart of any interval has something to draw the moment the broker starts, and the history
 * ends exactly where the live prices begin.
 *
 * Bars exist only inside the instrument's exchange sessions (docs/api.md §Sessions and the
 * calendar): minute bars cover the session minutes of the last `MINUTE_DAYS` trading days
 * (5/15/60-minute bars are aggregated from them); older day bars, one per trading day, come
 * from a separate daily walk.
 */

export const MINUTE_MS = 60_000;
export const DAY_MS = 24 * 60 * MINUTE_MS;
/** How many trading days minute bars cover (and so 5/15/60-minute bars). */
export const MINUTE_DAYS = 7;
/** How many older trading days' day bars precede the minute history (about a year). */
export const HISTORY_DAYS = 250;

/** A bar in price units of ₹0.0001: `[startMs, open, high, low, close, volume]`. */
export type Bar = [number, number, number, number, number, number];

/** The history of one instrument: session minute bars ending at the anchor, and older day bars. */
export interface History {
  /**
   * Minute bars, 5 integers each (o, h, l, c in price units, v); bar i starts at `starts[i]`.
   * Float64, not Int32: a ₹1.5 lakh commodity is 1.5·10⁹ units, too near Int32's 2.1·10⁹.
   */
  readonly minutes: Float64Array;
  /** Each minute bar's start, oldest first (session minutes only). */
  readonly starts: Float64Array;
  /** Day bars before the minute history, oldest first. */
  readonly days: readonly Bar[];
}

const INTERVAL_MS: Record<CandleInterval, number> = {
  minute: MINUTE_MS,
  '5minute': 5 * MINUTE_MS,
  '15minute': 15 * MINUTE_MS,
  '60minute': 60 * MINUTE_MS,
  day: DAY_MS,
};

/** Start of the IST-aligned bucket of `size` ms that holds `t`. */
export function bucketStart(t: number, size: number): number {
  return Math.floor((t + IST_OFFSET_MS) / size) * size - IST_OFFSET_MS;
}

/** Per-minute volatility (fraction of price) by instrument type: options move far more. */
export function minuteVol(i: PaperInstrument): number {
  return i.instrumentType === 'CE' || i.instrumentType === 'PE' ? 0.003 : 0.0004;
}

/** Generates the history of `instrument` ending at `anchorMs` (a minute boundary) at `endUnits`. */
export function generateHistory(
  seed: number,
  instrument: PaperInstrument,
  anchorMs: number,
  endUnits: number,
): History {
  const rng = deriveRng(seed, `history:${instrument.token}`);
  const tick = instrument.tickUnits;
  const snap = (p: number): number => Math.max(tick, Math.round(p / tick) * tick);
  const vol = minuteVol(instrument);
  const h = HOURS[instrument.exchange];
  const newestFirst = sessionMinutesBefore(instrument.exchange, anchorMs, MINUTE_DAYS * (h.close - h.open));
  const count = newestFirst.length;
  const starts = Float64Array.from(newestFirst.reverse());
  const minutes = new Float64Array(count * 5);
  let close = endUnits;
  for (let i = count - 1; i >= 0; i--) {
    const open = snap(close * Math.exp(-vol * normal(rng)));
    const wick = Math.abs(normal(rng)) * vol * 0.5;
    const high = snap(Math.max(open, close) * (1 + wick));
    const low = snap(Math.min(open, close) * (1 - wick * rng()));
    const o = i * 5;
    minutes[o] = open;
    minutes[o + 1] = Math.max(high, open, close);
    minutes[o + 2] = Math.min(low, open, close);
    minutes[o + 3] = close;
    minutes[o + 4] = Math.round(100 + rng() * 5000);
    close = open;
  }
  const days: Bar[] = [];
  const dayVol = vol * Math.sqrt(h.close - h.open) * 0.6;
  let date = istDate(starts[0] ?? anchorMs);
  for (let d = 1; d <= HISTORY_DAYS; d++) {
    date = previousTradingDay(date);
    const open = snap(close * Math.exp(-dayVol * normal(rng)));
    const high = snap(Math.max(open, close) * (1 + Math.abs(normal(rng)) * dayVol * 0.4));
    const low = snap(Math.min(open, close) * (1 - Math.abs(normal(rng)) * dayVol * 0.4));
    days.push([
      istDayStart(Date.parse(`${date}T00:00:00+05:30`)),
      open,
      Math.max(high, open, close),
      Math.min(low, open, close),
      close,
      Math.round(2e5 + rng() * 5e6),
    ]);
    close = open;
  }
  days.reverse();
  return { minutes, starts, days };
}

/** Folds minute-level bars into bars of `interval`, keeping only buckets within [from, to]. */
function aggregate(source: Iterable<Bar>, size: number, from: number, to: number): Bar[] {
  const out: Bar[] = [];
  let cur: Bar | null = null;
  for (const [t, o, h, l, c, v] of source) {
    const start = bucketStart(t, size);
    if (start + size <= from || start > to) continue;
    if (cur && cur[0] === start) {
      cur[2] = Math.max(cur[2], h);
      cur[3] = Math.min(cur[3], l);
      cur[4] = c;
      cur[5] += v;
    } else {
      cur = [start, o, h, l, c, v];
      out.push(cur);
    }
  }
  return out;
}

function* minuteBars(h: History): Generator<Bar> {
  const n = h.minutes.length / 5;
  for (let i = 0; i < n; i++) {
    const o = i * 5;
    yield [
      h.starts[i] ?? 0,
      h.minutes[o] ?? 0,
      h.minutes[o + 1] ?? 0,
      h.minutes[o + 2] ?? 0,
      h.minutes[o + 3] ?? 0,
      h.minutes[o + 4] ?? 0,
    ];
  }
}

/**
 * Default look-back when the request gives no `from`: enough bars for a chart of each interval —
 * intraday intervals reach back a number of trading days (from the midnight starting the
 * earliest), so a chart opened before the open or on a holiday still shows the last sessions.
 */
export function defaultFrom(interval: CandleInterval, end: number): number {
  if (interval === 'day') return end - 365 * DAY_MS;
  const days = interval === 'minute' ? 1 : interval === '5minute' ? 3 : MINUTE_DAYS;
  let date = istDate(end);
  for (let k = 0; k < days; k++) date = previousTradingDay(date);
  return atMinute(date, 0);
}

/** The candles of `interval` between `from` and `to` (inclusive bucket starts), history + live. */
export function buildCandles(
  h: History,
  live: readonly Bar[],
  interval: CandleInterval,
  from: number,
  to: number,
): Bar[] {
  const size = INTERVAL_MS[interval];
  const all = function* (): Generator<Bar> {
    yield* minuteBars(h);
    yield* live;
  };
  const bars = aggregate(all(), size, from, to);
  if (interval !== 'day') return bars;
  // Generated day bars end the day before the minute history starts, so the two never overlap.
  const older = h.days.filter((d) => d[0] + size > from && d[0] <= to).map((b) => [...b] as Bar);
  return [...older, ...bars];
}

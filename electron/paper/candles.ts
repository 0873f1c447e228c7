import type { CandleInterval } from '@shared/domain/market';
import { IST_OFFSET_MS } from '@shared/lib/ist-time';
import type { PaperInstrument } from './instruments';
import { deriveRng, normal } from './rng';

/**
 * Candle history: generated deterministically backwards from the broker's opening price, so a
 * chart of any interval has something to draw the moment the broker starts, and the history
 * ends exactly where the live prices begin.
 *
 * The paper market trades around the clock (a demo at 22:00 should still move), so minute
 * bars are continuous. Minute bars cover the last `MINUTE_DAYS` days (5/15/60-minute bars are
 * aggregated from them); older day bars come from a separate daily walk.
 */

export const MINUTE_MS = 60_000;
export const DAY_MS = 24 * 60 * MINUTE_MS;
/** How far back minute bars go (and so 5/15/60-minute bars). */
export const MINUTE_DAYS = 7;
const MINUTES = MINUTE_DAYS * 24 * 60;
/** How many older day bars precede the minute history. */
export const HISTORY_DAYS = 365;

/** A bar in price units of ₹0.0001: `[startMs, open, high, low, close, volume]`. */
export type Bar = [number, number, number, number, number, number];

/** The history of one instrument: minute bars ending at the anchor, and older day bars. */
export interface History {
  /**
   * Minute bars, 5 integers each (o, h, l, c in price units, v); bar i starts at `minuteStart + i min`.
   * Float64, not Int32: a ₹1.5 lakh commodity is 1.5·10⁹ units, too near Int32's 2.1·10⁹.
   */
  readonly minutes: Float64Array;
  readonly minuteStart: number;
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
  const minutes = new Float64Array(MINUTES * 5);
  let close = endUnits;
  for (let i = MINUTES - 1; i >= 0; i--) {
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
  const minuteStart = anchorMs - MINUTES * MINUTE_MS;
  const days: Bar[] = [];
  const dayVol = vol * Math.sqrt(24 * 60) * 0.6;
  const firstDay = bucketStart(minuteStart, DAY_MS);
  for (let d = 1; d <= HISTORY_DAYS; d++) {
    const open = snap(close * Math.exp(-dayVol * normal(rng)));
    const high = snap(Math.max(open, close) * (1 + Math.abs(normal(rng)) * dayVol * 0.4));
    const low = snap(Math.min(open, close) * (1 - Math.abs(normal(rng)) * dayVol * 0.4));
    days.push([
      firstDay - d * DAY_MS,
      open,
      Math.max(high, open, close),
      Math.min(low, open, close),
      close,
      Math.round(2e5 + rng() * 5e6),
    ]);
    close = open;
  }
  days.reverse();
  return { minutes, minuteStart, days };
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
      h.minuteStart + i * MINUTE_MS,
      h.minutes[o] ?? 0,
      h.minutes[o + 1] ?? 0,
      h.minutes[o + 2] ?? 0,
      h.minutes[o + 3] ?? 0,
      h.minutes[o + 4] ?? 0,
    ];
  }
}

/** Default look-back when the request gives no `from`: enough bars for a chart of each interval. */
export const DEFAULT_SPAN_MS: Record<CandleInterval, number> = {
  minute: DAY_MS,
  '5minute': 3 * DAY_MS,
  '15minute': MINUTE_DAYS * DAY_MS,
  '60minute': MINUTE_DAYS * DAY_MS,
  day: HISTORY_DAYS * DAY_MS,
};

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

import { roundToTick } from '@shared/trading/money';

/**
 * What a trader draws on an instrument's chart (docs/desk.md §Chart studies and drawings):
 * horizontal lines at a price and trend lines between two points. Kept per instrument, so the
 * lines come back on the same instrument in any chart, any interval and after a restart.
 */

/** A point on the chart: a bar's time (IST seconds, as the chart's bars) and a price. */
export interface ChartPoint {
  readonly time: number;
  readonly price: number;
}

export interface HorizontalLine {
  readonly id: string;
  readonly price: number;
}

export interface TrendLine {
  readonly id: string;
  /** The earlier point first. */
  readonly from: ChartPoint;
  readonly to: ChartPoint;
}

export interface Drawings {
  readonly lines: readonly HorizontalLine[];
  readonly trends: readonly TrendLine[];
}

export const NO_DRAWINGS: Drawings = { lines: [], trends: [] };

/** At most this many of each per instrument: the oldest goes first. */
export const MAX_DRAWINGS = 20;

const nextId = (prefix: string, taken: readonly { id: string }[]): string => {
  let n = taken.length + 1;
  while (taken.some((d) => d.id === `${prefix}${n}`)) n += 1;
  return `${prefix}${n}`;
};

/** Adds a horizontal line at `price`, on the instrument's tick. */
export function withLine(d: Drawings, price: number, tickSize: number): Drawings {
  const at = roundToTick(price, tickSize);
  if (!(at > 0) || d.lines.some((l) => l.price === at)) return d;
  const lines = [...d.lines, { id: nextId('h', d.lines), price: at }].slice(-MAX_DRAWINGS);
  return { ...d, lines };
}

/** Adds a trend line between two points (in either order); none when both are on one bar. */
export function withTrend(d: Drawings, a: ChartPoint, b: ChartPoint, tickSize: number): Drawings {
  if (a.time === b.time) return d;
  const [from, to] = a.time < b.time ? [a, b] : [b, a];
  const on = (p: ChartPoint): ChartPoint => ({ time: p.time, price: roundToTick(p.price, tickSize) });
  const trends = [...d.trends, { id: nextId('t', d.trends), from: on(from), to: on(to) }].slice(-MAX_DRAWINGS);
  return { ...d, trends };
}

/** Removes one drawing by id. */
export function without(d: Drawings, id: string): Drawings {
  return { lines: d.lines.filter((l) => l.id !== id), trends: d.trends.filter((t) => t.id !== id) };
}

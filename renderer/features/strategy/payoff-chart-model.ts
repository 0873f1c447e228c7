import type { PayoffCurves } from '@shared/strategy/strategy-model';

/**
 * The payoff chart's geometry, without React (docs/strategy.md §The payoff chart): scales from
 * prices and rupees to pixels, round tick values, and the SVG paths of the curves, the profit and
 * loss areas and the band between the two curves.
 */

export interface Box {
  readonly width: number;
  readonly height: number;
  /** Room for the axes' labels and the markers' captions. */
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

export interface Scales {
  readonly x: (price: number) => number;
  readonly y: (pnl: number) => number;
  /** Price at a pixel (for the hover readout). */
  readonly price: (px: number) => number;
  readonly xMin: number;
  readonly xMax: number;
  readonly yMin: number;
  readonly yMax: number;
}

/**
 * Scales fitting both curves with a margin, zero always in view (the line every payoff is read
 * against).
 */
export function scalesFor(curves: PayoffCurves, box: Box): Scales {
  const xMin = curves.xs[0] ?? 0;
  const xMax = curves.xs[curves.xs.length - 1] ?? 1;
  let lo = 0;
  let hi = 0;
  for (const y of curves.atExpiry) {
    lo = Math.min(lo, y);
    hi = Math.max(hi, y);
  }
  for (const y of curves.atTarget) {
    lo = Math.min(lo, y);
    hi = Math.max(hi, y);
  }
  const pad = Math.max(1, (hi - lo) * 0.08);
  const yMin = lo - pad;
  const yMax = hi + pad;
  const w = box.width - box.left - box.right;
  const h = box.height - box.top - box.bottom;
  const xSpan = xMax - xMin || 1;
  const ySpan = yMax - yMin || 1;
  return {
    x: (p) => box.left + ((p - xMin) / xSpan) * w,
    y: (v) => box.top + (1 - (v - yMin) / ySpan) * h,
    price: (px) => xMin + ((px - box.left) / w) * xSpan,
    xMin,
    xMax,
    yMin,
    yMax,
  };
}

/** About `count` round values covering [lo, hi]: steps of 1, 2, 2.5 or 5 × a power of ten. */
export function niceTicks(lo: number, hi: number, count: number): number[] {
  if (!(hi > lo) || count < 1) return [];
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) ticks.push(Math.round(v / step) * step);
  return ticks;
}

const fixed = (n: number): string => n.toFixed(1);

/** An SVG path through the points. */
export function linePath(xs: readonly number[], ys: readonly number[], s: Scales): string {
  return xs.map((x, i) => `${i === 0 ? 'M' : 'L'}${fixed(s.x(x))},${fixed(s.y(ys[i]!))}`).join('');
}

/** The closed area between a curve and the zero line (clipped above or below zero by the caller). */
export function areaPath(xs: readonly number[], ys: readonly number[], s: Scales): string {
  if (xs.length === 0) return '';
  const zero = fixed(s.y(0));
  return `${linePath(xs, ys, s)}L${fixed(s.x(xs[xs.length - 1]!))},${zero}L${fixed(s.x(xs[0]!))},${zero}Z`;
}

/** The closed band between the two curves (time value still in the strategy before expiry). */
export function bandPath(curves: PayoffCurves, s: Scales): string {
  const { xs, atExpiry, atTarget } = curves;
  if (xs.length === 0) return '';
  const back = xs
    .map((x, i) => `L${fixed(s.x(x))},${fixed(s.y(atExpiry[i]!))}`)
    .reverse()
    .join('');
  return `${linePath(xs, atTarget, s)}${back}Z`;
}

/** The value of a curve at a price, linear between its points (the hover readout). */
export function valueAt(xs: readonly number[], ys: readonly number[], price: number): number | null {
  if (xs.length === 0 || price < xs[0]! || price > xs[xs.length - 1]!) return null;
  let i = 1;
  while (i < xs.length - 1 && xs[i]! < price) i++;
  const x0 = xs[i - 1]!;
  const x1 = xs[i]!;
  const t = x1 === x0 ? 0 : (price - x0) / (x1 - x0);
  return ys[i - 1]! + t * (ys[i]! - ys[i - 1]!);
}

/** Rupees compactly for an axis: +12.5K, −1.2L, 0 — the sign written, never left to colour. */
export function compactRupees(v: number): string {
  const a = Math.abs(v);
  const body =
    a >= 1e7
      ? `${trim(a / 1e7)}Cr`
      : a >= 1e5
        ? `${trim(a / 1e5)}L`
        : a >= 1e3
          ? `${trim(a / 1e3)}K`
          : `${Math.round(a)}`;
  return v > 0 ? `+${body}` : v < 0 ? `−${body}` : '0';
}

const trim = (n: number): string =>
  (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2)).replace(/\.?0+$/, '');

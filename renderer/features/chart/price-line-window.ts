/**
 * Which price lines the chart holds (docs/ladder.md §Speed): only those near the prices on
 * screen. lightweight-charts updates, formats and draws every price line of a series on each
 * redraw, on screen or not, so an instrument with hundreds of working orders away from the
 * market cost every tick's frame all of them. Pure: `usePriceLines` asks the chart for its range
 * and hands the lines this picks to it.
 */

/** A range of prices, low to high. */
export interface PriceWindow {
  readonly from: number;
  readonly to: number;
}

/**
 * The prices to hold lines for while `visible` is the price scale's range: it widened by its own
 * span on each side. The scale's range leaves out the chart's top and bottom margins (a third of
 * its height), which are on screen too, and the slack lets the market move a while before the
 * lines are picked again. No range (no candles yet): null, and no line, as none is on screen; the
 * chart's first redraw with a range picks them (`outgrown`).
 */
export function lineWindow(visible: PriceWindow | null): PriceWindow | null {
  if (!visible || !Number.isFinite(visible.from) || !Number.isFinite(visible.to)) return null;
  const lo = Math.min(visible.from, visible.to);
  const hi = Math.max(visible.from, visible.to);
  const span = Math.max(hi - lo, Math.abs(hi) * 1e-4);
  return { from: lo - span, to: hi + span };
}

/**
 * Whether the lines held for `held` must be picked again now the scale shows `visible`: the
 * screen (the range and its margins, half a span each side) reaches past the window, or the
 * range shrank to under a third of the window (zoomed in: most held lines are far off screen).
 */
export function outgrown(held: PriceWindow | null, visible: PriceWindow | null): boolean {
  const next = lineWindow(visible);
  if (held === null || next === null) return held !== next;
  const span = (next.to - next.from) / 3;
  const heldSpan = (held.to - held.from) / 3;
  return next.from + span / 2 < held.from || next.to - span / 2 > held.to || span < heldSpan / 3;
}

/** The lines inside `w` (none without a window: no range, nothing on screen). */
export function inWindow<L extends { readonly price: number }>(lines: readonly L[], w: PriceWindow | null): L[] {
  return w === null ? [] : lines.filter((l) => l.price >= w.from && l.price <= w.to);
}

/**
 * Price arithmetic in integer paise.
 *
 * Prices travel as JSON numbers in rupees, but 0.05 is not exact in binary floating point:
 * `0.1 + 0.2 !== 0.3`, and `101.15 / 0.05` is 2022.9999999999998. Every comparison, tick-grid
 * check and rounding therefore happens on integer paise (DESIGN.md §2 "Numbers").
 */

/** Rupees → integer paise, rounding away float noise (101.15 → 10115). */
export function toPaise(rupees: number): number {
  return Math.round(rupees * 100);
}

/** Integer paise → rupees as a JSON-friendly number (10115 → 101.15). */
export function fromPaise(paise: number): number {
  return Math.round(paise) / 100;
}

/** True when `price` lies on the grid of `tickSize` (both in rupees). */
export function isOnTick(price: number, tickSize: number): boolean {
  const tick = toPaise(tickSize);
  if (tick <= 0) return false;
  const p = price * 100;
  // A price with sub-paisa digits is never on a paise grid.
  if (Math.abs(p - Math.round(p)) > 1e-6) return false;
  return Math.round(p) % tick === 0;
}

/** Rounds a price to the nearest tick (half up), in rupees. */
export function roundToTick(price: number, tickSize: number): number {
  const tick = toPaise(tickSize);
  if (tick <= 0) return price;
  return fromPaise(Math.round(toPaise(price) / tick) * tick);
}

/** Rounds a price down (`'floor'`) or up (`'ceil'`) to the tick grid, in rupees. */
export function snapToTick(price: number, tickSize: number, mode: 'floor' | 'ceil'): number {
  const tick = toPaise(tickSize);
  if (tick <= 0) return price;
  const steps = toPaise(price) / tick;
  return fromPaise((mode === 'floor' ? Math.floor(steps) : Math.ceil(steps)) * tick);
}

/** Multiplies a price by a quantity exactly, returning rupees (for order values and margins). */
export function notional(price: number, quantity: number): number {
  return fromPaise(toPaise(price) * quantity);
}

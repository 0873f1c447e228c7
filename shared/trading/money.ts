/**
 * Price arithmetic in integer units of ₹0.0001 (docs/api.md §Numbers and money units).
 *
 * Prices travel as JSON numbers in rupees, but 0.05 is not exact in binary floating point:
 * `0.1 + 0.2 !== 0.3`, and `101.15 / 0.05` is 2022.9999999999998. Every comparison, tick-grid
 * check and rounding therefore happens on integers. The unit is ₹0.0001 because every tick the
 * Indian markets use is a whole number of it (₹0.05 = 500, ₹0.01 = 100, ₹0.005 = 50, the CDS
 * tick ₹0.0025 = 25), while ₹9·10^11 is still a safe integer of them.
 */

/** How many price units make one rupee. */
export const PRICE_UNITS_PER_RUPEE = 10_000;

/** Rupees → integer units, rounding away float noise (101.15 → 1011500). */
export function toUnits(rupees: number): number {
  return Math.round(rupees * PRICE_UNITS_PER_RUPEE);
}

/** Integer units → rupees as a JSON-friendly number (1011500 → 101.15). */
export function fromUnits(units: number): number {
  return Math.round(units) / PRICE_UNITS_PER_RUPEE;
}

/**
 * True when `price` lies on the grid of `tickSize` (both in rupees).
 *
 * A price with digits below ₹0.0001 is on no grid; what is allowed through is only the float
 * noise of a product like `(0.1 + 0.2) × 10⁴`, a few ulps, which grows with the magnitude.
 */
export function isOnTick(price: number, tickSize: number): boolean {
  const tick = toUnits(tickSize);
  if (tick <= 0 || !Number.isFinite(price)) return false;
  const u = price * PRICE_UNITS_PER_RUPEE;
  // Near zero there is no product to have noise: 5e-324 is not ₹0.
  if (Math.round(u) === 0) return price === 0;
  if (Math.abs(u - Math.round(u)) > Math.max(1e-6, Math.abs(u) * 2 ** -48)) return false;
  return Math.round(u) % tick === 0;
}

/**
 * Decimals a price on this tick needs, at least two (how Indian terminals print money):
 * ₹0.05 → 2, ₹0.005 → 3, ₹0.0025 → 4, ₹1 → 2.
 */
export function priceDecimals(tickSize: number): number {
  let units = toUnits(tickSize);
  if (units <= 0) return 4;
  let decimals = 4;
  while (decimals > 2 && units % 10 === 0) {
    units /= 10;
    decimals -= 1;
  }
  return decimals;
}

/**
 * The two valid prices either side of an off-tick `price`, in rupees: the highest grid price
 * below it and the lowest above (₹101.08 on ₹0.05 → [101.05, 101.10]). For a trader to choose
 * from; nothing in the app rounds a typed price silently.
 */
export function ticksAround(price: number, tickSize: number): readonly [below: number, above: number] {
  const tick = toUnits(tickSize);
  const below = Math.floor((price * PRICE_UNITS_PER_RUPEE) / tick) * tick;
  return [fromUnits(below), fromUnits(below + tick)];
}

/** Rounds a price to the nearest tick (half up), in rupees. */
export function roundToTick(price: number, tickSize: number): number {
  const tick = toUnits(tickSize);
  if (tick <= 0) return price;
  return fromUnits(Math.round(toUnits(price) / tick) * tick);
}

import { priceDecimals } from '@shared/trading/money';

/**
 * Number and time formatting for Indian traders.
 *
 * Money uses `en-IN` grouping (₹1,23,45,678.50: lakh and crore, not millions) because that is
 * how every Indian broker terminal prints it; times are exchange time (IST) whatever the
 * machine's zone, because a trader reads 09:15 as the open. Formatters are built once: an
 * `Intl.NumberFormat` is costly to create and the blotter formats thousands of cells.
 */

const RUPEES = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const PRICE = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 4 });
/** Price formats by decimals (2, 3 or 4): a tick's prices always show the same number of them. */
const PRICE_ON_TICK = new Map<number, Intl.NumberFormat>();
const QTY = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 });
const IST_TIME = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
const IST_DATE_TIME = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  day: '2-digit',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** ₹1,23,456.78 (negative as −₹…); the currency sign tells money from prices at a glance. */
export function formatRupees(value: number): string {
  return RUPEES.format(value);
}

/** A signed P&L figure: +₹1,250.00 / −₹320.50, so gains and losses read without colour. */
export function formatPnl(value: number): string {
  const abs = RUPEES.format(Math.abs(value));
  if (value > 0) return `+${abs}`;
  if (value < 0) return `−${abs}`;
  return abs;
}

/**
 * A price with Indian grouping (1,23,456.05); `–` when absent. With the instrument's tick it
 * shows exactly the decimals the tick needs (CDS ₹0.0025 → 83.2500, 83.2525), so a column of
 * prices lines up; without one, two to four decimals — never fewer than the price has, since
 * prices are exact to ₹0.0001 (docs/api.md §Numbers and money units).
 */
export function formatPrice(value: number | null | undefined, tickSize?: number): string {
  if (value === null || value === undefined || value === 0) return '–';
  if (tickSize === undefined) return PRICE.format(value);
  const decimals = priceDecimals(tickSize);
  let f = PRICE_ON_TICK.get(decimals);
  if (!f) {
    f = new Intl.NumberFormat('en-IN', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    PRICE_ON_TICK.set(decimals, f);
  }
  return f.format(value);
}

/**
 * The colour of a signed figure (a P&L, a day's change): `up` for a gain, `down` for a loss,
 * nothing for zero. The one place a figure is coloured by its sign, and only beside text that
 * carries the sign too (`formatPnl`, `formatSignedQty`, a `+`/`−` change or ▲/▼), so colour is
 * never the only cue (docs/renderer.md §Accessibility checks).
 */
export function signClass(value: number): 'up' | 'down' | '' {
  return value > 0 ? 'up' : value < 0 ? 'down' : '';
}

/** A quantity with Indian grouping (1,00,000). */
export function formatQty(value: number): string {
  return QTY.format(value);
}

/** A position's net quantity with its side as a sign: +75 long, −75 short, 0 flat. */
export function formatSignedQty(value: number): string {
  const abs = QTY.format(Math.abs(value));
  if (value > 0) return `+${abs}`;
  if (value < 0) return `−${abs}`;
  return abs;
}

/** `HH:MM:SS` in IST for an ISO time or epoch ms. */
export function formatIstTime(at: string | number): string {
  const ms = typeof at === 'number' ? at : Date.parse(at);
  return Number.isFinite(ms) ? IST_TIME.format(ms) : '–';
}

/** `23 Nov, 09:15:02` in IST, for histories that can span days. */
export function formatIstDateTime(at: string | number): string {
  const ms = typeof at === 'number' ? at : Date.parse(at);
  return Number.isFinite(ms) ? IST_DATE_TIME.format(ms) : '–';
}

/** How old something is, in words short enough for a panel header: `now`, `4 s`, `2 min`. */
export function formatAge(ms: number): string {
  if (ms < 1_000) return 'now';
  if (ms < 60_000) return `${Math.floor(ms / 1_000)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min`;
  return `${Math.floor(ms / 3_600_000)} h`;
}

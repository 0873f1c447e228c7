import type { OrderType, TransactionType } from '@shared/domain/order';
import type { BrokerState } from '../context';
import { lppRange } from '../lpp';
import type { PaperInstrument } from '../instruments';
import { KiteError, inputError } from './errors';
import type { Params } from './wire';

/**
 * `market_protection` (docs/kite.md §Market protection). Since 1 April 2026 Kite refuses a MARKET
 * or SL-M order sent through the API without it; `-1` asks for the automatic percentage, any
 * other value is a percentage above 0 and up to 100. The protected order is a LIMIT (an SL for
 * SL-M) at that distance from the last price (from the trigger for SL-M), kept inside the day's
 * circuit band and the exchange's limit price protection range, so it can rest unfilled when the
 * price runs away.
 */

/** What Kite says to a MARKET or SL-M order without protection (or with 0). */
export const PROTECTION_REQUIRED =
  'Market orders without market protection are not allowed via API. Please set market protection or use a Limit order.';

/** The percentage `-1` stands for here: 3% on options, 2% elsewhere (Kite publishes no table; docs/kite.md §Market protection). */
export function automaticPercent(i: PaperInstrument): number {
  return i.instrumentType === 'CE' || i.instrumentType === 'PE' ? 3 : 2;
}

/** True for the order types Kite protects. */
export function isProtected(orderType: OrderType | undefined): orderType is 'MARKET' | 'SL-M' {
  return orderType === 'MARKET' || orderType === 'SL-M';
}

/**
 * The `market_protection` of a request: required (non-zero) on MARKET and SL-M, read as sent
 * otherwise; null when absent on an order that does not need it.
 */
export function readProtection(p: Params, orderType: OrderType | undefined): number | null {
  const raw = p.get('market_protection');
  if (raw === undefined) {
    if (isProtected(orderType)) throw new KiteError(400, 'InputException', PROTECTION_REQUIRED);
    return null;
  }
  const v = /^-?\d{1,3}(\.\d{1,2})?$/.test(raw) ? Number(raw) : Number.NaN;
  if (Number.isNaN(v))
    throw new KiteError(
      400,
      'InputException',
      `Invalid request (failed to decode market_protection, got: ${raw.slice(0, 20)} (expected decimal))`,
    );
  if (v === 0 && isProtected(orderType)) throw new KiteError(400, 'InputException', PROTECTION_REQUIRED);
  if (!(v === -1 || (v >= 0 && v <= 100)))
    throw inputError('market_protection', 'must be -1 (automatic) or a percentage above 0 and up to 100');
  return v;
}

/** A protected order as the exchange holds it: a LIMIT (or SL) at `priceUnits`, and the percentage applied. */
export interface Protected {
  readonly orderType: 'LIMIT' | 'SL';
  readonly priceUnits: number;
  readonly percent: number;
}

/**
 * The LIMIT price a MARKET order (from the last price) or an SL-M order (from its trigger) becomes
 * under `protection`: that percentage towards a fill, rounded to the tick on the protected side,
 * never past the band or the LPP range, and never on the wrong side of the trigger.
 */
export function protect(
  state: BrokerState,
  i: PaperInstrument,
  side: TransactionType,
  orderType: 'MARKET' | 'SL-M',
  triggerUnits: number | null,
  protection: number,
): Protected {
  const percent = protection === -1 ? automaticPercent(i) : protection;
  const ltp = state.market.ltp(i.token);
  const ref = orderType === 'SL-M' ? (triggerUnits ?? ltp) : ltp;
  const [lo, hi] = state.market.band(i.token);
  const lpp = lppRange(i.exchange, i.instrumentType, ltp);
  const tick = i.tickUnits;
  // In whole price units first (the percentage has at most two decimals), so 1500 × 1.005 is 1507.50, not 1507.4999….
  const bp = Math.round(percent * 100);
  const target = Math.round((ref * (10_000 + (side === 'BUY' ? bp : -bp))) / 10_000);
  let price: number;
  if (side === 'BUY') {
    price = Math.floor(target / tick) * tick;
    price = Math.min(price, hi, lpp?.[1] ?? Number.MAX_SAFE_INTEGER);
    if (orderType === 'SL-M') price = Math.max(price, ref);
  } else {
    price = Math.ceil(target / tick) * tick;
    price = Math.max(price, lo, lpp?.[0] ?? 0, tick);
    if (orderType === 'SL-M') price = Math.min(price, ref);
  }
  return { orderType: orderType === 'MARKET' ? 'LIMIT' : 'SL', priceUnits: price, percent };
}

/** `mktp:2.00`: how Kite's order tags name the protection applied (with `mktp` beside it). */
export function protectionTags(percent: number): string[] {
  return ['mktp', `mktp:${percent.toFixed(2)}`];
}

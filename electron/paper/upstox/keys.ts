import type { Market } from '../market';
import type { PaperInstrument } from '../instruments';
import { SEGMENT_OF } from '../../wire/upstox-segments';

/**
 * Upstox's instrument keys and instrument master (docs/upstox.md §Instruments). A key is
 * `SEGMENT|ID`: an equity's ID is its ISIN (`NSE_EQ|INE…`), a contract's its exchange token
 * (`NSE_FO|41910`). The paper market's instruments have no ISIN, so an equity gets a paper one
 * made from its token (`INE` + the token in base 36 + `010`), unique and reversible.
 */

export { SEGMENT_OF };

const PAPER_ISIN = /^INE([0-9A-Z]{6})010$/;

/** The paper ISIN of an equity. */
export function paperIsin(i: PaperInstrument): string {
  return `INE${i.token.toString(36).toUpperCase().padStart(6, '0')}010`;
}

/** The instrument key Upstox names `i` by. */
export function instrumentKey(i: PaperInstrument): string {
  const segment = SEGMENT_OF[i.exchange];
  return `${segment}|${i.instrumentType === 'EQ' ? paperIsin(i) : String(i.token)}`;
}

/** The instrument a key names, or undefined (an unknown or malformed key). */
export function byKey(market: Market, key: string): PaperInstrument | undefined {
  const bar = key.indexOf('|');
  if (bar <= 0 || key.length > 64) return undefined;
  const segment = key.slice(0, bar);
  const id = key.slice(bar + 1);
  const isin = PAPER_ISIN.exec(id);
  const token = isin ? parseInt(isin[1] as string, 36) : /^\d{1,10}$/.test(id) ? Number(id) : Number.NaN;
  const i = Number.isSafeInteger(token) ? market.instrument(token) : undefined;
  return i && SEGMENT_OF[i.exchange] === segment && instrumentKey(i) === key ? i : undefined;
}

/** `EXCHANGE_SEGMENT:TRADINGSYMBOL`: how quote replies key an instrument. */
export function quoteKey(i: PaperInstrument): string {
  return `${SEGMENT_OF[i.exchange]}:${i.tradingsymbol}`;
}

/** One row of `complete.json`, in Upstox's fields (tick_size in paise, expiry in epoch ms). */
export function masterRow(i: PaperInstrument): Record<string, unknown> {
  const common = {
    segment: SEGMENT_OF[i.exchange],
    name: i.name,
    exchange: i.exchange === 'NFO' ? 'NSE' : i.exchange === 'BFO' ? 'BSE' : i.exchange === 'CDS' ? 'NSE' : i.exchange,
    instrument_type: i.instrumentType,
    instrument_key: instrumentKey(i),
    exchange_token: String(i.token),
    trading_symbol: i.tradingsymbol,
    lot_size: i.lotSize,
    tick_size: Math.round(i.tickSize * 100 * 100) / 100,
    freeze_quantity: i.freezeQuantity,
  };
  if (i.instrumentType === 'EQ') return { ...common, isin: paperIsin(i), short_name: i.name, security_type: 'NORMAL' };
  return {
    ...common,
    expiry: i.expiresAt,
    strike_price: i.strike ?? 0,
    underlying_symbol: i.underlying,
    minimum_lot: i.lotSize,
    weekly: false,
  };
}

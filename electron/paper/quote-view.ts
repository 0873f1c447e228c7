import { istDate, toIstIso } from '../../shared/lib/ist-time';
import { fromUnits } from '../../shared/trading/money';
import type { StreamMode } from '../../shared/domain/market';
import type { WireQuote } from '../../shared/wire/schemas';
import type { PaperInstrument } from './instruments';
import type { Market } from './market';

/**
 * An instrument's market as quotes and ticks show it (docs/api.md §GET /quotes, §Stream, modes):
 * the last price, the best bid and ask, the visible depth, the change from the previous close.
 *
 * Contract placeholder: a one-level book a tick either side of the last price, until the order
 * book lands.
 */

interface Level {
  readonly price: number;
  readonly quantity: number;
  readonly orders: number;
}

/** The visible book in price units, best first. */
export function bookOf(market: Market, i: PaperInstrument): { buy: Level[]; sell: Level[] } {
  const ltp = market.ltp(i.token);
  const [, hi] = market.band(i.token);
  const bid = ltp - i.tickUnits;
  const ask = ltp + i.tickUnits;
  return {
    buy: bid >= i.tickUnits ? [{ price: bid, quantity: i.lotSize * 10, orders: 1 }] : [],
    sell: ask <= hi ? [{ price: ask, quantity: i.lotSize * 10, orders: 1 }] : [],
  };
}

const wireLevels = (levels: readonly Level[]) =>
  levels.map((l) => ({ price: fromUnits(l.price), quantity: l.quantity, orders: l.orders }));

const total = (levels: readonly Level[]): number => levels.reduce((s, l) => s + l.quantity, 0);

/** One stream tick of `i` in `mode`, serialised. */
export function tickText(market: Market, i: PaperInstrument, mode: StreamMode, at: number): string {
  const ltp = market.ltp(i.token);
  const base = {
    type: 'tick',
    instrument_token: i.token,
    last_price: fromUnits(ltp),
    volume: market.volume(i.token),
    ts: toIstIso(at),
  };
  if (mode === 'ltp') return JSON.stringify(base);
  const book = bookOf(market, i);
  const quote = {
    ...base,
    mode,
    bid: book.buy[0] ? fromUnits(book.buy[0].price) : null,
    ask: book.sell[0] ? fromUnits(book.sell[0].price) : null,
    net_change: fromUnits(ltp - market.closeOf(i.token, istDate(at))),
  };
  if (mode === 'quote') return JSON.stringify(quote);
  return JSON.stringify({
    ...quote,
    depth: { buy: wireLevels(book.buy.slice(0, 5)), sell: wireLevels(book.sell.slice(0, 5)) },
    buy_quantity: total(book.buy),
    sell_quantity: total(book.sell),
    oi: i.instrumentType === 'EQ' ? null : 0,
  });
}

/** The full quote of `i` now (GET /quotes). */
export function wireQuote(market: Market, i: PaperInstrument, now: number): WireQuote {
  const ltp = market.ltp(i.token);
  const close = market.closeOf(i.token, istDate(now));
  const [lo, hi] = market.band(i.token);
  const book = bookOf(market, i);
  return {
    instrument_token: i.token,
    exchange: i.exchange,
    tradingsymbol: i.tradingsymbol,
    timestamp: toIstIso(now),
    last_price: fromUnits(ltp),
    last_trade_time: null,
    volume: market.volume(i.token),
    ohlc: {
      open: fromUnits(close),
      high: fromUnits(Math.max(ltp, close)),
      low: fromUnits(Math.min(ltp, close)),
      close: fromUnits(ltp),
    },
    previous_close: fromUnits(close),
    net_change: fromUnits(ltp - close),
    change_percent: close > 0 ? Math.round(((ltp - close) / close) * 10_000) / 100 : 0,
    bid: book.buy[0] ? fromUnits(book.buy[0].price) : null,
    ask: book.sell[0] ? fromUnits(book.sell[0].price) : null,
    depth: { buy: wireLevels(book.buy.slice(0, 5)), sell: wireLevels(book.sell.slice(0, 5)) },
    buy_quantity: total(book.buy),
    sell_quantity: total(book.sell),
    lower_circuit_limit: fromUnits(lo),
    upper_circuit_limit: fromUnits(hi),
    oi: i.instrumentType === 'EQ' ? null : 0,
    session: 'open',
  };
}

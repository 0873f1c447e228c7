import { istDate, toIstIso } from '@shared/lib/ist-time';
import { fromUnits } from '@shared/trading/money';
import type { StreamMode } from '@shared/domain/market';
import type { WireQuote } from '../wire/rest-schemas';
import { type BookLevel, VISIBLE_LEVELS } from './book';
import { sessionAt } from './calendar';
import type { PaperInstrument } from './instruments';
import type { Market } from './market';

/**
 * An instrument's market as quotes and ticks show it (docs/api.md §GET /quotes, §Stream, modes):
 * the last price, the best bid and ask, the visible depth of its book, the change from the
 * previous close, the day's bar, the circuit limits, open interest and the session phase.
 */

type Level = BookLevel;

/** The visible book in price units, best first. */
export function bookOf(market: Market, i: PaperInstrument): { buy: Level[]; sell: Level[] } {
  const book = market.book(i.token);
  if (!book) return { buy: [], sell: [] };
  return { buy: book.levels('buy', VISIBLE_LEVELS), sell: book.levels('sell', VISIBLE_LEVELS) };
}

/** Everything bid and offered in the whole book. */
function totals(market: Market, i: PaperInstrument): { buy: number; sell: number } {
  const book = market.book(i.token);
  return { buy: book?.total('buy') ?? 0, sell: book?.total('sell') ?? 0 };
}

const wireLevels = (levels: readonly Level[]) =>
  levels.map((l) => ({ price: fromUnits(l.price), quantity: l.quantity, orders: l.orders }));

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
  const book = market.book(i.token);
  const bid = book?.best('buy') ?? null;
  const ask = book?.best('sell') ?? null;
  const quote = {
    ...base,
    mode,
    bid: bid === null ? null : fromUnits(bid),
    ask: ask === null ? null : fromUnits(ask),
    net_change: fromUnits(ltp - market.changeBase(i.token, at)),
  };
  if (mode === 'quote') return JSON.stringify(quote);
  const levels = bookOf(market, i);
  const all = totals(market, i);
  return JSON.stringify({
    ...quote,
    depth: { buy: wireLevels(levels.buy), sell: wireLevels(levels.sell) },
    buy_quantity: all.buy,
    sell_quantity: all.sell,
    oi: market.oi(i.token),
  });
}

/** The full quote of `i` now (GET /quotes). */
export function wireQuote(market: Market, i: PaperInstrument, now: number): WireQuote {
  const ltp = market.ltp(i.token);
  const close = market.closeOf(i.token, istDate(now));
  const [lo, hi] = market.band(i.token);
  const book = bookOf(market, i);
  const all = totals(market, i);
  const bar = market.dayBar(i.token);
  return {
    instrument_token: i.token,
    exchange: i.exchange,
    tradingsymbol: i.tradingsymbol,
    timestamp: toIstIso(now),
    last_price: fromUnits(ltp),
    last_trade_time: bar.lastTradeAt === null ? null : toIstIso(bar.lastTradeAt),
    volume: market.volume(i.token),
    ohlc: { open: fromUnits(bar.open), high: fromUnits(bar.high), low: fromUnits(bar.low), close: fromUnits(ltp) },
    previous_close: fromUnits(close),
    net_change: fromUnits(ltp - close),
    change_percent: close > 0 ? Math.round(((ltp - close) / close) * 10_000) / 100 : 0,
    bid: book.buy[0] ? fromUnits(book.buy[0].price) : null,
    ask: book.sell[0] ? fromUnits(book.sell[0].price) : null,
    depth: { buy: wireLevels(book.buy), sell: wireLevels(book.sell) },
    buy_quantity: all.buy,
    sell_quantity: all.sell,
    lower_circuit_limit: fromUnits(lo),
    upper_circuit_limit: fromUnits(hi),
    oi: market.oi(i.token),
    session: sessionAt(i.exchange, now).phase,
  };
}

import { toIstIso } from '../../../shared/lib/ist-time';
import { fromUnits } from '../../../shared/trading/money';
import { IsoDate } from '../../../shared/domain/instrument';
import {
  QUOTES_PER_REQUEST,
  type WireMarketStatus,
  type WireOptionChain,
  type WireOptionLeg,
  type WireQuote,
} from '../../../shared/wire/schemas';
import { wireQuote } from '../quote-view';
import type { Route } from '../context';
import type { PaperInstrument } from '../instruments';
import { badField, notFound } from '../problem';

/**
 * Market data beyond the last price: full quotes, the market's sessions and the option chain
 * (docs/api.md §GET /quotes, §GET /market/status, §GET /option-chain).
 *
 * Contract placeholder: the shapes are final; the values come from the last price alone (a
 * one-tick book, every exchange open) until the order book and the session calendar land.
 */

/** `?i=1&i=2` or `?instrument_token=1`: the tokens asked for, in order, or a 400 naming `i`. */
function tokensOf(query: URLSearchParams): number[] {
  const raw = [...query.getAll('i'), ...query.getAll('instrument_token')];
  if (raw.length === 0) throw badField('i', 'name at least one instrument: ?i=TOKEN (repeatable)');
  if (raw.length > QUOTES_PER_REQUEST) throw badField('i', `at most ${QUOTES_PER_REQUEST} instruments per request`);
  return raw.map((r) => {
    if (!/^\d{1,10}$/.test(r)) throw badField('i', `${r.slice(0, 20)} is not an instrument token`);
    return Number(r);
  });
}

export const quoteRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/quotes',
    access: 'read',
    handle({ state, query, now }) {
      const quotes: WireQuote[] = [];
      for (const t of tokensOf(query)) {
        const i = state.market.instrument(t);
        if (i) quotes.push(wireQuote(state.market, i, now));
      }
      return { status: 200, body: { quotes } };
    },
  },
  {
    method: 'GET',
    path: '/market/status',
    access: 'read',
    handle({ now }) {
      const body: WireMarketStatus = {
        now: toIstIso(now),
        simulated: false,
        speed: 1,
        exchanges: (['NSE', 'BSE', 'NFO', 'BFO', 'MCX', 'CDS'] as const).map((exchange) => ({
          exchange,
          phase: 'open',
          detail: null,
          next_pre_open: null,
          next_open: toIstIso(now),
          next_close: toIstIso(now + 3_600_000),
        })),
      };
      return { status: 200, body };
    },
  },
  {
    method: 'GET',
    path: '/option-chain',
    access: 'read',
    handle({ state, query, now }) {
      const underlying = query.get('underlying') ?? '';
      if (!/^[A-Z0-9&-]{1,32}$/.test(underlying)) throw badField('underlying', 'must be an underlying such as NIFTY');
      const options = state.market.instruments.filter(
        (i) => i.name === underlying && (i.instrumentType === 'CE' || i.instrumentType === 'PE'),
      );
      if (options.length === 0) throw notFound(`Options on ${underlying}`);
      const expiries = [...new Set(options.map((o) => o.expiry ?? ''))].sort();
      const asked = query.get('expiry');
      if (asked !== null && !IsoDate.safeParse(asked).success) throw badField('expiry', 'must be a date YYYY-MM-DD');
      const expiry = asked ?? expiries[0] ?? '';
      if (!expiries.includes(expiry))
        throw badField('expiry', `${underlying} has options expiring ${expiries.join(', ')}`);
      const series = options.filter((o) => o.expiry === expiry);
      const strikes = [...new Set(series.map((o) => o.strike ?? 0))].sort((a, b) => a - b);
      const atm = strikes[Math.floor(strikes.length / 2)] ?? 0;
      const leg = (o: PaperInstrument | undefined): WireOptionLeg | null =>
        o
          ? {
              instrument_token: o.token,
              tradingsymbol: o.tradingsymbol,
              last_price: fromUnits(state.market.ltp(o.token)),
              net_change: 0,
              oi: 0,
              iv: 0,
              delta: o.instrumentType === 'CE' ? 0.5 : -0.5,
              bid: null,
              ask: null,
              volume: state.market.volume(o.token),
            }
          : null;
      const body: WireOptionChain = {
        underlying,
        exchange: series[0]?.exchange ?? 'NFO',
        expiry,
        expiries,
        underlying_price: atm,
        atm_strike: atm,
        lot_size: series[0]?.lotSize ?? 1,
        timestamp: toIstIso(now),
        strikes: strikes.map((strike) => ({
          strike,
          call: leg(series.find((o) => o.strike === strike && o.instrumentType === 'CE')),
          put: leg(series.find((o) => o.strike === strike && o.instrumentType === 'PE')),
        })),
      };
      return { status: 200, body };
    },
  },
];

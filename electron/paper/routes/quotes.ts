import { istDate, toIstIso } from '@shared/lib/ist-time';
import { fromUnits } from '@shared/trading/money';
import { IsoDate } from '@shared/domain/instrument';
import {
  QUOTES_PER_REQUEST,
  type WireMarketStatus,
  type WireOptionChain,
  type WireOptionLeg,
  type WireQuote,
} from '../../wire/rest-schemas';
import { wireQuote } from '../quote-view';
import { EXCHANGES, sessionAt } from '../calendar';
import type { BrokerState, Route } from '../context';
import { delta, futurePrice, impliedVol, yearsTo } from '@shared/trading/options-pricing';
import type { PaperInstrument } from '../instruments';
import { badField, notFound } from '../problem';

/**
 * Market data beyond the last price: full quotes, the market's sessions and the option chain
 * (docs/api.md §GET /quotes, §GET /market/status, §GET /option-chain).
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
    handle({ state, now }) {
      return { status: 200, body: marketStatus(state, now) };
    },
  },
  {
    method: 'GET',
    path: '/option-chain',
    access: 'read',
    handle({ state, query, now }) {
      return { status: 200, body: optionChain(state, query, now) };
    },
  },
];

/** GET /market/status: the clock and each exchange's session (also the control clock's reply). */
export function marketStatus(state: BrokerState, now: number): WireMarketStatus {
  return {
    now: toIstIso(now),
    simulated: state.marketClock.simulated,
    speed: state.marketClock.speed,
    exchanges: EXCHANGES.map((exchange) => {
      const s = sessionAt(exchange, now);
      return {
        exchange,
        phase: s.phase,
        detail: s.detail,
        next_pre_open: s.nextPreOpen === null ? null : toIstIso(s.nextPreOpen),
        next_open: toIstIso(s.nextOpen),
        next_close: toIstIso(s.nextClose),
      };
    }),
  };
}

/** GET /option-chain (docs/api.md §GET /option-chain). */
function optionChain(state: BrokerState, query: URLSearchParams, now: number): WireOptionChain {
  const underlying = query.get('underlying') ?? '';
  if (!/^[A-Z0-9&-]{1,32}$/.test(underlying))
    throw badField('underlying', 'must be an underlying such as NIFTY, RELIANCE or CRUDEOIL');
  const options = state.market.instruments.filter(
    (i) => i.underlying === underlying && (i.instrumentType === 'CE' || i.instrumentType === 'PE'),
  );
  if (options.length === 0) throw notFound(`Options on ${underlying}`);
  const expiries = [...new Set(options.map((o) => o.expiry ?? ''))].sort();
  const asked = query.get('expiry');
  if (asked !== null && !IsoDate.safeParse(asked).success) throw badField('expiry', 'must be a date YYYY-MM-DD');
  const expiry = asked ?? expiries[0] ?? '';
  if (!expiries.includes(expiry))
    throw badField('expiry', `${underlying} has options expiring ${expiries.join(', ')}, not ${expiry}`);
  const rawStrikes = query.get('strikes');
  const width = rawStrikes === null ? 10 : Number(rawStrikes);
  if (!Number.isInteger(width) || width < 1 || width > 50) throw badField('strikes', 'must be a whole number 1–50');

  const series = options.filter((o) => o.expiry === expiry);
  const spot = state.market.spot(underlying) ?? 0;
  const strikes = [...new Set(series.map((o) => o.strike ?? 0))].sort((a, b) => a - b);
  const atm = strikes.reduce((best, k) => (Math.abs(k - spot) < Math.abs(best - spot) ? k : best), strikes[0] ?? 0);
  const at = strikes.indexOf(atm);
  const shown = strikes.slice(Math.max(0, at - width), at + width + 1);
  const day = istDate(now);
  const leg = (o: PaperInstrument | undefined): WireOptionLeg | null => {
    if (!o || (o.instrumentType !== 'CE' && o.instrumentType !== 'PE')) return null;
    const ltp = state.market.ltp(o.token);
    const years = yearsTo(o.expiresAt ?? now, now);
    const forward = futurePrice(spot, years);
    const strike = o.strike ?? 0;
    const vol = impliedVol(o.instrumentType, fromUnits(ltp), forward, strike, years);
    const book = state.market.book(o.token);
    const bid = book?.best('buy') ?? null;
    const ask = book?.best('sell') ?? null;
    return {
      instrument_token: o.token,
      tradingsymbol: o.tradingsymbol,
      last_price: fromUnits(ltp),
      net_change: fromUnits(ltp - state.market.closeOf(o.token, day)),
      oi: state.market.oi(o.token) ?? 0,
      oi_change: (state.market.oi(o.token) ?? 0) - (state.market.oiCloseOf(o.token, day) ?? 0),
      iv: Math.round(vol * 10_000) / 100,
      delta: Math.round(delta(o.instrumentType, forward, strike, years, vol) * 10_000) / 10_000,
      bid: bid === null ? null : fromUnits(bid),
      ask: ask === null ? null : fromUnits(ask),
      volume: state.market.volume(o.token),
    };
  };
  const first = series[0];
  return {
    underlying,
    exchange: first?.exchange ?? 'NFO',
    expiry,
    expiries,
    underlying_price: Math.round(spot * 100) / 100,
    atm_strike: atm,
    lot_size: first?.lotSize ?? 1,
    timestamp: toIstIso(now),
    strikes: shown.map((strike) => ({
      strike,
      call: leg(series.find((o) => o.strike === strike && o.instrumentType === 'CE')),
      put: leg(series.find((o) => o.strike === strike && o.instrumentType === 'PE')),
    })),
  };
}

import { fromUnits } from '@shared/trading/money';
import type { CandleInterval } from '@shared/domain/market';
import { istDayStart, toIstIso } from '@shared/lib/ist-time';
import type { BrokerState } from '../../context';
import type { PaperInstrument } from '../../instruments';
import { kiteQuote } from '../../kite/views';
import { type UpstoxRoute, ok, upstoxApi, upstoxPage } from '../context';
import { inputError } from '../errors';
import { byKey, instrumentKey, masterRow, quoteKey } from '../keys';
import { upstoxTime } from '../wire';

/**
 * Market data on the /upstox dialect (docs/upstox.md §Market data): the instrument master,
 * LTP and full quotes keyed `SEGMENT:TRADINGSYMBOL` (unknown keys simply missing, as on Upstox),
 * and candles by unit and interval.
 */

/**
 * `?instrument_key=NSE_EQ|INE…,NSE_FO|41910` (or `symbol=`, the older name the SDK's v2 quote
 * call sends): each known instrument; unknown ones are left out.
 */
function asked(state: BrokerState, query: URLSearchParams, max: number): PaperInstrument[] {
  const raw = query.get('instrument_key') ?? query.get('symbol');
  if (!raw) throw inputError('instrument_key', 'name at least one instrument key, comma-separated');
  const keys = [...new Set(raw.split(','))];
  if (keys.length > max) throw inputError('instrument_key', `at most ${max} instrument keys per request`);
  return keys.map((k) => byKey(state.market, k.trim())).filter((i): i is PaperInstrument => i !== undefined);
}

/** Upstox's unit and interval as the paper market's candle interval. */
function intervalOf(unit: string, interval: string): CandleInterval {
  const key = `${unit}/${interval}`;
  const known: Record<string, CandleInterval> = {
    'minutes/1': 'minute',
    'minutes/5': '5minute',
    'minutes/15': '15minute',
    'minutes/60': '60minute',
    'hours/1': '60minute',
    'days/1': 'day',
  };
  const got = known[key];
  if (!got)
    throw inputError(
      'interval',
      `the paper market keeps minutes 1, 5, 15, 60, hours 1 and days 1, not ${key.slice(0, 30)}`,
    );
  return got;
}

/** `YYYY-MM-DD` (IST), or a 400 naming the field. */
function dateParam(name: string, v: string | undefined): number {
  if (!v || !/^\d{4}-\d{2}-\d{2}$/.test(v)) throw inputError(name, 'must be a date YYYY-MM-DD', v ?? null);
  const at = Date.parse(`${v}T00:00:00+05:30`);
  if (Number.isNaN(at)) throw inputError(name, 'must be a date YYYY-MM-DD', v);
  return at;
}

/** Candle rows as Upstox sends them: newest first, `[time, open, high, low, close, volume, oi]`. */
function candles(
  state: BrokerState,
  i: PaperInstrument,
  interval: CandleInterval,
  from: number,
  to: number,
  now: number,
) {
  const oi = state.market.oi(i.token) ?? 0;
  return {
    candles: state.market
      .candles(i.token, interval, from, to, now)
      .map((b) => [`${toIstIso(b[0])}`, fromUnits(b[1]), fromUnits(b[2]), fromUnits(b[3]), fromUnits(b[4]), b[5], oi])
      .reverse(),
  };
}

function instrumentOf(state: BrokerState, key: string | undefined): PaperInstrument {
  const i = byKey(state.market, key ?? '');
  if (!i) throw inputError('instrument_key', 'Invalid Instrument key', key ?? null);
  return i;
}

/** The full quote of one instrument, in Upstox's fields (from the same market as every dialect). */
function fullQuote(state: BrokerState, i: PaperInstrument, now: number): Record<string, unknown> {
  const k = kiteQuote(state.market, i, now) as Record<string, unknown> & {
    depth: { buy: Array<Record<string, number>>; sell: Array<Record<string, number>> };
  };
  const level = (l: Record<string, number>) => ({ quantity: l.quantity, price: l.price, orders: l.orders });
  return {
    ohlc: k.ohlc,
    depth: { buy: k.depth.buy.map(level), sell: k.depth.sell.map(level) },
    timestamp: upstoxTime(now),
    instrument_token: instrumentKey(i),
    symbol: i.tradingsymbol,
    last_price: k.last_price,
    volume: k.volume,
    average_price: k.average_price,
    oi: k.oi,
    net_change: k.net_change,
    total_buy_quantity: k.buy_quantity,
    total_sell_quantity: k.sell_quantity,
    lower_circuit_limit: k.lower_circuit_limit,
    upper_circuit_limit: k.upper_circuit_limit,
    last_trade_time: k.last_trade_time,
    oi_day_high: k.oi_day_high,
    oi_day_low: k.oi_day_low,
  };
}

/**
 * A candle route: the instrument key, unit and interval are in its path, the window is its own.
 * Upstox serves candles without a token (the SDK sends none).
 */
function candleRoute(
  path: string,
  window: (params: Readonly<Record<string, string>>, now: number) => { from: number; to: number },
): UpstoxRoute {
  return {
    method: 'GET',
    path,
    kind: 'public',
    limit: 'standard',
    handle({ state, params, now }) {
      const i = instrumentOf(state, params.instrument_key);
      const interval = intervalOf(params.unit ?? '', params.interval ?? '');
      const { from, to } = window(params, now);
      return ok(candles(state, i, interval, from, to, now));
    },
  };
}

export const marketRoutes: readonly UpstoxRoute[] = [
  // Upstox publishes the master as a file anyone may fetch: no token.
  upstoxPage('/instruments/complete.json', ({ state }) => ({ body: state.market.instruments.map(masterRow) })),
  upstoxApi('GET', '/v3/market-quote/ltp', 'standard', ({ state, query, now }) =>
    Object.fromEntries(
      asked(state, query, 500).map((i) => [
        quoteKey(i),
        {
          last_price: fromUnits(state.market.ltp(i.token)),
          instrument_token: instrumentKey(i),
          ltq: 0,
          volume: state.market.volume(i.token),
          cp: fromUnits(state.market.closeOf(i.token, toIstIso(now).slice(0, 10))),
        },
      ]),
    ),
  ),
  upstoxApi('GET', '/v2/market-quote/quotes', 'standard', ({ state, query, now }) =>
    Object.fromEntries(asked(state, query, 500).map((i) => [quoteKey(i), fullQuote(state, i, now)])),
  ),
  candleRoute('/v3/historical-candle/:instrument_key/:unit/:interval/:to_date/:from_date', (params) => {
    const from = dateParam('from_date', params.from_date);
    const to = dateParam('to_date', params.to_date) + 24 * 60 * 60 * 1000 - 1;
    if (from > to) throw inputError('from_date', 'must not be after to_date', params.from_date ?? null);
    return { from, to };
  }),
  // Today's candles so far.
  candleRoute('/v3/historical-candle/intraday/:instrument_key/:unit/:interval', (_params, now) => ({
    from: istDayStart(now),
    to: now,
  })),
];

import { Exchange } from '@shared/domain/instrument';
import { CandleInterval } from '@shared/domain/market';
import { fromUnits } from '@shared/trading/money';
import type { BrokerState } from '../../context';
import type { PaperInstrument } from '../../instruments';
import { type KiteRoute, kiteApi } from '../context';
import { instrumentsCsv } from '../csv';
import { inputError } from '../errors';
import { kiteLtp, kiteOhlc, kiteQuote } from '../views';
import { kiteCandleTime, parseKiteTime } from '../wire';

/**
 * Market data on the /kite dialect (docs/kite.md §Quotes, §Instruments, §Historical): quotes keyed
 * `EXCHANGE:TRADINGSYMBOL` (unknown ones simply missing, as on Kite), the instrument CSV, candles.
 */

/** `?i=NSE:INFY&i=408065`: each asked instrument found, keyed as asked; unknown ones are left out. */
function asked(state: BrokerState, query: URLSearchParams, max: number): Array<[string, PaperInstrument]> {
  const raw = query.getAll('i');
  if (raw.length === 0) throw inputError('i', 'name at least one instrument: ?i=EXCHANGE:TRADINGSYMBOL (repeatable)');
  if (raw.length > max) throw inputError('i', `at most ${max} instruments per request`);
  const out: Array<[string, PaperInstrument]> = [];
  for (const key of new Set(raw)) {
    const colon = key.indexOf(':');
    const i =
      colon > 0
        ? state.market.lookup(key.slice(0, colon), key.slice(colon + 1))
        : /^\d{1,10}$/.test(key)
          ? state.market.instrument(Number(key))
          : undefined;
    if (i) out.push([key, i]);
  }
  return out;
}

/** Kite's candle intervals the paper market keeps (minute, 5minute, 15minute, 60minute, day). */
function intervalOf(raw: string | undefined): CandleInterval {
  const v = CandleInterval.safeParse(raw);
  if (!v.success) throw inputError('interval', `must be one of ${CandleInterval.options.join(', ')}`);
  return v.data;
}

function timeParam(query: URLSearchParams, name: 'from' | 'to'): number {
  const v = query.get(name);
  if (v === null) throw inputError(name, 'is required: yyyy-mm-dd hh:mm:ss (IST)');
  const t = parseKiteTime(v);
  if (Number.isNaN(t)) throw inputError(name, `must be yyyy-mm-dd hh:mm:ss (IST), not ${v.slice(0, 30)}`);
  return t;
}

/** Quotes, the instrument CSV and candles on /kite. */
export const marketRoutes: readonly KiteRoute[] = [
  kiteApi('GET', '/quote', 'quote', ({ state, query, now }) =>
    Object.fromEntries(asked(state, query, 500).map(([k, i]) => [k, kiteQuote(state.market, i, now)])),
  ),
  kiteApi('GET', '/quote/ohlc', 'quote', ({ state, query, now }) =>
    Object.fromEntries(asked(state, query, 1000).map(([k, i]) => [k, kiteOhlc(state.market, i, now)])),
  ),
  kiteApi('GET', '/quote/ltp', 'quote', ({ state, query }) =>
    Object.fromEntries(asked(state, query, 1000).map(([k, i]) => [k, kiteLtp(state.market, i)])),
  ),
  {
    method: 'GET',
    path: '/instruments',
    kind: 'api',
    limit: 'default',
    handle: ({ state }) => ({ csv: instrumentsCsv(state.market.instruments, state.market) }),
  },
  {
    method: 'GET',
    path: '/instruments/:exchange',
    kind: 'api',
    limit: 'default',
    handle({ state, params }) {
      const ex = Exchange.safeParse(params.exchange);
      if (!ex.success) throw inputError('exchange', `must be one of ${Exchange.options.join(', ')}`);
      return {
        csv: instrumentsCsv(
          state.market.instruments.filter((i) => i.exchange === ex.data),
          state.market,
        ),
      };
    },
  },
  kiteApi(
    'GET',
    '/instruments/historical/:instrument_token/:interval',
    'historical',
    ({ state, params, query, now }) => {
      const raw = params.instrument_token ?? '';
      const token = /^\d{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
      if (!state.market.instrument(token)) throw inputError('instrument_token', `no instrument ${raw.slice(0, 20)}`);
      const interval = intervalOf(params.interval);
      const from = timeParam(query, 'from');
      const to = timeParam(query, 'to');
      if (from > to) throw inputError('from', 'must not be after to');
      const withOi = query.get('oi') === '1';
      const oi = state.market.oi(token) ?? 0;
      const candles = state.market.candles(token, interval, from, to, now).map((b) => {
        const row: Array<string | number> = [
          kiteCandleTime(b[0]),
          fromUnits(b[1]),
          fromUnits(b[2]),
          fromUnits(b[3]),
          fromUnits(b[4]),
          b[5],
        ];
        if (withOi) row.push(oi);
        return row;
      });
      return { candles };
    },
  ),
];

import { Exchange } from '@shared/domain/instrument';
import { CandleInterval } from '@shared/domain/market';
import { parseIso } from '@shared/lib/ist-time';
import type { Route } from '../context';
import { Problem, badField, notFound } from '../problem';
import { wireCandle, wireInstrument } from '../wire-views';

/** The instrument list and candle history. */
export const marketDataRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/instruments',
    access: 'read',
    handle({ state, query }) {
      const exchange = query.get('exchange');
      if (exchange !== null && !Exchange.safeParse(exchange).success) {
        throw badField('exchange', `must be one of ${Exchange.options.join(', ')}`);
      }
      const instruments = state.market.instruments
        .filter((i) => exchange === null || i.exchange === exchange)
        .map((i) => wireInstrument(i, state.market));
      return { status: 200, body: { instruments }, etag: true };
    },
  },
  {
    method: 'GET',
    path: '/instruments/:instrument_token/candles',
    access: 'read',
    handle({ state, params, query, now }) {
      const raw = params.instrument_token ?? '';
      const token = /^\d{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
      if (!state.market.instrument(token)) throw notFound(`Instrument ${raw}`);
      const interval = CandleInterval.safeParse(query.get('interval') ?? undefined);
      if (!interval.success) throw badField('interval', `must be one of ${CandleInterval.options.join(', ')}`);
      const time = (name: 'from' | 'to'): number | undefined => {
        const v = query.get(name);
        if (v === null) return undefined;
        const t = parseIso(v);
        if (Number.isNaN(t))
          throw badField(name, 'must be an ISO 8601 time like 2026-11-20T09:15:00+05:30 or a date 2026-11-20');
        return t;
      };
      const from = time('from');
      const to = time('to');
      if (from !== undefined && to !== undefined && from > to) {
        throw new Problem(400, 'invalid_combination', 'from is after to', [
          { field: 'from', message: 'must not be after to' },
        ]);
      }
      const candles = state.market.candles(token, interval.data, from, to, now).map(wireCandle);
      return { status: 200, body: { candles } };
    },
  },
];

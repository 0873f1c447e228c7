import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { istDate } from '@shared/lib/ist-time';
import { isOnTick } from '@shared/trading/money';
import { WireCandleList, WireInstrumentList } from '../wire/rest-schemas';
import { closedDay } from './calendar';
import { expiryClose, generateInstruments } from './instruments';
import { type Api, startTestBroker } from './test-helpers';

let api: Api;
beforeAll(async () => {
  api = await startTestBroker();
});
afterAll(() => api.close());

describe('instruments', () => {
  it('serves a deterministic universe of every exchange and type with real-looking specs', async () => {
    const list = WireInstrumentList.parse((await api.call('GET', '/instruments')).body).instruments;
    expect(list.length).toBeGreaterThan(300);
    expect(list.length).toBeLessThan(5000);
    expect(new Set(list.map((i) => i.exchange))).toEqual(new Set(['NSE', 'BSE', 'NFO', 'BFO', 'MCX', 'CDS']));
    expect(new Set(list.map((i) => i.instrument_type))).toEqual(new Set(['EQ', 'FUT', 'CE', 'PE']));
    expect(new Set(list.map((i) => i.instrument_token)).size).toBe(list.length);
    for (const i of list) {
      expect(isOnTick(i.last_price, i.tick_size), i.tradingsymbol).toBe(true);
      if (i.instrument_type === 'EQ') expect(i.lot_size).toBe(1);
      else expect(i.expiry, i.tradingsymbol).not.toBeNull();
      expect(i.freeze_quantity).toBeGreaterThanOrEqual(i.lot_size);
    }
    const nifty = list.find((i) => /^NIFTY\d\d[A-Z]{3}FUT$/.test(i.tradingsymbol));
    expect(nifty).toMatchObject({ lot_size: 75, freeze_quantity: 1800, exchange: 'NFO' });
    expect(list.find((i) => i.tradingsymbol.startsWith('BANKNIFTY'))).toMatchObject({
      lot_size: 35,
      freeze_quantity: 900,
    });
    const strikes = list.filter((i) => i.instrument_type === 'CE' && i.name === 'NIFTY').map((i) => i.strike ?? 0);
    expect(Math.min(...strikes)).toBeLessThan(nifty!.last_price);
    expect(Math.max(...strikes)).toBeGreaterThan(nifty!.last_price);
  });

  // Instants on the market's clock, not the wall's: which contracts trade depends on it.
  it.each([
    ['on its expiry day, before the close', '2026-11-27T10:00:00+05:30', 'SILVERM26NOVFUT'],
    ['just after the IST midnight that begins its expiry day', '2026-11-27T00:15:00+05:30', 'SILVERM26NOVFUT'],
    ["after its expiry day's MCX close (23:30)", '2026-11-27T23:45:00+05:30', 'SILVERM26DECFUT'],
  ])(
    'lists only contracts still trading at the market clock, the expiring one %s: first %s',
    async (_when, at, nearest) => {
      const now = Date.parse(at);
      const broker = await startTestBroker({ clock: () => now, marketClock: { at: now } });
      try {
        const list = WireInstrumentList.parse((await broker.call('GET', '/instruments')).body).instruments;
        // SILVER MINI expires on the 28th; 2026-11-28 is a Saturday, so it expires on Friday the 27th.
        const silverm = list.filter((i) => /^SILVERM\d\d[A-Z]{3}FUT$/.test(i.tradingsymbol));
        expect(silverm[0]?.tradingsymbol).toBe(nearest);
        for (const i of list) {
          if (i.expiry === null) continue;
          // A contract trades until its expiry day's close; none listed has passed it.
          expect(istDate(now) <= i.expiry, i.tradingsymbol).toBe(true);
          if (i.expiry === istDate(now)) expect(expiryClose(i.exchange, i.expiry) > now, i.tradingsymbol).toBe(true);
        }
      } finally {
        await broker.close();
      }
    },
  );

  it('quotes and trades currency futures on the real ₹0.0025 CDS tick', async () => {
    const cds = (await api.call('GET', '/instruments?exchange=CDS')).body.instruments;
    expect(cds.length).toBeGreaterThan(0);
    for (const i of cds) expect(i.tick_size, i.tradingsymbol).toBe(0.0025);
    const usdinr = cds.find((i: { name: string }) => i.name === 'USDINR');
    const moved = await api.call('POST', '/_control/price', {
      instrument_token: usdinr.instrument_token,
      last_price: 83.2525,
    });
    expect(moved.status).toBe(200);
    const off = await api.call('POST', '/_control/price', {
      instrument_token: usdinr.instrument_token,
      last_price: 83.2526,
    });
    expect(off.status).toBe(400);
    const r = await api.place({
      exchange: 'CDS',
      tradingsymbol: usdinr.tradingsymbol,
      order_type: 'LIMIT',
      price: 83.2475,
      product: 'NRML',
    });
    expect(r.status).toBe(201);
    expect(await api.order(r.body.order_id)).toMatchObject({ price: 83.2475, status: 'OPEN' });
  });

  it('filters by exchange and refuses an unknown one', async () => {
    const mcx = (await api.call('GET', '/instruments?exchange=MCX')).body.instruments;
    expect(mcx.length).toBeGreaterThan(0);
    expect(mcx.every((i: { exchange: string }) => i.exchange === 'MCX')).toBe(true);
    const bad = await api.call('GET', '/instruments?exchange=LSE');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('exchange');
  });

  it('is the same for the same seed and differs in prices for another', () => {
    const now = Date.parse('2026-11-20T04:00:00Z');
    const a = generateInstruments(1, now);
    expect(generateInstruments(1, now)).toEqual(a);
    const b = generateInstruments(2, now);
    // Tokens come from symbols, so equities keep theirs; strikes follow the seeded spot.
    const eq = (l: typeof a) => l.filter((i) => i.instrumentType === 'EQ').map((i) => i.token);
    expect(eq(b)).toEqual(eq(a));
    expect(b.map((i) => i.baseUnits)).not.toEqual(a.map((i) => i.baseUnits));
  });
});

describe('candles', () => {
  it('has enough history to chart every interval, IST-stamped and consistent', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    // At least a session of minutes, 3 days of 5-minute bars, 7 trading days of 15/60-minute bars, a year of days.
    const least = { minute: 375, '5minute': 225, '15minute': 175, '60minute': 49, day: 240 };
    for (const [interval, min] of Object.entries(least)) {
      const r = await api.call('GET', `/instruments/${infy.instrument_token}/candles?interval=${interval}`);
      expect(r.status, interval).toBe(200);
      const candles = WireCandleList.parse(r.body).candles;
      expect(candles.length, interval).toBeGreaterThanOrEqual(min);
      let prev = '';
      for (const [ts, o, h, l, c, v] of candles) {
        expect(ts).toMatch(/\+05:30$/);
        expect(ts > prev).toBe(true);
        prev = ts;
        expect(l).toBeLessThanOrEqual(Math.min(o, c));
        expect(h).toBeGreaterThanOrEqual(Math.max(o, c));
        expect(v).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('has no candle outside a session: minute bars inside 09:15–15:30 on trading days, day bars only on trading days', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const get = async (interval: string) =>
      WireCandleList.parse(
        (await api.call('GET', `/instruments/${infy.instrument_token}/candles?interval=${interval}`)).body,
      ).candles.map(([ts]) => ts);
    for (const ts of await get('minute')) {
      expect(closedDay(ts.slice(0, 10)), ts).toBeNull();
      expect(ts.slice(11, 16) >= '09:15' && ts.slice(11, 16) < '15:30', ts).toBe(true);
    }
    for (const ts of await get('day')) expect(closedDay(ts.slice(0, 10)), ts).toBeNull();
  });

  it('ends in a forming candle that follows live prices', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const target = Math.round((infy.last_price + 3) * 20) / 20;
    api.broker.setPrice(infy.instrument_token, target);
    for (const interval of ['minute', 'day']) {
      const candles = (await api.call('GET', `/instruments/${infy.instrument_token}/candles?interval=${interval}`)).body
        .candles;
      const last = candles[candles.length - 1];
      expect(last[4], interval).toBe(target);
      expect(last[2]).toBeGreaterThanOrEqual(target);
    }
  });

  it('honours from/to and refuses bad parameters', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const base = `/instruments/${infy.instrument_token}/candles`;
    const all = (await api.call('GET', `${base}?interval=minute`)).body.candles as Array<[string]>;
    const iso = (ts: string) => encodeURIComponent(ts);
    const [from, to] = [all[10]![0], all[40]![0]];
    const r = await api.call('GET', `${base}?interval=minute&from=${iso(from)}&to=${iso(to)}`);
    expect(r.body.candles).toEqual(all.slice(10, 41));
    expect((await api.call('GET', `${base}?interval=week`)).body.errors[0].field).toBe('interval');
    expect((await api.call('GET', `${base}`)).body.errors[0].field).toBe('interval');
    expect((await api.call('GET', `${base}?interval=day&from=yesterday`)).body.errors[0].field).toBe('from');
    const swapped = await api.call('GET', `${base}?interval=day&from=${iso(to)}&to=${iso(from)}`);
    expect(swapped.status).toBe(400);
    expect(swapped.body.code).toBe('invalid_combination');
  });
});

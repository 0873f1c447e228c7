import type { Connect } from 'kiteconnect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KiteTest, startKiteTest } from './test-kite';

let t: KiteTest;
let kc: Connect;
let token: number;

beforeAll(async () => {
  t = await startKiteTest();
  kc = await t.login();
  token = (await t.api.instrument('NSE', 'INFY')).instrument_token;
  t.api.broker.setPrice(token, 1500);
});
afterAll(() => t.close());

describe('/kite quotes (docs/kite.md §Quotes)', () => {
  it('getQuote keys by EXCHANGE:SYMBOL, leaves unknown instruments out, and serves the order book as 5-level depth', async () => {
    const q = await kc.getQuote(['NSE:INFY', 'NSE:NOSUCH']);
    expect(Object.keys(q)).toEqual(['NSE:INFY']);
    const infy = q['NSE:INFY'];
    const v1 = await t.api.quote(token);
    expect(infy?.last_price).toBe(1500);
    expect(infy?.depth.buy).toHaveLength(5);
    expect(infy?.depth.sell).toHaveLength(5);
    // The same book /v1 shows, level for level.
    const levels = (side: Array<{ price: number; quantity: number; orders: number }>) =>
      side.filter((l) => l.quantity > 0).map((l) => [l.price, l.quantity, l.orders]);
    expect(levels(infy?.depth.buy ?? [])).toEqual(
      v1.depth.buy.slice(0, 5).map((l: never) => [l['price'], l['quantity'], l['orders']]),
    );
    expect(levels(infy?.depth.sell ?? [])).toEqual(
      v1.depth.sell.slice(0, 5).map((l: never) => [l['price'], l['quantity'], l['orders']]),
    );
    expect(infy?.lower_circuit_limit).toBe(v1.lower_circuit_limit);
    expect(infy?.upper_circuit_limit).toBe(v1.upper_circuit_limit);
    expect(infy?.timestamp).toBeInstanceOf(Date);
  });

  it('getOHLC and getLTP follow a control price; ohlc.close is the previous close', async () => {
    t.api.broker.setPrice(token, 1510);
    const ltp = await kc.getLTP(['NSE:INFY', String(token)]);
    expect(ltp['NSE:INFY']).toEqual({ instrument_token: token, last_price: 1510 });
    expect(ltp[String(token)]?.last_price).toBe(1510);
    const ohlc = await kc.getOHLC(['NSE:INFY']);
    const v1 = await t.api.quote(token);
    expect(ohlc['NSE:INFY']?.last_price).toBe(1510);
    expect(ohlc['NSE:INFY']?.ohlc.close).toBe(v1.previous_close);
  });

  it('a quote with no instrument is an InputException naming i', async () => {
    await expect(kc.getQuote([])).rejects.toMatchObject({
      error_type: 'InputException',
      message: expect.stringMatching(/^i:/),
    });
  });
});

describe('/kite instruments (docs/kite.md §Instruments)', () => {
  it('getInstruments parses the CSV served as text/csv, the /v1 universe with its tokens', async () => {
    const r = await fetch(`${t.root}/instruments/NSE`, {
      headers: { authorization: `token paper:${(kc as unknown as { access_token: string }).access_token}` },
    });
    expect(r.headers.get('content-type')).toBe('text/csv');
    const all = await kc.getInstruments();
    const v1 = await t.api.call('GET', '/instruments');
    expect(all).toHaveLength(v1.body.instruments.length);
    const infy = all.find((i) => i.exchange === 'NSE' && i.tradingsymbol === 'INFY');
    expect(Number(infy?.instrument_token)).toBe(token);
    expect(infy).toMatchObject({
      tick_size: 0.05,
      lot_size: 1,
      instrument_type: 'EQ',
      segment: 'NSE',
    });
    const nfo = await kc.getInstruments('NFO');
    expect(nfo.length).toBeGreaterThan(0);
    expect(nfo.every((i) => i.exchange === 'NFO')).toBe(true);
    const option = nfo.find((i) => i.instrument_type === 'CE');
    expect(option?.expiry).toBeInstanceOf(Date);
    expect(option?.strike).toBeGreaterThan(0);
  });

  it('every currency token ends in byte 3 and no other in 3, 6 or 9, so Kite’s ticker divides prices right', async () => {
    const all = await kc.getInstruments();
    // kiteconnect's types say string; its CSV parser leaves the token a string too.
    const low = (i: { instrument_token: number | string }) => Number(i.instrument_token) & 0xff;
    expect(all.filter((i) => i.exchange === 'CDS').every((i) => low(i) === 3)).toBe(true);
    expect(all.filter((i) => i.exchange !== 'CDS').some((i) => [3, 6, 9].includes(low(i)))).toBe(false);
  });

  it('an unknown exchange is an InputException', async () => {
    await expect(kc.getInstruments('NOPE' as never)).rejects.toMatchObject({ error_type: 'InputException' });
  });
});

describe('/kite historical (docs/kite.md §Historical)', () => {
  it('getHistoricalData answers the session candles /v1 has, as Dates and numbers', async () => {
    const now = t.api.broker.marketNow();
    const day = new Date(now + 5.5 * 3600_000).toISOString().slice(0, 10);
    const candles = await kc.getHistoricalData(token, 'minute', `${day} 00:00:00`, `${day} 23:59:59`);
    const v1 = await t.api.call(
      'GET',
      `/instruments/${token}/candles?interval=minute&from=${day}&to=${day}T23:59:59%2B05:30`,
    );
    expect(candles.length).toBe(v1.body.candles.length);
    expect(candles.length).toBeGreaterThan(0);
    expect(candles.at(-1)?.date).toBeInstanceOf(Date);
    expect(candles.at(-1)?.close).toBe(v1.body.candles.at(-1)[4]);
  });

  it('an unsupported interval or a missing from is an InputException naming it', async () => {
    await expect(
      kc.getHistoricalData(token, '2minute' as never, '2026-11-23 09:15:00', '2026-11-23 10:00:00'),
    ).rejects.toMatchObject({
      message: expect.stringMatching(/^interval/),
    });
    const r = await fetch(`${t.root}/instruments/historical/${token}/minute?to=2026-11-23`, {
      headers: { authorization: `token paper:${(kc as unknown as { access_token: string }).access_token}` },
    });
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ error_type: 'InputException', message: expect.stringMatching(/^from/) });
  });
});

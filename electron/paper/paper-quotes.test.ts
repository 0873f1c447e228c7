import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  WireOptionChain,
  WireQuoteList,
  WireStreamServerMessage,
  type WireStreamServerMessage as Message,
} from '../wire/rest-schemas';
import { type Api, startTestBroker } from './test-helpers';

/**
 * What a dashboard reads of the paper market (docs/api.md §GET /quotes, §GET /option-chain,
 * §Stream, modes, §Prices), over HTTP and the stream: quotes with a book behind them, depth that
 * shows what an order took, ticks per mode, and derivatives that follow their underlying.
 */

let api: Api;
const now = Date.parse('2026-11-25T11:00:00+05:30');
beforeAll(async () => {
  api = await startTestBroker({ clock: () => now, marketClock: 'wall', tokenTtlMs: 7 * 24 * 3600_000 });
});
afterAll(() => api.close());

const quotes = async (...tokens: number[]) =>
  WireQuoteList.parse((await api.call('GET', `/quotes?${tokens.map((t) => `i=${t}`).join('&')}`)).body).quotes;

describe('GET /quotes', () => {
  it('answers each known instrument in the order asked, with a book around its last price inside its circuit limits', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const fut = (await api.call('GET', '/instruments?exchange=NFO')).body.instruments.find(
      (i: { name: string; instrument_type: string }) => i.name === 'NIFTY' && i.instrument_type === 'FUT',
    );
    const [f, q] = await quotes(fut.instrument_token, 999_999_999, infy.instrument_token);
    expect([f?.tradingsymbol, q?.tradingsymbol]).toEqual([fut.tradingsymbol, 'INFY']);
    expect(q).toMatchObject({ last_price: infy.last_price, session: 'open', oi: null });
    expect(f!.oi).toBeGreaterThan(0);
    const { buy, sell } = q!.depth;
    expect([buy.length, sell.length]).toEqual([5, 5]);
    // Best first, a tick apart, bid below the last price and ask above it.
    expect(q!.bid).toBe(buy[0]!.price);
    expect(q!.ask).toBe(sell[0]!.price);
    expect(buy[0]!.price).toBeLessThan(q!.last_price);
    expect(sell[0]!.price).toBeGreaterThan(q!.last_price);
    for (let n = 1; n < 5; n++) {
      expect(buy[n]!.price).toBeCloseTo(buy[n - 1]!.price - 0.05, 6);
      expect(sell[n]!.price).toBeCloseTo(sell[n - 1]!.price + 0.05, 6);
    }
    // The whole book (10 levels) holds more than the 5 shown.
    expect(q!.sell_quantity).toBeGreaterThan(sell.reduce((s, l) => s + l.quantity, 0));
    expect(q!.lower_circuit_limit).toBeLessThan(q!.last_price);
    expect(q!.upper_circuit_limit).toBeGreaterThan(q!.last_price);
  });

  it('refuses no instrument, a non-number and more than 500, naming i', async () => {
    for (const query of ['', '?i=abc', `?${Array.from({ length: 501 }, (_, n) => `i=${n + 1}`).join('&')}`]) {
      const r = await api.call('GET', `/quotes${query}`);
      expect([r.status, r.body.errors?.[0]?.field]).toEqual([400, 'i']);
    }
  });

  it('shows in its depth what an order took, until the next price event', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const [before] = await quotes(infy.instrument_token);
    const best = before!.depth.sell[0]!;
    await api.place({ quantity: best.quantity });
    const [after] = await quotes(infy.instrument_token);
    expect(after!.ask).toBe(before!.depth.sell[1]!.price);
    expect(after!.sell_quantity).toBe(before!.sell_quantity - best.quantity);
    expect(after!.last_price).toBe(before!.last_price);
    api.broker.setPrice(infy.instrument_token, before!.last_price);
    expect((await quotes(infy.instrument_token))[0]!.depth.sell[0]).toEqual(best);
  });
});

describe('the stream in its modes', () => {
  it('a full-mode subscriber gets the depth at once, and again when an order takes from the book', async () => {
    const tcs = await api.instrument('NSE', 'TCS');
    const ws = new WebSocket(`${api.broker.url.replace('http', 'ws')}/stream`, {
      headers: { authorization: `Bearer ${api.token}` },
    });
    const ticks: Array<Extract<Message, { type: 'tick' }>> = [];
    ws.on('message', (d) => {
      const m = WireStreamServerMessage.parse(JSON.parse(String(d)));
      if (m.type === 'tick' && m.instrument_token === tcs.instrument_token) ticks.push(m);
    });
    await new Promise((resolve) => ws.once('open', resolve));
    try {
      ws.send(JSON.stringify({ action: 'subscribe', tokens: [tcs.instrument_token] }));
      await expect.poll(() => ticks.length).toBe(1);
      // The default (quote) mode: bid and ask, no depth.
      expect(ticks[0]).toMatchObject({ mode: 'quote', bid: expect.any(Number), ask: expect.any(Number) });
      expect(ticks[0]!.depth).toBeUndefined();

      ws.send(JSON.stringify({ action: 'mode', mode: 'full', tokens: [tcs.instrument_token] }));
      await expect.poll(() => ticks.length).toBe(2);
      const full = ticks[1]!;
      expect(full.mode).toBe('full');
      expect(full.depth!.sell).toHaveLength(5);

      await api.place({ exchange: 'NSE', tradingsymbol: 'TCS', quantity: full.depth!.sell[0]!.quantity });
      await expect.poll(() => ticks.length).toBe(3);
      expect(ticks[2]).toMatchObject({ last_price: full.last_price, ask: full.depth!.sell[1]!.price });

      ws.send(JSON.stringify({ action: 'mode', mode: 'ltp', tokens: [tcs.instrument_token] }));
      await expect.poll(() => ticks.length).toBe(4);
      expect(Object.keys(ticks[3]!).sort()).toEqual(['instrument_token', 'last_price', 'ts', 'type', 'volume']);
    } finally {
      ws.terminate();
    }
  });
});

describe('derivatives follow their underlying', () => {
  it('when NIFTY rises every call rises or stays and every put falls or stays; futures rise with it', async () => {
    const nfo = (await api.call('GET', '/instruments?exchange=NFO')).body.instruments.filter(
      (i: { name: string }) => i.name === 'NIFTY',
    ) as Array<{ instrument_token: number; instrument_type: string; last_price: number; tradingsymbol: string }>;
    const chain = WireOptionChain.parse((await api.call('GET', '/option-chain?underlying=NIFTY')).body);
    const up = chain.underlying_price * 1.01;
    const r = await api.call('POST', '/_control/price', { underlying: 'NIFTY', price: up }, { token: null });
    expect(r.status).toBe(200);
    expect(r.body.moved).toBeGreaterThan(nfo.length / 2);
    const after = new Map(
      (await api.call('GET', '/instruments?exchange=NFO')).body.instruments.map(
        (i: { instrument_token: number; last_price: number }) => [i.instrument_token, i.last_price],
      ),
    );
    for (const i of nfo) {
      const now = after.get(i.instrument_token) as number;
      if (i.instrument_type === 'CE') expect(now, i.tradingsymbol).toBeGreaterThanOrEqual(i.last_price);
      if (i.instrument_type === 'PE') expect(now, i.tradingsymbol).toBeLessThanOrEqual(i.last_price);
      if (i.instrument_type === 'FUT') expect(now / i.last_price, i.tradingsymbol).toBeCloseTo(1.01, 3);
    }
    expect(
      WireOptionChain.parse((await api.call('GET', '/option-chain?underlying=NIFTY')).body).underlying_price,
    ).toBeCloseTo(up, 1);
  });

  it('the option chain shows strikes around the money with a smile of implied volatility and deltas that fall with the strike', async () => {
    const chain = WireOptionChain.parse((await api.call('GET', '/option-chain?underlying=NIFTY&strikes=4')).body);
    expect(chain.strikes.map((s) => s.strike)).toEqual([...chain.strikes.map((s) => s.strike)].sort((a, b) => a - b));
    expect(chain.strikes).toHaveLength(9);
    expect(chain.strikes[4]!.strike).toBe(chain.atm_strike);
    const calls = chain.strikes.map((s) => s.call!);
    const puts = chain.strikes.map((s) => s.put!);
    expect(calls.map((c) => c.delta)).toEqual([...calls.map((c) => c.delta)].sort((a, b) => b - a));
    expect(calls[4]!.delta).toBeGreaterThan(0.3);
    expect(calls[4]!.delta).toBeLessThan(0.7);
    for (const p of puts) expect(p.delta).toBeLessThanOrEqual(0);
    // Around 14% at the money, more for the low strikes' puts (the skew).
    expect(calls[4]!.iv).toBeGreaterThan(10);
    expect(calls[4]!.iv).toBeLessThan(18);
    expect(puts[0]!.iv).toBeGreaterThan(puts[8]!.iv);
    for (const c of calls) expect(c.bid! < c.ask!).toBe(true);
  });

  it('refuses an expiry the underlying has no options for, listing those it has, and an unknown underlying', async () => {
    const bad = await api.call('GET', '/option-chain?underlying=NIFTY&expiry=2030-01-01');
    expect([bad.status, bad.body.errors[0].field]).toEqual([400, 'expiry']);
    expect(bad.body.errors[0].message).toMatch(/^NIFTY has options expiring \d{4}-\d\d-\d\d/);
    expect((await api.call('GET', '/option-chain?underlying=NOSUCH')).status).toBe(404);
  });
});

import { KiteTicker, type Connect } from 'kiteconnect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type KiteTest, startKiteTest } from './test-kite';

/**
 * The ticker driven by Zerodha's own `KiteTicker` (docs/kite.md §Ticker). That client keeps its
 * socket and handlers in module state, so this file opens one ticker and reads everything it
 * emitted from the arrays below.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

let t: KiteTest;
let kc: Connect;
let accessToken: string;
let ticker: InstanceType<typeof KiteTicker>;
let token: number;
const ticks: Any[] = [];
const updates: Any[] = [];
const heartbeats: number[] = [];

beforeAll(async () => {
  t = await startKiteTest({ kiteHeartbeatMs: 100 });
  kc = await t.login();
  accessToken = (kc as unknown as { access_token: string }).access_token;
  token = (await t.api.instrument('NSE', 'INFY')).instrument_token;
  t.api.broker.setPrice(token, 1500);
  // kiteconnect's types leave out `root`, which its constructor reads.
  const params = {
    api_key: 'paper',
    access_token: accessToken,
    root: `ws://127.0.0.1:${t.port}/kite/ws`,
    reconnect: false,
  };
  ticker = new KiteTicker(params);
  ticker.on('ticks', (batch: Any[]) => ticks.push(...batch));
  ticker.on('order_update', (o: Any) => updates.push(o));
  ticker.on('message', (data: ArrayBuffer) => {
    if (data.byteLength === 1) heartbeats.push(Date.now());
  });
  const connected = new Promise<void>((resolve) => ticker.on('connect', () => resolve()));
  ticker.connect();
  await connected;
});
afterAll(async () => {
  ticker.disconnect();
  await t.close();
});

const lastTick = (mode: string): Any => ticks.filter((k) => k.instrument_token === token && k.mode === mode).at(-1);

describe('/kite ticker with KiteTicker (docs/kite.md §Ticker)', () => {
  it('a subscription gets a quote packet at once, and every price move after it', async () => {
    ticker.subscribe([token]);
    await expect.poll(() => lastTick('quote')?.last_price).toBe(1500);
    const q = lastTick('quote');
    const v1 = await t.api.quote(token);
    expect(q.ohlc.close).toBe(v1.previous_close);
    expect(q.total_buy_quantity).toBe(v1.buy_quantity);
    expect(q.total_sell_quantity).toBe(v1.sell_quantity);
    t.api.broker.setPrice(token, 1502.5);
    await expect.poll(() => lastTick('quote')?.last_price).toBe(1502.5);
  });

  it('full mode carries the 5+5 depth /quote serves, OI and the exchange timestamp', async () => {
    ticker.setMode(ticker.modeFull, [token]);
    await expect.poll(() => lastTick('full')).toBeDefined();
    const full = lastTick('full');
    const quote = (await kc.getQuote([`NSE:INFY`]))['NSE:INFY'];
    expect(full.depth.buy).toEqual(quote?.depth.buy);
    expect(full.depth.sell).toEqual(quote?.depth.sell);
    expect(full.depth.buy[0].price).toBeGreaterThan(0);
    expect(full.exchange_timestamp).toBeInstanceOf(Date);
    expect(Math.abs(full.exchange_timestamp.getTime() - t.api.broker.marketNow())).toBeLessThan(60_000);
  });

  it('ltp mode sends the 8-byte packet: token and price only', async () => {
    ticker.setMode(ticker.modeLTP, [token]);
    t.api.broker.setPrice(token, 1497);
    await expect.poll(() => lastTick('ltp')?.last_price).toBe(1497);
    expect(Object.keys(lastTick('ltp')).sort()).toEqual(['instrument_token', 'last_price', 'mode', 'tradable']);
  });

  it('after unsubscribe no packet of the token arrives, though its price moves', async () => {
    ticker.unsubscribe([token]);
    await expect.poll(() => t.api.broker.kiteTickerStats()[0]?.subscribed).toBe(0);
    const seen = ticks.length;
    t.api.broker.setPrice(token, 1499);
    // A negative check: wait for two heartbeats (the socket is alive and idle), then look.
    const beats = heartbeats.length;
    await expect.poll(() => heartbeats.length).toBeGreaterThanOrEqual(beats + 2);
    expect(ticks.slice(seen).filter((k) => k.instrument_token === token)).toEqual([]);
  });

  it('an idle socket gets 1-byte heartbeats', async () => {
    const beats = heartbeats.length;
    await expect.poll(() => heartbeats.length).toBeGreaterThan(beats);
  });

  it('every change of the account’s orders arrives as an order update, from either dialect', async () => {
    t.api.broker.setPrice(token, 1500);
    const placed = await t.api.place({ order_type: 'LIMIT', price: 1490, client_order_id: 'tick-upd' });
    const id: string = placed.body.order_id;
    await expect.poll(() => updates.find((u) => u.order_id === id)?.status).toBe('OPEN');
    expect(updates.find((u) => u.order_id === id)).toMatchObject({
      tag: 'tick-upd',
      price: 1490,
      tradingsymbol: 'INFY',
    });
    await kc.cancelOrder('regular', id);
    await expect.poll(() => updates.filter((u) => u.order_id === id).at(-1)?.status).toBe('CANCELLED');
    const k = await kc.placeOrder('regular', {
      exchange: 'NSE',
      tradingsymbol: 'INFY',
      transaction_type: 'BUY',
      quantity: 1,
      product: 'MIS',
      order_type: 'MARKET',
      market_protection: -1,
    } as Parameters<Connect['placeOrder']>[1]);
    await expect.poll(() => updates.filter((u) => u.order_id === k.order_id).at(-1)?.status).toBe('COMPLETE');
    expect(updates.filter((u) => u.order_id === k.order_id).at(-1)).toMatchObject({
      filled_quantity: 1,
      unfilled_quantity: 0,
    });
  });
});

describe('/kite ticker refusals (docs/kite.md §Ticker)', () => {
  const open = (query: string): WebSocket => new WebSocket(`ws://127.0.0.1:${t.port}/kite/ws?${query}`);

  it('a bad access token is refused at the upgrade with 403 and a TokenException body', async () => {
    const ws = open('api_key=paper&access_token=nope');
    const status = await new Promise<number>((resolve) =>
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
    );
    expect(status).toBe(403);
  });

  it('malformed messages and a subscription over 3000 are answered with an error, and the socket stays usable', async () => {
    const ws = open(`api_key=paper&access_token=${accessToken}`);
    const texts: string[] = [];
    const binaries: Buffer[] = [];
    ws.on('message', (data: Buffer, isBinary) => (isBinary ? binaries.push(data) : texts.push(String(data))));
    await new Promise((resolve) => ws.on('open', resolve));
    ws.send('not json');
    ws.send(JSON.stringify({ a: 'subscribe', v: ['x'] }));
    ws.send(JSON.stringify({ a: 'subscribe', v: Array.from({ length: 3001 }, (_, n) => n) }));
    await expect.poll(() => texts.filter((m) => JSON.parse(m).type === 'error').length).toBe(3);
    expect(t.api.broker.kiteTickerStats().some((s) => s.subscribed > 0 && s.subscribed > 3000)).toBe(false);
    ws.send(JSON.stringify({ a: 'subscribe', v: [token] }));
    await expect.poll(() => binaries.some((b) => b.length > 1 && b.readUInt32BE(4) === token)).toBe(true);
    ws.close();
  });

  it('a socket whose token is logged out is closed with 1008 at the next heartbeat', async () => {
    const other = await t.login();
    const otherToken = (other as unknown as { access_token: string }).access_token;
    const ws = open(`api_key=paper&access_token=${otherToken}`);
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await new Promise((resolve) => ws.on('open', resolve));
    await other.invalidateAccessToken();
    expect(await closed).toBe(1008);
  });

  it('the control interface switching the stream off cuts ticker sockets too and refuses new ones with 503', async () => {
    const ws = open(`api_key=paper&access_token=${accessToken}`);
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await new Promise((resolve) => ws.on('open', resolve));
    const before = t.api.broker.kiteTickerStats().length;
    expect(t.api.broker.setStreamAccepting(false)).toBeGreaterThanOrEqual(before);
    try {
      expect(await closed).toBe(1006);
      const refused = open(`api_key=paper&access_token=${accessToken}`);
      const status = await new Promise<number>((resolve) =>
        refused.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
      );
      expect(status).toBe(503);
    } finally {
      t.api.broker.setStreamAccepting(true);
    }
  });
});

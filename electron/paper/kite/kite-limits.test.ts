import type { Connect } from 'kiteconnect';
import { afterEach, describe, expect, it } from 'vitest';
import { KITE_RATES, parseOrderLimits } from './limits';
import { KITE_BUY_INFY, type KiteTest, startKiteTest } from './test-kite';

type PlaceParams = Parameters<Connect['placeOrder']>[1];

const LIMIT_ORDER = { ...KITE_BUY_INFY, order_type: 'LIMIT' } as const;

let t: KiteTest | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

/** A broker on an injected real clock, so limits and expiry are tested without waiting. */
async function start(
  rates = KITE_RATES,
): Promise<{ t: KiteTest; kc: Connect; advance: (ms: number) => void; price: number }> {
  let now = Date.parse('2026-11-23T10:00:00+05:30');
  t = await startKiteTest({ clock: () => now, kiteRates: rates });
  const kc = await t.login();
  const infy = await t.api.instrument('NSE', 'INFY');
  return { t, kc, advance: (ms) => (now += ms), price: infy.last_price };
}

describe('/kite limits (docs/kite.md §Limits)', () => {
  it('quotes are 1/s: a second quote in the same second is a 429 NetworkException with Retry-After, the next second is fine', async () => {
    const { t, kc, advance } = await start();
    await kc.getLTP(['NSE:INFY']);
    await expect(kc.getOHLC(['NSE:INFY'])).rejects.toMatchObject({
      error_type: 'NetworkException',
      message: expect.stringContaining('quote'),
    });
    const r = await fetch(`${t.root}/quote/ltp?i=NSE:INFY`, {
      headers: { authorization: `token paper:${(kc as unknown as { access_token: string }).access_token}` },
    });
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('1');
    advance(1000);
    await expect(kc.getLTP(['NSE:INFY'])).resolves.toHaveProperty(['NSE:INFY']);
  });

  it('historical is 3/s', async () => {
    const { kc, t } = await start();
    const token = (await t.api.instrument('NSE', 'INFY')).instrument_token;
    const ask = () => kc.getHistoricalData(token, 'minute', '2026-11-23 09:15:00', '2026-11-23 10:00:00');
    for (let n = 0; n < 3; n++) await ask();
    await expect(ask()).rejects.toMatchObject({ error_type: 'NetworkException' });
  });

  it('orders are 10/s: the eleventh placement in a second is refused and creates nothing', async () => {
    const { t, kc, price } = await start();
    const params = { ...LIMIT_ORDER, price } as PlaceParams;
    for (let n = 0; n < 10; n++) await kc.placeOrder('regular', params);
    const before = t.api.broker.orderCount();
    await expect(kc.placeOrder('regular', params)).rejects.toMatchObject({ error_type: 'NetworkException' });
    expect(t.api.broker.orderCount()).toBe(before);
  });

  it('orders are also 400 a minute, whatever the per-second rate', async () => {
    const { t, kc, price } = await start({ ...KITE_RATES, ordersPerSecond: 10_000 });
    const params = { ...LIMIT_ORDER, price } as PlaceParams;
    for (let n = 0; n < 400; n++) await kc.placeOrder('regular', params);
    await expect(kc.placeOrder('regular', params)).rejects.toMatchObject({
      error_type: 'NetworkException',
      message: expect.stringContaining('400/min'),
    });
    expect(t.api.broker.orderCount()).toBe(400);
  });

  it('the 10 are counted per calendar second: ten at .900 and ten more at the next second’s .000 all go in', async () => {
    const { t, kc, advance, price } = await start();
    const params = { ...LIMIT_ORDER, price } as PlaceParams;
    advance(900);
    for (let n = 0; n < 10; n++) await kc.placeOrder('regular', params);
    await expect(kc.placeOrder('regular', params)).rejects.toMatchObject({
      error_type: 'NetworkException',
      message: expect.stringContaining('10/s'),
    });
    // 100 ms later a new calendar second starts: a bucket refilling at 10/s would allow one order, Kite allows ten.
    advance(100);
    for (let n = 0; n < 10; n++) await kc.placeOrder('regular', params);
    expect(t.api.broker.orderCount()).toBe(20);
  });

  it('modifications and cancellations count as orders, and every session of the account shares the limit', async () => {
    const { t, kc, price } = await start();
    const other = await t.login();
    const params = { ...LIMIT_ORDER, price: Math.floor(price * 0.9) } as PlaceParams;
    const { order_id } = await kc.placeOrder('regular', params);
    for (let n = 0; n < 4; n++) await other.placeOrder('regular', params);
    await kc.modifyOrder('regular', order_id, { quantity: 2 });
    for (let n = 0; n < 3; n++) await other.placeOrder('regular', params);
    await kc.cancelOrder('regular', order_id);
    await expect(other.placeOrder('regular', params)).rejects.toMatchObject({ error_type: 'NetworkException' });
    expect(t.api.broker.orderCount()).toBe(8);
  });

  it('orders per IST day (5,000 on Kite; 3 here): over it a 429 whose Retry-After runs to midnight IST, then the next day is fresh', async () => {
    const { t, kc, advance, price } = await start({ ...KITE_RATES, ordersPerDay: 3 });
    const params = { ...LIMIT_ORDER, price } as PlaceParams;
    for (let n = 0; n < 3; n++) {
      await kc.placeOrder('regular', params);
      advance(60_000);
    }
    const r = await fetch(`${t.root}/orders/regular`, {
      method: 'POST',
      headers: {
        authorization: `token paper:${(kc as unknown as { access_token: string }).access_token}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ ...LIMIT_ORDER, quantity: '1', price: String(price) }).toString(),
    });
    expect(r.status).toBe(429);
    expect(await r.json()).toMatchObject({ error_type: 'NetworkException', message: expect.stringContaining('3/day') });
    // Now 10:03 IST: 13 h 57 min to midnight.
    expect(r.headers.get('retry-after')).toBe(String(13 * 3600 + 57 * 60));
    expect(t.api.broker.orderCount()).toBe(3);
  });
});

describe('--kite-order-limits (docs/kite.md §Limits)', () => {
  it('reads any of 10/s, 400/min and 5000/day, and refuses anything else naming the form', () => {
    expect(parseOrderLimits('10/s,400/min,5000/day')).toEqual({
      ordersPerSecond: 10,
      ordersPerMinute: 400,
      ordersPerDay: 5000,
    });
    expect(parseOrderLimits('5/s')).toEqual({ ordersPerSecond: 5 });
    expect(() => parseOrderLimits('10 per second')).toThrow(/10\/s,400\/min,5000\/day/);
    expect(() => parseOrderLimits('0/s')).toThrow(/≥ 1/);
  });
});

describe('/kite token expiry and faults (docs/kite.md §Login, §Faults)', () => {
  it('an access token works until 06:00 IST the next day, then is a TokenException the expiry hook sees', async () => {
    const { kc, advance } = await start();
    let expired = 0;
    kc.setSessionExpiryHook(() => {
      expired += 1;
    });
    // Logged in at 10:00 IST: 06:00 IST tomorrow is 20 hours on.
    advance(20 * 3600_000 - 1000);
    await expect(kc.getProfile()).resolves.toMatchObject({ user_id: 'PAPER01' });
    advance(1000);
    await expect(kc.getProfile()).rejects.toMatchObject({ error_type: 'TokenException' });
    expect(expired).toBe(1);
  });

  it('the token_expiry fault expires the Kite session: 403 TokenException now and after, and the hook fires', async () => {
    const { t, kc } = await start();
    let expired = 0;
    kc.setSessionExpiryHook(() => {
      expired += 1;
    });
    t.api.broker.setFaults({ token_expiry: 1 });
    await expect(kc.getProfile()).rejects.toMatchObject({ error_type: 'TokenException' });
    t.api.broker.setFaults({});
    await expect(kc.getOrders()).rejects.toMatchObject({ error_type: 'TokenException' });
    expect(expired).toBe(2);
  });

  it('a 5xx fault after the handler commits: the order exists though the client saw an error', async () => {
    const { t, kc, price } = await start();
    t.api.broker.setFaults({ late_server_error: 1 });
    await expect(kc.placeOrder('regular', { ...LIMIT_ORDER, price } as PlaceParams)).rejects.toMatchObject({
      error_type: 'GeneralException',
    });
    t.api.broker.setFaults({});
    expect(t.api.broker.orderCount()).toBe(1);
    expect(await kc.getOrders()).toHaveLength(1);
  });

  it('the rate_limit fault is a 429 NetworkException before anything is done', async () => {
    const { t, kc, price } = await start();
    t.api.broker.setFaults({ rate_limit: 1 });
    await expect(kc.placeOrder('regular', { ...LIMIT_ORDER, price } as PlaceParams)).rejects.toMatchObject({
      error_type: 'NetworkException',
    });
    t.api.broker.setFaults({});
    expect(t.api.broker.orderCount()).toBe(0);
  });

  it('shape_change renames the first field of data (the envelope stays Kite’s), and latency_ms still answers', async () => {
    const { t, kc } = await start();
    t.api.broker.setFaults({ shape_change: 1, latency_ms: 5 });
    const drifted = (await kc.getProfile()) as unknown as Record<string, unknown>;
    t.api.broker.setFaults({});
    expect(drifted.user_id).toBeUndefined();
    expect(drifted.userId).toBe('PAPER01');
  });

  it('a dropped reply is a NetworkException to the client, and the order was placed', async () => {
    const { t, kc, price } = await start();
    t.api.broker.setFaults({ drop_reply: 1 });
    await expect(kc.placeOrder('regular', { ...LIMIT_ORDER, price } as PlaceParams)).rejects.toMatchObject({
      error_type: 'NetworkException',
    });
    t.api.broker.setFaults({});
    expect(t.api.broker.orderCount()).toBe(1);
  });
});

describe('/kite holdings across a day (docs/kite.md §Portfolio)', () => {
  it('a CNC buy is a day position today and a holding tomorrow, read with the next day’s login', async () => {
    const { t, kc, advance, price } = await start();
    const { order_id } = await kc.placeOrder('regular', {
      ...LIMIT_ORDER,
      product: 'CNC',
      quantity: 4,
      order_type: 'MARKET',
      market_protection: -1,
    } as PlaceParams);
    expect((await kc.getOrderHistory(order_id)).at(-1)?.status).toBe('COMPLETE');
    expect((await kc.getPositions()).day.find((p) => p.product === 'CNC')?.quantity).toBe(4);
    expect(await kc.getHoldings()).toEqual([]);
    advance(24 * 3600_000);
    const tomorrow = await t.login();
    const holdings = await tomorrow.getHoldings();
    expect(holdings).toHaveLength(1);
    expect(holdings[0]).toMatchObject({ tradingsymbol: 'INFY', exchange: 'NSE', quantity: 4, product: 'CNC' });
    expect(holdings[0]?.average_price).toBeGreaterThan(price * 0.9);
  });
});

import { readFileSync } from 'node:fs';
import type { Connect } from 'kiteconnect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KiteTest, placeParams, startKiteTest } from './test-kite';

type PlaceParams = Parameters<Connect['placeOrder']>[1];

let t: KiteTest;
let kc: Connect;
let infy: { instrument_token: number; last_price: number };

/** Place params (LIMIT BUY 1 INFY at 1450 unless `o` says otherwise). */
const order = placeParams;

beforeAll(async () => {
  t = await startKiteTest();
  kc = await t.login();
  t.api.broker.setPrice((await t.api.instrument('NSE', 'INFY')).instrument_token, 1500);
  infy = await t.api.instrument('NSE', 'INFY');
});
afterAll(() => t.close());

describe('/kite orders (docs/kite.md §Orders)', () => {
  it('an order placed on /kite is on /v1 with its tag as the client reference, and the reverse', async () => {
    const { order_id } = await kc.placeOrder('regular', order({ tag: 'kiteTag1' }));
    expect(order_id).toMatch(/^\d+$/);
    const onV1 = await t.api.order(order_id);
    expect(onV1).toMatchObject({ order_id, client_order_id: 'kiteTag1', status: 'OPEN', price: 1450 });

    const placed = await t.api.place({ order_type: 'LIMIT', price: 1451 });
    const listed = await kc.getOrders();
    const v1Order = listed.find((o) => o.order_id === placed.body.order_id);
    expect(v1Order).toMatchObject({
      status: 'OPEN',
      price: 1451,
      tradingsymbol: 'INFY',
      variety: 'regular',
      tag: null,
    });
    expect(listed.find((o) => o.order_id === order_id)).toMatchObject({
      tag: 'kiteTag1',
      instrument_token: infy.instrument_token,
      pending_quantity: 1,
      trigger_price: 0,
    });
  });

  it('order timestamps are IST yyyy-mm-dd hh:mm:ss, which kiteconnect turns into Dates', async () => {
    const r = await fetch(`${t.root}/orders`, {
      headers: { authorization: `token paper:${(kc as unknown as { access_token: string }).access_token}` },
    });
    const body = (await r.json()) as { data: Array<{ order_timestamp: string }> };
    expect(body.data[0]?.order_timestamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await kc.getOrders())[0]?.order_timestamp).toBeInstanceOf(Date);
  });

  it('the same tag twice places two orders: /kite never deduplicates', async () => {
    const before = t.api.broker.orderCount();
    const a = await kc.placeOrder('regular', order({ tag: 'sametag' }));
    const b = await kc.placeOrder('regular', order({ tag: 'sametag' }));
    expect(a.order_id).not.toBe(b.order_id);
    expect(t.api.broker.orderCount()).toBe(before + 2);
  });

  it('an empty tag places an untagged order: tag null and no tags, as Kite shows an order placed without one', async () => {
    const { order_id } = await kc.placeOrder('regular', order({ tag: '' }));
    expect((await kc.getOrders()).find((o) => o.order_id === order_id)).toMatchObject({ tag: null, tags: [] });
    expect(await t.api.order(order_id)).toMatchObject({ client_order_id: null });
  });

  it('a path with a trailing slash is no route (404 GeneralException), and nothing is created', async () => {
    const before = t.api.broker.orderCount();
    const auth = { authorization: `token paper:${(kc as unknown as { access_token: string }).access_token}` };
    const body = new URLSearchParams({
      exchange: 'NSE',
      tradingsymbol: 'INFY',
      transaction_type: 'BUY',
      quantity: '1',
      product: 'MIS',
      order_type: 'LIMIT',
      price: '1450',
    });
    const r = await fetch(`${t.root}/orders/regular/`, { method: 'POST', headers: auth, body });
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({
      status: 'error',
      message: 'Route not found: POST /kite/orders/regular/',
      error_type: 'GeneralException',
      data: null,
    });
    expect(t.api.broker.orderCount()).toBe(before);
    // The documented path takes the same form; reads with a slash are no route either.
    expect((await fetch(`${t.root}/orders/regular`, { method: 'POST', headers: auth, body })).status).toBe(200);
    expect((await fetch(`${t.root}/orders/`, { headers: auth })).status).toBe(404);
  });

  it('a MARKET or SL-M order without market_protection, or with 0, is refused in Kite’s words, and nothing is created', async () => {
    const before = t.api.broker.orderCount();
    const refusal = {
      error_type: 'InputException',
      message:
        'Market orders without market protection are not allowed via API. Please set market protection or use a Limit order.',
    };
    await expect(kc.placeOrder('regular', order({ order_type: 'MARKET', price: undefined }))).rejects.toMatchObject(
      refusal,
    );
    await expect(
      kc.placeOrder('regular', order({ order_type: 'MARKET', price: undefined, market_protection: 0 })),
    ).rejects.toMatchObject(refusal);
    await expect(
      kc.placeOrder('regular', order({ order_type: 'SL-M', price: undefined, trigger_price: 1600 })),
    ).rejects.toMatchObject(refusal);
    expect(t.api.broker.orderCount()).toBe(before);
  });

  it('a MARKET order with market_protection (price and trigger 0, as Kite clients send) fills, and its trade, position and margins follow', async () => {
    const { order_id } = await kc.placeOrder(
      'regular',
      order({ order_type: 'MARKET', price: 0, trigger_price: 0, quantity: 3, market_protection: -1 }),
    );
    const history = await kc.getOrderHistory(order_id);
    expect(history.at(-1)).toMatchObject({ status: 'COMPLETE', filled_quantity: 3, market_protection: -1 });
    const trades = await kc.getOrderTrades(order_id);
    expect(trades.reduce((n, tr) => n + tr.quantity, 0)).toBe(3);
    expect((await kc.getTrades()).map((tr) => tr.order_id)).toContain(order_id);
    const positions = await kc.getPositions();
    const net = positions.net.find((p) => p.tradingsymbol === 'INFY' && p.product === 'MIS');
    expect(net?.quantity).toBe(3);
    expect(positions.day.find((p) => p.tradingsymbol === 'INFY')?.day_buy_quantity).toBe(3);
    const margins = await kc.getMargins();
    expect(margins.equity?.utilised.debits).toBeGreaterThan(0);
    const equity = (await kc.getMargins('equity')) as { net?: number };
    expect(equity.net).toBe(margins.equity?.net);
  });

  it('the history shows the interim statuses: OPEN PENDING, MODIFY PENDING, CANCEL PENDING', async () => {
    const { order_id } = await kc.placeOrder('regular', order({ price: 1440 }));
    await kc.modifyOrder('regular', order_id, { price: 1441 });
    expect((await t.api.order(order_id)).price).toBe(1441);
    await kc.cancelOrder('regular', order_id);
    const statuses = (await kc.getOrderHistory(order_id)).map((h) => h.status);
    expect(statuses).toEqual([
      'PUT ORDER REQ RECEIVED',
      'VALIDATION PENDING',
      'OPEN PENDING',
      'OPEN',
      'MODIFY VALIDATION PENDING',
      'MODIFY PENDING',
      'OPEN',
      'CANCEL PENDING',
      'CANCELLED',
    ]);
  });

  it('an order the margin refuses is placed and REJECTED, its history without OPEN PENDING', async () => {
    const { order_id } = await kc.placeOrder('regular', order({ quantity: 100_000, product: 'CNC' }));
    const history = await kc.getOrderHistory(order_id);
    expect(history.map((h) => h.status)).toEqual(['PUT ORDER REQ RECEIVED', 'VALIDATION PENDING', 'REJECTED']);
    expect(history.at(-1)?.status_message).toMatch(/margin|funds/i);
  });

  it('cancelling an order already cancelled is an OrderException, in Kite’s words', async () => {
    const { order_id } = await kc.placeOrder('regular', order({ price: 1440 }));
    await kc.cancelOrder('regular', order_id);
    await expect(kc.cancelOrder('regular', order_id)).rejects.toMatchObject({
      error_type: 'OrderException',
      message: 'Order cannot be cancelled as it is being processed. Try later.',
    });
    expect((await t.api.order(order_id)).status).toBe('CANCELLED');
  });

  it('cancelling a COMPLETE order is an OrderException; an unknown order id an InputException', async () => {
    const { order_id } = await kc.placeOrder(
      'regular',
      order({ order_type: 'MARKET', price: undefined, market_protection: 5 }),
    );
    await expect(kc.cancelOrder('regular', order_id)).rejects.toMatchObject({ error_type: 'OrderException' });
    await expect(kc.cancelOrder('regular', '999999')).rejects.toMatchObject({ error_type: 'InputException' });
    await expect(kc.getOrderHistory('999999')).rejects.toMatchObject({ error_type: 'InputException' });
  });

  it('an unsupported variety, a missing field and an off-tick price are InputExceptions naming the field', async () => {
    await expect(kc.placeOrder('co', order())).rejects.toMatchObject({ message: expect.stringMatching(/^variety/) });
    const missing = order();
    delete (missing as Partial<PlaceParams>).product;
    await expect(kc.placeOrder('regular', missing)).rejects.toMatchObject({
      error_type: 'InputException',
      message: expect.stringMatching(/^product/),
    });
    await expect(kc.placeOrder('regular', order({ price: 1450.03 }))).rejects.toMatchObject({
      error_type: 'InputException',
      message: expect.stringContaining('price'),
    });
    await expect(kc.placeOrder('regular', order({ tag: 'x'.repeat(21) }))).rejects.toMatchObject({
      message: expect.stringMatching(/^tag/),
    });
  });

  it('an amo order while the market is open, and a cancel under the wrong variety, are InputExceptions naming variety', async () => {
    const before = t.api.broker.orderCount();
    await expect(kc.placeOrder('amo', order())).rejects.toMatchObject({
      error_type: 'InputException',
      message: expect.stringMatching(/^variety: NSE is open/),
    });
    expect(t.api.broker.orderCount()).toBe(before);
    const { order_id } = await kc.placeOrder('regular', order());
    await expect(kc.cancelOrder('amo', order_id)).rejects.toMatchObject({ message: expect.stringMatching(/^variety/) });
    expect((await t.api.order(order_id)).status).toBe('OPEN');
  });

  it('orderBasketMargins answers /v1 basket margin: initial, final with the hedge, and each leg', async () => {
    const chain = (await t.api.call('GET', '/option-chain?underlying=NIFTY&strikes=1')).body;
    const leg = (tradingsymbol: string, transaction_type: 'BUY' | 'SELL', price: number) => ({
      exchange: 'NFO' as const,
      tradingsymbol,
      transaction_type,
      variety: 'regular' as const,
      product: 'NRML' as const,
      order_type: 'LIMIT' as const,
      quantity: chain.lot_size,
      price,
      trigger_price: 0,
    });
    const legs = [
      leg(chain.strikes[0].call.tradingsymbol, 'BUY', 100),
      leg(chain.strikes[2].call.tradingsymbol, 'SELL', 40),
    ];
    const m = await kc.orderBasketMargins(legs, true, 'compact');
    const v1 = await t.api.call('POST', '/margins/basket', {
      orders: legs.map(({ variety: _v, trigger_price: _t, ...o }) => ({ ...o, validity: 'DAY' })),
    });
    expect(m.initial.total).toBe(v1.body.margin.initial);
    expect(m.final.total).toBe(v1.body.margin.final);
    expect(m.final.total).toBeLessThan(m.initial.total);
    expect(m.orders.map((o) => o.total)).toEqual(v1.body.margin.orders.map((o: { total: number }) => o.total));
    // Zerodha's own reply (electron/broker/kite/fixtures) has these fields; the paper one has each of them.
    const fixture = JSON.parse(
      readFileSync(new URL('../../broker/kite/fixtures/basket_margins.json', import.meta.url), 'utf8'),
    ) as { data: { initial: object; orders: object[] } };
    expect(Object.keys(m).sort()).toEqual(expect.arrayContaining(['final', 'initial', 'orders']));
    for (const key of Object.keys(fixture.data.initial)) expect(m.initial).toHaveProperty(key);
    for (const key of Object.keys(fixture.data.orders[0] ?? {})) expect(m.orders[0]).toHaveProperty(key);
    await expect(kc.orderBasketMargins(legs, false)).rejects.toMatchObject({
      message: expect.stringMatching(/^consider_positions/),
    });
  });

  it('orderMargins answers the margin /v1 calculator answers', async () => {
    const [m] = await kc.orderMargins([
      {
        exchange: 'NSE',
        tradingsymbol: 'INFY',
        transaction_type: 'BUY',
        variety: 'regular',
        product: 'CNC',
        order_type: 'LIMIT',
        quantity: 2,
        price: 1500,
        trigger_price: 0,
      },
    ]);
    const v1 = await t.api.call('POST', '/margins/orders', {
      exchange: 'NSE',
      tradingsymbol: 'INFY',
      transaction_type: 'BUY',
      quantity: 2,
      order_type: 'LIMIT',
      product: 'CNC',
      validity: 'DAY',
      price: 1500,
    });
    expect(m?.total).toBe(v1.body.margin.total);
    expect(m?.total).toBeGreaterThan(0);
  });

  it('holdings read as an array of Kite holdings', async () => {
    await expect(kc.getHoldings()).resolves.toEqual(expect.any(Array));
  });
});

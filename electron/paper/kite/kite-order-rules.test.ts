import type { Connect } from 'kiteconnect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findInstrument } from '../test-helpers';
import { type KiteTest, placeParams, startKiteTest } from './test-kite';

/**
 * Kite's order rules of 2026 as the paper dialect models them (docs/kite.md §Market protection,
 * §Autoslice, §Smaller rules), driven by Zerodha's own `kiteconnect` client.
 */

type PlaceParams = Parameters<Connect['placeOrder']>[1];

let t: KiteTest;
let kc: Connect;
let infyToken: number;

/** Place params, with the fields the client's types do not list (market_protection, autoslice, algo_id). */
function order(o: Record<string, unknown> = {}): PlaceParams {
  return placeParams({ order_type: 'MARKET', price: undefined, ...o });
}

async function last(id: string): Promise<Record<string, unknown>> {
  return (await kc.getOrderHistory(id)).at(-1) as unknown as Record<string, unknown>;
}

beforeAll(async () => {
  t = await startKiteTest({ startingCash: 1e9 });
  kc = await t.login();
  infyToken = (await t.api.instrument('NSE', 'INFY')).instrument_token;
});
afterAll(() => t.close());

describe('market_protection (docs/kite.md §Market protection)', () => {
  it('a protected MARKET order is a LIMIT at that distance from the last price, rests when the book runs out inside it, and says so in its tags', async () => {
    t.api.broker.setPrice(infyToken, 1500);
    const { order_id } = await kc.placeOrder('regular', order({ quantity: 50_000, market_protection: 0.5 }));
    const o = await last(order_id);
    // 1500 × 1.005 = 1507.50: the order takes what is offered up to there and waits for the rest.
    expect(o).toMatchObject({ order_type: 'LIMIT', price: 1507.5, status: 'OPEN', market_protection: 0.5 });
    expect(o.filled_quantity).toBeGreaterThan(0);
    expect(o.filled_quantity).toBeLessThan(50_000);
    expect(o.tags).toEqual(['mktp', 'mktp:0.50']);
    await kc.cancelOrder('regular', order_id);
  });

  it('-1 is automatic: 2% on a stock (a SELL 2% under the last price, rounded up to the tick)', async () => {
    t.api.broker.setPrice(infyToken, 1500.3);
    const buy = await kc.placeOrder('regular', order({ quantity: 1, market_protection: -1 }));
    expect(await last(buy.order_id)).toMatchObject({
      order_type: 'LIMIT',
      price: 1530.3,
      status: 'COMPLETE',
      tags: ['mktp', 'mktp:2.00'],
    });
    const sell = await kc.placeOrder('regular', order({ transaction_type: 'SELL', market_protection: -1 }));
    // 1500.30 × 0.98 = 1470.294 → 1470.30 on the ₹0.05 tick.
    expect(await last(sell.order_id)).toMatchObject({ order_type: 'LIMIT', price: 1470.3, market_protection: -1 });
  });

  it('the protected price never leaves the day’s circuit band', async () => {
    t.api.broker.setPrice(infyToken, 1500);
    const band = await kc.getQuote(['NSE:INFY']);
    const lower = band['NSE:INFY']?.lower_circuit_limit ?? 0;
    const { order_id } = await kc.placeOrder('regular', order({ transaction_type: 'SELL', market_protection: 100 }));
    expect(await last(order_id)).toMatchObject({ order_type: 'LIMIT', price: lower });
  });

  it('a protected SL-M is an SL whose limit is that distance past the trigger; moving the trigger moves the limit', async () => {
    t.api.broker.setPrice(infyToken, 1500);
    const { order_id } = await kc.placeOrder(
      'regular',
      order({ order_type: 'SL-M', trigger_price: 1600, market_protection: 1 }),
    );
    expect(await last(order_id)).toMatchObject({
      order_type: 'SL',
      trigger_price: 1600,
      price: 1616,
      status: 'TRIGGER PENDING',
    });
    await kc.modifyOrder('regular', order_id, { trigger_price: 1650 });
    expect(await last(order_id)).toMatchObject({ order_type: 'SL', trigger_price: 1650, price: 1666.5 });
    await kc.cancelOrder('regular', order_id);
  });

  it('a modification to MARKET (or SL-M) needs market_protection too, and is priced like a placement', async () => {
    t.api.broker.setPrice(infyToken, 1500);
    const { order_id } = await kc.placeOrder('regular', order({ order_type: 'LIMIT', price: 1400 }));
    const unprotected = {
      error_type: 'InputException',
      message: expect.stringMatching(/^Market orders without market protection are not allowed via API/),
    };
    await expect(kc.modifyOrder('regular', order_id, { order_type: 'MARKET' })).rejects.toMatchObject(unprotected);
    await expect(
      kc.modifyOrder('regular', order_id, { order_type: 'MARKET', market_protection: 0 } as never),
    ).rejects.toMatchObject(unprotected);
    await expect(
      kc.modifyOrder('regular', order_id, { order_type: 'SL-M', trigger_price: 1300 }),
    ).rejects.toMatchObject(unprotected);
    // Refused: the order is as it was, resting, not filled.
    expect(await last(order_id)).toMatchObject({
      order_type: 'LIMIT',
      price: 1400,
      status: 'OPEN',
      filled_quantity: 0,
    });
    await kc.modifyOrder('regular', order_id, { order_type: 'MARKET', market_protection: 2 } as never);
    expect(await last(order_id)).toMatchObject({
      order_type: 'LIMIT',
      price: 1530,
      status: 'COMPLETE',
      market_protection: 2,
    });
  });

  it('out of range or not a number: refused, and nothing is created', async () => {
    const before = t.api.broker.orderCount();
    await expect(kc.placeOrder('regular', order({ market_protection: 150 }))).rejects.toMatchObject({
      error_type: 'InputException',
      message: expect.stringMatching(/^market_protection: must be -1/),
    });
    await expect(kc.placeOrder('regular', order({ market_protection: 'True' }))).rejects.toMatchObject({
      error_type: 'InputException',
      message: 'Invalid request (failed to decode market_protection, got: True (expected decimal))',
    });
    expect(t.api.broker.orderCount()).toBe(before);
  });
});

describe('limit price protection: the exchange’s cancellation (docs/api.md §Matching)', () => {
  it('a triggered stop-limit on an option whose limit is over 40% above the last price is CANCELLED with the exchange’s words', async () => {
    const opt = await findInstrument(
      t.api,
      (i) => i.exchange === 'NFO' && i.instrument_type === 'CE' && Number(i.last_price) > 100,
    );
    t.api.broker.setPrice(opt.instrument_token, 100);
    const { order_id } = await kc.placeOrder(
      'regular',
      order({
        exchange: 'NFO',
        tradingsymbol: opt.tradingsymbol,
        quantity: opt.lot_size,
        product: 'NRML',
        order_type: 'SL',
        trigger_price: 110,
        price: 160,
      }),
    );
    expect((await last(order_id)).status).toBe('TRIGGER PENDING');
    t.api.broker.setPrice(opt.instrument_token, 111);
    expect(await last(order_id)).toMatchObject({
      status: 'CANCELLED',
      filled_quantity: 0,
      status_message:
        'The order was cancelled by the exchange because the price is outside the current allowed limit price protection range.',
    });
  });
});

describe('autoslice (docs/kite.md §Autoslice)', () => {
  it('an order above the freeze quantity is placed as slices under one tag: a parent id and one child per slice', async () => {
    const fut = await findInstrument(t.api, (i) => i.exchange === 'NFO' && i.instrument_type === 'FUT');
    const perSlice = Math.floor(fut.freeze_quantity / fut.lot_size) * fut.lot_size;
    const quantity = perSlice * 2 + fut.lot_size;
    const before = t.api.broker.orderCount();
    const reply = (await kc.placeOrder(
      'regular',
      order({
        exchange: 'NFO',
        tradingsymbol: fut.tradingsymbol,
        quantity,
        product: 'NRML',
        order_type: 'LIMIT',
        price: fut.last_price,
        autoslice: true,
        tag: 'slice1',
      }),
    )) as unknown as { order_id: string; children: Array<{ order_id?: string }> };
    expect(reply.order_id).toMatch(/^\d+$/);
    expect(reply.children).toHaveLength(3);
    expect(t.api.broker.orderCount()).toBe(before + 3);
    const orders = await kc.getOrders();
    const mine = orders.filter((o) => o.tag === 'slice1');
    expect(mine.map((o) => o.quantity).sort((a, b) => a - b)).toEqual([fut.lot_size, perSlice, perSlice]);
    expect(reply.children.map((c) => c.order_id).sort()).toEqual(mine.map((o) => o.order_id).sort());
  });

  it('at or below the freeze quantity it is refused, naming the smallest quantity it slices; over 10 slices too', async () => {
    const fut = await findInstrument(t.api, (i) => i.exchange === 'NFO' && i.instrument_type === 'FUT');
    const perSlice = Math.floor(fut.freeze_quantity / fut.lot_size) * fut.lot_size;
    const base = {
      exchange: 'NFO',
      tradingsymbol: fut.tradingsymbol,
      product: 'NRML',
      order_type: 'LIMIT',
      price: fut.last_price,
      autoslice: true,
    };
    await expect(kc.placeOrder('regular', order({ ...base, quantity: perSlice }))).rejects.toMatchObject({
      error_type: 'InputException',
      message: `Quantity should be greater than or equal to ${perSlice + fut.lot_size} for order slicing.`,
    });
    await expect(
      kc.placeOrder('regular', order({ ...base, quantity: perSlice * 10 + fut.lot_size })),
    ).rejects.toMatchObject({
      error_type: 'InputException',
      message: expect.stringMatching(/^quantity: .* 11 slices .* at most 10$/),
    });
  });

  it('a slice the margin cannot carry is a MarginException child, and only the slices that fit are placed', async () => {
    const poor = await startKiteTest({ startingCash: 1_000_000 });
    try {
      const pc = await poor.login();
      const fut = await findInstrument(
        poor.api,
        (i) => i.exchange === 'NFO' && i.instrument_type === 'FUT' && Number(i.last_price) > 500,
      );
      const perSlice = Math.floor(fut.freeze_quantity / fut.lot_size) * fut.lot_size;
      const reply = (await pc.placeOrder(
        'regular',
        order({
          exchange: 'NFO',
          tradingsymbol: fut.tradingsymbol,
          quantity: perSlice * 10,
          product: 'NRML',
          order_type: 'LIMIT',
          price: fut.last_price,
          autoslice: true,
        }),
      )) as unknown as {
        children: Array<{ order_id?: string; error?: { error_type: string; message: string; code: number } }>;
      };
      const refused = reply.children.filter((c) => c.error);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0]?.error).toMatchObject({
        code: 400,
        error_type: 'MarginException',
        message: expect.stringMatching(
          /^Insufficient funds\. Required margin is [\d.]+ but available margin is [\d.]+\.$/,
        ),
      });
      expect(poor.api.broker.orderCount()).toBe(reply.children.length - refused.length);
    } finally {
      await poor.close();
    }
  });
});

describe('smaller rules (docs/kite.md §Smaller rules)', () => {
  it('MCX takes no IOC from the API (refused naming validity); DAY on MCX and IOC on NSE are fine', async () => {
    const gold = await findInstrument(t.api, (i) => i.exchange === 'MCX' && i.instrument_type === 'FUT');
    const mcx = {
      exchange: 'MCX',
      tradingsymbol: gold.tradingsymbol,
      quantity: gold.lot_size,
      product: 'NRML',
      order_type: 'LIMIT',
      price: gold.last_price,
    };
    const before = t.api.broker.orderCount();
    await expect(kc.placeOrder('regular', order({ ...mcx, validity: 'IOC' }))).rejects.toMatchObject({
      error_type: 'InputException',
      message: expect.stringMatching(/^validity: IOC orders are not allowed on MCX/),
    });
    expect(t.api.broker.orderCount()).toBe(before);
    const day = await kc.placeOrder('regular', order(mcx));
    await expect(kc.modifyOrder('regular', day.order_id, { validity: 'IOC' })).rejects.toMatchObject({
      message: expect.stringMatching(/^validity: IOC orders are not allowed on MCX/),
    });
    await expect(
      kc.placeOrder('regular', order({ order_type: 'LIMIT', price: 1400, validity: 'IOC' })),
    ).resolves.toHaveProperty('order_id');
  });

  it('a quantity that is not an integer is refused in the words of Kite’s decoder', async () => {
    const before = t.api.broker.orderCount();
    await expect(kc.placeOrder('regular', order({ quantity: '65.0', market_protection: -1 }))).rejects.toMatchObject({
      error_type: 'InputException',
      message: 'Invalid request (failed to decode quantity, got: 65.0 (expected int))',
    });
    expect(t.api.broker.orderCount()).toBe(before);
  });

  it('algo_id is taken and changes nothing', async () => {
    await expect(
      kc.placeOrder('regular', order({ order_type: 'LIMIT', price: 1400, algo_id: 'ALGO-123' })),
    ).resolves.toHaveProperty('order_id');
  });
});

describe('a stop whose trigger is already crossed (docs/kite.md §Smaller rules)', () => {
  const refusal = async (p: Promise<unknown>): Promise<{ status?: number; error_type?: string; message?: string }> =>
    p.then(
      () => ({}),
      (e: unknown) => e as { status?: number; error_type?: string; message?: string },
    );

  it('placing a SELL stop at or above the last price, or a BUY stop at or below it, is refused in Kite’s words, and nothing is created', async () => {
    t.api.broker.setPrice(infyToken, 1400);
    const before = (await kc.getOrders()).length;
    const sell = await refusal(
      kc.placeOrder(
        'regular',
        order({ transaction_type: 'SELL', order_type: 'SL-M', trigger_price: 1405, market_protection: -1 }),
      ),
    );
    expect(sell).toMatchObject({
      status: 'error',
      error_type: 'InputException',
      message: 'Trigger price for stoploss sell orders should be lower than the last traded price.',
    });
    const buy = await refusal(kc.placeOrder('regular', order({ order_type: 'SL', price: 1396, trigger_price: 1395 })));
    expect(buy).toMatchObject({
      error_type: 'InputException',
      message: 'Trigger price for stoploss buy orders should be higher than the last traded price.',
    });
    expect((await kc.getOrders()).length).toBe(before);
  });

  it('moving a working SELL stop’s trigger past the last price is refused, and the order keeps its trigger', async () => {
    t.api.broker.setPrice(infyToken, 1400);
    const { order_id } = await kc.placeOrder(
      'regular',
      order({ transaction_type: 'SELL', order_type: 'SL', price: 1379, trigger_price: 1380 }),
    );
    const moved = await refusal(kc.modifyOrder('regular', order_id, { trigger_price: 1405, price: 1404 }));
    expect(moved).toMatchObject({
      error_type: 'InputException',
      message: 'Trigger price for stoploss sell orders should be lower than the last traded price.',
    });
    expect(await last(order_id)).toMatchObject({ status: 'TRIGGER PENDING', trigger_price: 1380 });
    // Below the last price it moves.
    await kc.modifyOrder('regular', order_id, { trigger_price: 1390, price: 1389 });
    expect(await last(order_id)).toMatchObject({ status: 'TRIGGER PENDING', trigger_price: 1390 });
    await kc.cancelOrder('regular', order_id);
  });
});

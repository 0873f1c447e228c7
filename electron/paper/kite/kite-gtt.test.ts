import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Connect, GTTParams } from 'kiteconnect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KiteTest, startKiteTest } from './test-kite';

/** GTTs on /kite through Zerodha's own client (docs/kite.md §GTT). */

let t: KiteTest;
let kc: Connect;
let token: number;

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(__dirname, 'fixtures', name), 'utf8')) as unknown;

const oco = (stop: number, target: number): GTTParams =>
  ({
    trigger_type: 'two-leg',
    exchange: 'NSE',
    tradingsymbol: 'INFY',
    trigger_values: [stop, target],
    last_price: 1500,
    orders: [
      { transaction_type: 'SELL', quantity: 1, product: 'MIS', order_type: 'LIMIT', price: stop },
      { transaction_type: 'SELL', quantity: 1, product: 'MIS', order_type: 'LIMIT', price: target },
    ],
  }) as GTTParams;

beforeAll(async () => {
  t = await startKiteTest();
  kc = await t.login();
  token = (await t.api.instrument('NSE', 'INFY')).instrument_token;
});
afterAll(() => t.close());

describe('/kite GTT triggers (docs/kite.md §GTT)', () => {
  it("placeGTT answers Kite's trigger_id, and getGTTs lists it with every field of Kite's fixture", async () => {
    t.api.broker.setPrice(token, 1500);
    const placed = await kc.placeGTT(oco(1480, 1520));
    const keysOf = (o: unknown): string[] => Object.keys(o as object).sort();
    expect(keysOf(placed)).toEqual(keysOf((fixture('gtt_place_order.json') as { data: object }).data));
    const listed = await kc.getGTTs();
    const mine = listed.find((g) => g.id === placed.trigger_id);
    const sample = (fixture('gtt_get_orders.json') as { data: Array<Record<string, unknown>> }).data[0] ?? {};
    expect(keysOf(mine)).toEqual(keysOf(sample));
    expect(keysOf(mine?.condition)).toEqual(keysOf(sample.condition));
    expect(mine).toMatchObject({
      type: 'two-leg',
      status: 'active',
      condition: { exchange: 'NSE', tradingsymbol: 'INFY', trigger_values: [1480, 1520], last_price: 1500 },
    });
    // The same trigger on /v1.
    const v1 = await t.api.call('GET', `/gtt/${placed.trigger_id}`);
    expect(v1.body.gtt).toMatchObject({ type: 'oco', status: 'active' });
  });

  it("a triggered leg carries Kite's result with the order id, which getOrders lists", async () => {
    t.api.broker.setPrice(token, 1500);
    const { trigger_id } = await kc.placeGTT(oco(1480, 1520));
    t.api.broker.setPrice(token, 1479.5);
    const g = await kc.getGTT(trigger_id);
    expect(g.status).toBe('triggered');
    const result = (g.orders[0] as { result: { order_result: { status: string; order_id: string } } }).result;
    expect(result.order_result.status).toBe('success');
    expect((g.orders[1] as { result: unknown }).result).toBeNull();
    const orders = await kc.getOrders();
    expect(orders.find((o) => o.order_id === result.order_result.order_id)).toMatchObject({
      transaction_type: 'SELL',
      price: 1480,
    });
  });

  it('modifyGTT moves the triggers and deleteGTT deletes it: a deleted trigger lists as deleted', async () => {
    t.api.broker.setPrice(token, 1500);
    const { trigger_id } = await kc.placeGTT(oco(1480, 1520));
    const modified = await kc.modifyGTT(trigger_id, oco(1470, 1530));
    expect(modified).toEqual({ trigger_id });
    expect((await kc.getGTT(trigger_id)).condition.trigger_values).toEqual([1470, 1530]);
    expect(await kc.deleteGTT(trigger_id)).toEqual({ trigger_id });
    expect((await kc.getGTT(trigger_id)).status).toBe('deleted');
  });

  it('an OCO stop-loss above the price is an InputException naming condition.trigger_values.0', async () => {
    t.api.broker.setPrice(token, 1500);
    const count = t.api.broker.gttCount();
    await expect(kc.placeGTT(oco(1510, 1520))).rejects.toMatchObject({
      error_type: 'InputException',
      message: expect.stringMatching(/^condition\.trigger_values\.0: The stop-loss trigger/),
    });
    expect(t.api.broker.gttCount()).toBe(count);
  });

  it('a trigger 100× the last price is accepted and stays active: Kite sets only a least distance from it, no greatest', async () => {
    t.api.broker.setPrice(token, 1500);
    const single = {
      trigger_type: 'single',
      exchange: 'NSE',
      tradingsymbol: 'INFY',
      trigger_values: [150000],
      last_price: 1500,
      orders: [{ transaction_type: 'SELL', quantity: 1, product: 'CNC', order_type: 'LIMIT', price: 150000 }],
    } as GTTParams;
    const { trigger_id } = await kc.placeGTT(single);
    t.api.broker.setPrice(token, 1510);
    expect(await kc.getGTT(trigger_id)).toMatchObject({
      type: 'single',
      status: 'active',
      condition: { trigger_values: [150000] },
    });
  });

  it('a trigger or a leg price of 1e308 is refused naming the field in one short sentence; nothing is created', async () => {
    t.api.broker.setPrice(token, 1500);
    const count = t.api.broker.gttCount();
    const err = await kc.placeGTT(oco(1480, 1e308)).then(
      () => null,
      (e: unknown) => e as { error_type: string; message: string },
    );
    expect(err).toMatchObject({
      error_type: 'InputException',
      message:
        'condition.trigger_values.1: Trigger value must be at most ₹1,00,00,00,000; orders.1.price: Price must be at most ₹1,00,00,00,000',
    });
    expect(t.api.broker.gttCount()).toBe(count);
  });
});

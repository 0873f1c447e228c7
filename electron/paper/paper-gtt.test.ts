import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WireGttAck, WireGttList, WireGttOne } from '../wire/rest-schemas';
import { type Api, startTestBroker } from './test-helpers';

/** On-grid price arithmetic for tests (₹0.05 steps). */
const px = (rupees: number): number => Math.round(rupees * 20) / 20;

let api: Api;
let infy: Awaited<ReturnType<Api['instrument']>>;
beforeAll(async () => {
  api = await startTestBroker();
  infy = await api.instrument('NSE', 'INFY');
});
afterAll(() => api.close());

/** A leg selling one INFY MIS at `price`. */
const leg = (price: number, side = 'SELL') => ({
  transaction_type: side,
  quantity: 1,
  product: 'MIS',
  order_type: 'LIMIT',
  price,
});

/** POST /gtt on INFY. */
const create = (body: Record<string, unknown>) =>
  api.call('POST', '/gtt', { exchange: 'NSE', tradingsymbol: 'INFY', ...body });

const gtt = async (id: string) => WireGttOne.parse((await api.call('GET', `/gtt/${id}`)).body).gtt;

describe('GTT triggering on the paper market', () => {
  it('a single trigger above the price stays active below it and places its order once the price rises to it', async () => {
    const base = px(infy.last_price);
    api.broker.setPrice(infy.instrument_token, base);
    const r = await create({ type: 'single', trigger_values: [px(base + 10)], orders: [leg(px(base + 9))] });
    expect(r.status).toBe(201);
    const ack = WireGttAck.parse(r.body);
    expect(r.headers.get('location')).toBe(`/v1/gtt/${ack.gtt_id}`);
    api.broker.setPrice(infy.instrument_token, px(base + 9.95));
    expect((await gtt(ack.gtt_id)).status).toBe('active');
    api.broker.setPrice(infy.instrument_token, px(base + 10));
    const g = await gtt(ack.gtt_id);
    expect(g.status).toBe('triggered');
    const orderId = g.orders[0]?.order_id;
    expect(orderId).toMatch(/^\d+$/);
    const o = await api.order(String(orderId));
    expect(o).toMatchObject({ transaction_type: 'SELL', order_type: 'LIMIT', price: px(base + 9), quantity: 1 });
    // It fired once: a later cross places nothing more.
    const before = api.broker.orderCount();
    api.broker.setPrice(infy.instrument_token, px(base + 12));
    expect(api.broker.orderCount()).toBe(before);
  });

  it('a single trigger below the price places its order once the price falls to it', async () => {
    const base = px(infy.last_price);
    api.broker.setPrice(infy.instrument_token, base);
    const r = await create({ type: 'single', trigger_values: [px(base - 10)], orders: [leg(px(base - 10), 'BUY')] });
    api.broker.setPrice(infy.instrument_token, px(base - 5));
    expect((await gtt(r.body.gtt_id)).status).toBe('active');
    api.broker.setPrice(infy.instrument_token, px(base - 10.5));
    const g = await gtt(r.body.gtt_id);
    expect(g.status).toBe('triggered');
    expect((await api.order(String(g.orders[0]?.order_id))).transaction_type).toBe('BUY');
  });

  it('an OCO whose stop-loss is reached places the stop-loss order and leaves the target unplaced', async () => {
    const base = px(infy.last_price);
    api.broker.setPrice(infy.instrument_token, base);
    const r = await create({
      type: 'oco',
      trigger_values: [px(base - 20), px(base + 20)],
      orders: [leg(px(base - 21)), leg(px(base + 20))],
    });
    api.broker.setPrice(infy.instrument_token, px(base - 20));
    const g = await gtt(r.body.gtt_id);
    expect(g.status).toBe('triggered');
    expect(g.orders[0]?.order_id).toMatch(/^\d+$/);
    expect(g.orders[1]?.order_id).toBeNull();
    expect(g.status_message).toContain('the target is done');
    const before = api.broker.orderCount();
    api.broker.setPrice(infy.instrument_token, px(base + 25));
    expect(api.broker.orderCount()).toBe(before);
  });

  it('an OCO whose target is reached places the target order and leaves the stop-loss unplaced', async () => {
    const base = px(infy.last_price);
    api.broker.setPrice(infy.instrument_token, base);
    const r = await create({
      type: 'oco',
      trigger_values: [px(base - 20), px(base + 20)],
      orders: [leg(px(base - 21)), leg(px(base + 19))],
    });
    api.broker.setPrice(infy.instrument_token, px(base + 20.5));
    const g = await gtt(r.body.gtt_id);
    expect(g.status).toBe('triggered');
    expect(g.orders[0]?.order_id).toBeNull();
    const o = await api.order(String(g.orders[1]?.order_id));
    expect(o).toMatchObject({ price: px(base + 19), status: 'COMPLETE' });
  });

  it('a deleted GTT does not fire, and deleting it again answers the same', async () => {
    const base = px(infy.last_price);
    api.broker.setPrice(infy.instrument_token, base);
    const r = await create({ type: 'single', trigger_values: [px(base + 5)], orders: [leg(px(base + 5))] });
    const d = await api.call('DELETE', `/gtt/${r.body.gtt_id}`);
    expect(d.body).toEqual({ gtt_id: r.body.gtt_id, status: 'cancelled' });
    expect((await api.call('DELETE', `/gtt/${r.body.gtt_id}`)).body.status).toBe('cancelled');
    const before = api.broker.orderCount();
    api.broker.setPrice(infy.instrument_token, px(base + 6));
    expect(api.broker.orderCount()).toBe(before);
    const m = await api.call('PATCH', `/gtt/${r.body.gtt_id}`, {
      trigger_values: [px(base + 9)],
      orders: [leg(px(base + 9))],
    });
    expect(m.status).toBe(409);
    expect(m.body.code).toBe('gtt_not_modifiable');
  });

  it('a modified trigger fires at its new value, not the old one', async () => {
    const base = px(infy.last_price);
    api.broker.setPrice(infy.instrument_token, base);
    const r = await create({ type: 'single', trigger_values: [px(base + 5)], orders: [leg(px(base + 5))] });
    const m = await api.call('PUT', `/gtt/${r.body.gtt_id}`, {
      trigger_values: [px(base + 15)],
      orders: [leg(px(base + 15))],
    });
    expect(m.status).toBe(200);
    api.broker.setPrice(infy.instrument_token, px(base + 6));
    expect((await gtt(r.body.gtt_id)).status).toBe('active');
    api.broker.setPrice(infy.instrument_token, px(base + 15));
    expect((await gtt(r.body.gtt_id)).status).toBe('triggered');
  });
});

describe('GTT creation rules', () => {
  it('refuses an OCO whose triggers sit on the wrong sides of the last price, naming each trigger', async () => {
    const base = px(infy.last_price);
    api.broker.setPrice(infy.instrument_token, base);
    const r = await create({
      type: 'oco',
      trigger_values: [px(base + 5), px(base - 5)],
      orders: [leg(px(base + 5)), leg(px(base - 5))],
    });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { field: string }) => e.field)).toEqual(['trigger_values.0', 'trigger_values.1']);
    expect(r.body.errors[0].message).toContain('must be below the last price');
  });

  it('refuses an off-tick trigger and a leg with a bad quantity, naming both fields; nothing is created', async () => {
    const count = api.broker.gttCount();
    const r = await create({
      type: 'single',
      trigger_values: [px(infy.last_price + 10) + 0.02],
      orders: [{ ...leg(px(infy.last_price + 10)), quantity: 1.5 }],
    });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { field: string }) => e.field)).toEqual(['orders.0.quantity']);
    const t = await create({ type: 'single', trigger_values: [px(infy.last_price + 10) + 0.02], orders: [leg(100)] });
    expect(t.body.errors[0]).toMatchObject({ field: 'trigger_values.0' });
    expect(t.body.errors[0].message).toMatch(/off the ₹0\.05 tick/);
    const n = await create({ type: 'oco', trigger_values: [px(infy.last_price - 10)], orders: [leg(100)] });
    expect(n.body.errors.map((e: { field: string }) => e.field)).toEqual(['trigger_values', 'orders']);
    expect(api.broker.gttCount()).toBe(count);
  });

  it('a reused client_gtt_id is a 409 naming the GTT it created, and nothing more is created', async () => {
    const body = {
      type: 'single',
      trigger_values: [px(infy.last_price + 50)],
      orders: [leg(px(infy.last_price + 50))],
      client_gtt_id: 'gtt-once-1',
    };
    const first = await create(body);
    expect(first.status).toBe(201);
    const count = api.broker.gttCount();
    const again = await create(body);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'duplicate_client_gtt_id', gtt_id: first.body.gtt_id });
    expect(api.broker.gttCount()).toBe(count);
    const found = WireGttList.parse((await api.call('GET', '/gtt?client_gtt_id=gtt-once-1')).body).gtts;
    expect(found.map((g) => g.gtt_id)).toEqual([first.body.gtt_id]);
  });

  it('a read-scope token may list GTTs but not create one', async () => {
    const s = await api.call(
      'POST',
      '/session',
      { api_key: 'paper', api_secret: 'paper', scope: 'read' },
      { token: null },
    );
    const token = s.body.access_token as string;
    expect((await api.call('GET', '/gtt', undefined, { token })).status).toBe(200);
    const r = await api.call(
      'POST',
      '/gtt',
      { exchange: 'NSE', tradingsymbol: 'INFY', type: 'single', trigger_values: [1], orders: [leg(1)] },
      { token },
    );
    expect(r.status).toBe(403);
  });
});

describe('GTTs across a restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'paper-gtt-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('an active OCO survives a restart and still fires afterwards; the list is the same', async () => {
    const first = await startTestBroker({ dataDir: dir });
    const i = await first.instrument('NSE', 'INFY');
    const base = px(i.last_price);
    first.broker.setPrice(i.instrument_token, base);
    const r = await first.call('POST', '/gtt', {
      exchange: 'NSE',
      tradingsymbol: 'INFY',
      type: 'oco',
      trigger_values: [px(base - 20), px(base + 20)],
      orders: [leg(px(base - 20)), leg(px(base + 20))],
      client_gtt_id: 'restart-1',
    });
    expect(r.status).toBe(201);
    const listBefore = (await first.call('GET', '/gtt')).body.gtts;
    await first.close();

    const second = await startTestBroker({ dataDir: dir });
    try {
      expect((await second.call('GET', '/gtt')).body.gtts).toEqual(listBefore);
      const dup = await second.call('POST', '/gtt', {
        exchange: 'NSE',
        tradingsymbol: 'INFY',
        type: 'single',
        trigger_values: [px(base + 30)],
        orders: [leg(px(base + 30))],
        client_gtt_id: 'restart-1',
      });
      expect(dup.status).toBe(409);
      second.broker.setPrice(i.instrument_token, px(base + 20));
      const g = WireGttOne.parse((await second.call('GET', `/gtt/${r.body.gtt_id}`)).body).gtt;
      expect(g.status).toBe('triggered');
      expect(g.orders[1]?.order_id).toMatch(/^\d+$/);
    } finally {
      await second.close();
    }
  });
});

describe('a fired leg the broker rejects', () => {
  it('a GTT whose order the margin cannot carry is rejected, with the rejected order id and the reason', async () => {
    const base = px(infy.last_price);
    api.broker.setPrice(infy.instrument_token, base);
    const r = await create({
      type: 'single',
      trigger_values: [px(base - 10)],
      orders: [{ ...leg(px(base - 10), 'BUY'), quantity: 90_000, product: 'CNC' }],
    });
    expect(r.status).toBe(201);
    api.broker.setPrice(infy.instrument_token, px(base - 10));
    const g = await gtt(r.body.gtt_id);
    expect(g.status).toBe('rejected');
    expect(g.orders[0]?.order_status).toBe('REJECTED');
    expect((await api.order(String(g.orders[0]?.order_id))).status).toBe('REJECTED');
    expect(g.status_message).toMatch(/was rejected/);
  });
});

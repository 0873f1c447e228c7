import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WireOrder, WireOrderAck, WireOrderHistory, WireOrderList, WireOrderOne } from '../wire/rest-schemas';
import { type Api, startTestBroker } from './test-helpers';

let api: Api;
beforeAll(async () => {
  api = await startTestBroker();
});
afterAll(() => api.close());

describe('placing and matching orders', () => {
  it('fills a MARKET buy at the best ask and answers 201 with Location', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const { ask } = await api.quote(infy.instrument_token);
    expect(ask).toBeGreaterThan(infy.last_price);
    const r = await api.place({ client_order_id: 'mkt-1' });
    expect(r.status).toBe(201);
    const ack = WireOrderAck.parse(r.body);
    expect(r.headers.get('location')).toBe(`/v1/orders/${ack.order_id}`);
    expect(ack).toMatchObject({ client_order_id: 'mkt-1', status: 'COMPLETE' });
    const o = WireOrderOne.parse((await api.call('GET', `/orders/${ack.order_id}`)).body).order;
    expect(o).toMatchObject({
      filled_quantity: 1,
      pending_quantity: 0,
      cancelled_quantity: 0,
      average_price: ask,
    });
    expect(o.placed_at).toMatch(/\+05:30$/);
  });

  it('rests a LIMIT order until the price trades through it, then fills it whole at its limit', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const limit = Math.round((infy.last_price - 10) * 20) / 20;
    const r = await api.place({ order_type: 'LIMIT', price: limit });
    expect(r.body.status).toBe('OPEN');
    api.broker.setPrice(infy.instrument_token, limit + 5);
    expect((await api.order(r.body.order_id)).status).toBe('OPEN');
    api.broker.setPrice(infy.instrument_token, limit - 1);
    const o = WireOrder.parse(await api.order(r.body.order_id));
    expect(o.status).toBe('COMPLETE');
    expect(o.average_price).toBe(limit);
    const h = WireOrderHistory.parse((await api.call('GET', `/orders/${o.order_id}/history`)).body).history;
    expect(h.map((e) => e.status)).toEqual(['OPEN', 'COMPLETE']);
  });

  it('lists orders and filters by client_order_id and status', async () => {
    const all = WireOrderList.parse((await api.call('GET', '/orders')).body).orders;
    expect(all.length).toBeGreaterThanOrEqual(2);
    const one = (await api.call('GET', '/orders?client_order_id=mkt-1')).body.orders;
    expect(one).toHaveLength(1);
    const done = (await api.call('GET', '/orders?status=COMPLETE')).body.orders;
    expect(done.every((o: { status: string }) => o.status === 'COMPLETE')).toBe(true);
  });
});

/** On-grid price arithmetic for tests (integer steps of the tick under the hood). */
const px = (rupees: number, tick = 0.05): number =>
  (Math.round(Math.round(rupees * 100) / Math.round(tick * 100)) * Math.round(tick * 100)) / 100;

describe('stop orders', () => {
  it('holds an SL BUY in TRIGGER PENDING until the price reaches the trigger, then takes the book up to its limit', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const L = infy.last_price;
    const r = await api.place({ order_type: 'SL', trigger_price: px(L + 5), price: px(L + 6) });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('TRIGGER PENDING');
    api.broker.setPrice(infy.instrument_token, px(L + 4));
    expect((await api.order(r.body.order_id)).status).toBe('TRIGGER PENDING');
    api.broker.setPrice(infy.instrument_token, px(L + 5));
    const o = await api.order(r.body.order_id);
    // Triggered at L + 5, it is a buy limit at L + 6: it takes the best ask, one tick above.
    expect(o).toMatchObject({ status: 'COMPLETE', average_price: px(L + 5.05) });
    const h = (await api.call('GET', `/orders/${o.order_id}/history`)).body.history;
    expect(h.map((e: { status: string }) => e.status)).toEqual(['TRIGGER PENDING', 'OPEN', 'COMPLETE']);
  });

  it('fires an SL-M SELL as a market order at the best bid when the price falls to the trigger', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const L = infy.last_price;
    const r = await api.place({ transaction_type: 'SELL', order_type: 'SL-M', trigger_price: px(L - 5) });
    expect(r.body.status).toBe('TRIGGER PENDING');
    api.broker.setPrice(infy.instrument_token, px(L - 7));
    expect(await api.order(r.body.order_id)).toMatchObject({ status: 'COMPLETE', average_price: px(L - 7.05) });
  });
});

describe('partial fills and IOC', () => {
  it('fills a MARKET order larger than the whole book: all the book offers now, the rest at the next price event', async () => {
    // BSE listings have thin books (docs/api.md §The order book): 10 levels hold about ₹32 lakh.
    const rel = await api.instrument('BSE', 'ITC');
    const { sell_quantity: offered } = await api.quote(rel.instrument_token);
    const quantity = offered + Math.ceil(offered / 5);
    const r = await api.place({ exchange: 'BSE', tradingsymbol: 'ITC', quantity });
    expect(r.body.status).toBe('OPEN');
    let o = await api.order(r.body.order_id);
    expect(o.filled_quantity).toBe(offered);
    expect(o.filled_quantity + o.pending_quantity + o.cancelled_quantity).toBe(o.quantity);
    for (let n = 0; n < 10 && o.status === 'OPEN'; n++) {
      api.broker.setPrice(rel.instrument_token, rel.last_price);
      o = await api.order(r.body.order_id);
    }
    expect(o).toMatchObject({ status: 'COMPLETE', filled_quantity: quantity, pending_quantity: 0 });
    const fills = (await api.call('GET', '/trades')).body.trades.filter(
      (t: { order_id: string }) => t.order_id === o.order_id,
    );
    // One trade per level taken: ten on the first walk, more on the next.
    expect(fills.length).toBeGreaterThan(10);
    expect(fills.reduce((s: number, t: { quantity: number }) => s + t.quantity, 0)).toBe(quantity);
  });

  it('IOC takes what the book offers and cancels the rest', async () => {
    const tcs = await api.instrument('BSE', 'TCS');
    const { sell_quantity: offered } = await api.quote(tcs.instrument_token);
    const r = await api.place({ exchange: 'BSE', tradingsymbol: 'TCS', quantity: offered + 7, validity: 'IOC' });
    expect(r.body.status).toBe('CANCELLED');
    const o = await api.order(r.body.order_id);
    expect(o.filled_quantity).toBe(offered);
    expect(o.cancelled_quantity).toBe(7);
    expect(o.status_message).toMatch(/IOC/);
  });

  it('IOC LIMIT away from the market is cancelled whole', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const r = await api.place({ order_type: 'LIMIT', price: px(infy.last_price - 20), validity: 'IOC' });
    expect(await api.order(r.body.order_id)).toMatchObject({
      status: 'CANCELLED',
      filled_quantity: 0,
      cancelled_quantity: 1,
    });
  });
});

describe('rejections (201, then REJECTED with a reason)', () => {
  it('rejects an order the margin cannot carry', async () => {
    const r = await api.place({ tradingsymbol: 'MARUTI', quantity: 100_000 });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('REJECTED');
    const o = await api.order(r.body.order_id);
    expect(o.status_message).toMatch(/Insufficient funds/);
    expect(o).toMatchObject({ filled_quantity: 0, pending_quantity: 0, cancelled_quantity: 100_000 });
  });

  it('rejects a price outside the circuit limits with the broker wording, naming the limit', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const q = await api.quote(infy.instrument_token);
    const low = await api.place({ order_type: 'LIMIT', price: px(q.lower_circuit_limit - 0.05) });
    expect(low.body.status).toBe('REJECTED');
    expect((await api.order(low.body.order_id)).status_message).toBe(
      `Your order price ₹${(q.lower_circuit_limit - 0.05).toLocaleString('en-IN', { minimumFractionDigits: 2 })} is lower than the current lower circuit limit of ₹${q.lower_circuit_limit.toLocaleString('en-IN', { minimumFractionDigits: 2 })}. Place an order within the daily range.`,
    );
    const high = await api.place({
      order_type: 'SL',
      price: px(q.upper_circuit_limit + 1),
      trigger_price: px(q.upper_circuit_limit + 0.5),
    });
    expect((await api.order(high.body.order_id)).status_message).toMatch(
      /^Your order price ₹[\d,.]+ is higher than the current upper circuit limit of ₹[\d,.]+\. Place an order within the daily range\.$/,
    );
    const atLimit = await api.place({ order_type: 'LIMIT', price: q.lower_circuit_limit });
    expect(atLimit.body.status).toBe('OPEN');
  });

  it('rejects a CNC sell beyond holdings', async () => {
    const r = await api.place({ tradingsymbol: 'WIPRO', transaction_type: 'SELL', product: 'CNC', quantity: 5 });
    expect(r.body.status).toBe('REJECTED');
    expect((await api.order(r.body.order_id)).status_message).toMatch(/holdings/);
  });
});

describe('modify and cancel', () => {
  it('modifies a resting LIMIT order and fills it when the new price is marketable', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const r = await api.place({ order_type: 'LIMIT', price: px(infy.last_price - 20), quantity: 2 });
    const m1 = await api.call('PATCH', `/orders/${r.body.order_id}`, { quantity: 3 });
    expect(m1.status).toBe(200);
    expect(m1.body).toEqual({ order_id: r.body.order_id, status: 'OPEN', version: 2 });
    expect((await api.order(r.body.order_id)).quantity).toBe(3);
    const m2 = await api.call('PUT', `/orders/${r.body.order_id}`, { price: px(infy.last_price + 1) });
    expect(m2.body.status).toBe('COMPLETE');
    const h = (await api.call('GET', `/orders/${r.body.order_id}/history`)).body.history;
    expect(h.filter((e: { message: string | null }) => e.message?.startsWith('Modified'))).toHaveLength(2);
    const again = await api.call('PATCH', `/orders/${r.body.order_id}`, { quantity: 4 });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('order_not_modifiable');
    expect((await api.call('DELETE', `/orders/${r.body.order_id}`)).body.code).toBe('order_not_modifiable');
  });

  it('validates modifications like placements', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const r = await api.place({ order_type: 'LIMIT', price: px(infy.last_price - 20) });
    const id = r.body.order_id as string;
    expect((await api.call('PATCH', `/orders/${id}`, {})).body.errors[0].field).toBe('body');
    expect((await api.call('PATCH', `/orders/${id}`, { colour: 'red' })).body.errors[0].field).toBe('colour');
    expect((await api.call('PATCH', `/orders/${id}`, { price: 10.01 })).body.errors[0].field).toBe('price');
    expect(
      (await api.call('PATCH', `/orders/${id}`, { validity: 'IOC', order_type: 'SL', trigger_price: 1 })).status,
    ).toBe(400);
    const sl = await api.call('PATCH', `/orders/${id}`, {
      order_type: 'SL',
      trigger_price: px(infy.last_price + 10),
      price: px(infy.last_price + 11),
    });
    expect(sl.body.status).toBe('TRIGGER PENDING');
    const mkt = await api.call('PATCH', `/orders/${id}`, { order_type: 'MARKET' });
    expect(mkt.body.status).toBe('COMPLETE');
    expect(await api.order(id)).toMatchObject({ price: null, trigger_price: null });
  });

  it('cancels, releases margin, and repeats the cancel idempotently', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const before = (await api.call('GET', '/funds')).body.funds;
    const r = await api.place({ order_type: 'LIMIT', price: px(infy.last_price - 20), quantity: 50 });
    const blocked = (await api.call('GET', '/funds')).body.funds;
    expect(blocked.used_margin).toBeGreaterThan(before.used_margin);
    const c1 = await api.call('DELETE', `/orders/${r.body.order_id}`);
    expect(c1.status).toBe(200);
    expect(c1.body).toEqual({ order_id: r.body.order_id, status: 'CANCELLED' });
    const c2 = await api.call('DELETE', `/orders/${r.body.order_id}`);
    expect(c2.status).toBe(200);
    expect(c2.body.status).toBe('CANCELLED');
    const after = (await api.call('GET', '/funds')).body.funds;
    expect(after.used_margin).toBeCloseTo(before.used_margin, 2);
    expect(await api.order(r.body.order_id)).toMatchObject({ cancelled_quantity: 50, pending_quantity: 0 });
  });
});

describe('idempotency', () => {
  it('answers 409 naming the existing order for a reused client_order_id, and creates nothing', async () => {
    const first = await api.place({ client_order_id: 'dup_1-x' });
    const count = api.broker.orderCount();
    const second = await api.place({ client_order_id: 'dup_1-x', quantity: 2 });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'duplicate_client_order_id', order_id: first.body.order_id });
    expect(api.broker.orderCount()).toBe(count);
  });
});

describe('conditional reads', () => {
  it('sends an ETag on lists and 304 for an unchanged one', async () => {
    for (const path of ['/orders', '/trades', '/positions', '/holdings', '/funds']) {
      const a = await api.call('GET', path);
      const tag = a.headers.get('etag');
      expect(tag, path).toMatch(/^".+"$/);
      const b = await api.call('GET', path, undefined, { headers: { 'if-none-match': tag ?? '' } });
      expect(b.status, path).toBe(304);
      expect(b.body).toBeUndefined();
    }
    const tag = (await api.call('GET', '/orders')).headers.get('etag') ?? '';
    await api.place();
    const changed = await api.call('GET', '/orders', undefined, { headers: { 'if-none-match': tag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(tag);
  });
});

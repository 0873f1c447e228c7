import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WireOrder, WireOrderAck, WireOrderHistory, WireOrderList, WireOrderOne } from '../../shared/wire/schemas';
import { type Api, startTestBroker } from './test-helpers';

let api: Api;
beforeAll(async () => {
  api = await startTestBroker();
});
afterAll(() => api.close());

describe('placing and matching orders', () => {
  it('fills a MARKET order at the last price and answers 201 with Location', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const r = await api.place({ client_order_id: 'mkt-1' });
    expect(r.status).toBe(201);
    const ack = WireOrderAck.parse(r.body);
    expect(r.headers.get('location')).toBe(`/v1/orders/${ack.order_id}`);
    expect(ack).toMatchObject({ client_order_id: 'mkt-1', status: 'COMPLETE' });
    const o = WireOrderOne.parse((await api.call('GET', `/orders/${ack.order_id}`)).body).order;
    expect(o).toMatchObject({ filled_quantity: 1, pending_quantity: 0, cancelled_quantity: 0, average_price: infy.last_price });
    expect(o.placed_at).toMatch(/\+05:30$/);
  });

  it('rests a LIMIT order until the price crosses it', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const limit = Math.round((infy.last_price - 10) * 20) / 20;
    const r = await api.place({ order_type: 'LIMIT', price: limit });
    expect(r.body.status).toBe('OPEN');
    api.broker.setPrice(infy.instrument_token, limit + 5);
    expect((await api.order(r.body.order_id)).status).toBe('OPEN');
    api.broker.setPrice(infy.instrument_token, limit - 1);
    const o = WireOrder.parse(await api.order(r.body.order_id));
    expect(o.status).toBe('COMPLETE');
    expect(o.average_price).toBe(limit - 1);
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

import { describe, expect, it } from 'vitest';
import { WireOrder } from '../wire/rest-schemas';
import { MARKET_BUY_INFY, startTestBroker } from './test-helpers';

/** A LIMIT buy far under the market, so it rests OPEN and can be modified. */
async function restingLimit(api: Awaited<ReturnType<typeof startTestBroker>>): Promise<{ id: string; price: number }> {
  const infy = await api.instrument('NSE', 'INFY');
  const price = Math.round(infy.last_price * 0.9 * 20) / 20;
  const r = await api.place({ order_type: 'LIMIT', price });
  expect(r.status).toBe(201);
  return { id: r.body.order_id as string, price };
}

describe('client_order_id uniqueness', () => {
  it('by default a reused client_order_id is 409 naming the first order, and nothing is created', async () => {
    const api = await startTestBroker();
    try {
      const first = await api.place({ client_order_id: 'ref-1' });
      const again = await api.place({ client_order_id: 'ref-1' });
      expect(again.status).toBe(409);
      expect(again.body.order_id).toBe(first.body.order_id);
      expect((await api.call('GET', '/orders?client_order_id=ref-1')).body.orders).toHaveLength(1);
    } finally {
      await api.close();
    }
  });

  it('with idempotency off (--no-idempotency) a reused client_order_id becomes a second order, and the lookup lists both', async () => {
    const api = await startTestBroker({ idempotency: false });
    try {
      const first = await api.place({ client_order_id: 'ref-1' });
      const again = await api.place({ client_order_id: 'ref-1' });
      expect(again.status).toBe(201);
      expect(again.body.order_id).not.toBe(first.body.order_id);
      const found = (await api.call('GET', '/orders?client_order_id=ref-1')).body.orders as Array<{
        order_id: string;
      }>;
      expect(found.map((o) => o.order_id)).toEqual([first.body.order_id, again.body.order_id]);
    } finally {
      await api.close();
    }
  });
});

describe('PATCH /orders/{id} with If-Match', () => {
  it('every order carries version 1, and each accepted modification raises it by one (the PATCH reply says the new one)', async () => {
    const api = await startTestBroker();
    try {
      const { id, price } = await restingLimit(api);
      const order = WireOrder.parse(await api.order(id));
      expect(order.version).toBe(1);
      const r = await api.call('PATCH', `/orders/${id}`, { price: price - 1 });
      expect(r.status).toBe(200);
      expect(r.body.version).toBe(2);
      expect((await api.order(id)).version).toBe(2);
    } finally {
      await api.close();
    }
  });

  it('a PATCH whose If-Match names an older version is 412 precondition_failed and changes nothing', async () => {
    const api = await startTestBroker();
    try {
      const { id, price } = await restingLimit(api);
      expect(
        (await api.call('PATCH', `/orders/${id}`, { price: price - 1 }, { headers: { 'if-match': '"1"' } })).status,
      ).toBe(200);
      // A late retry of a change made against version 1 must not undo the newer one.
      const late = await api.call('PATCH', `/orders/${id}`, { price: price - 2 }, { headers: { 'if-match': '"1"' } });
      expect(late.status).toBe(412);
      expect(late.body.code).toBe('precondition_failed');
      expect(late.body.version).toBe(2);
      const now = await api.order(id);
      expect([now.price, now.version]).toEqual([price - 1, 2]);
    } finally {
      await api.close();
    }
  });

  it('a malformed If-Match is a 400 naming the header; "*" matches any version', async () => {
    const api = await startTestBroker();
    try {
      const { id, price } = await restingLimit(api);
      const bad = await api.call('PATCH', `/orders/${id}`, { price: price - 1 }, { headers: { 'if-match': 'v1' } });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual([{ field: 'If-Match', message: expect.stringMatching(/order version/) }]);
      const any = await api.call('PATCH', `/orders/${id}`, { price: price - 1 }, { headers: { 'if-match': '*' } });
      expect(any.status).toBe(200);
    } finally {
      await api.close();
    }
  });
});

describe('reply faults that leave the outcome in doubt', () => {
  it('late_server_error commits the order, then answers 5xx', async () => {
    const api = await startTestBroker({ faults: 'late_server_error=1' });
    try {
      const before = api.broker.orderCount();
      const r = await api.place({ client_order_id: 'late-1' });
      expect(r.status).toBeGreaterThanOrEqual(500);
      expect(r.body.code).toBe('server_error');
      expect(api.broker.orderCount()).toBe(before + 1);
    } finally {
      await api.close();
    }
  });

  it('stall_reply commits the order and sends nothing: the client waits until it gives up itself', async () => {
    const api = await startTestBroker({ faults: 'stall_reply=1' });
    try {
      const before = api.broker.orderCount();
      const ac = new AbortController();
      const pending = fetch(`${api.broker.url}/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...MARKET_BUY_INFY, client_order_id: 'stalled-1' }),
        signal: ac.signal,
      });
      // The order exists while the client is still waiting for an answer.
      await expect.poll(() => api.broker.orderCount(), { timeout: 5_000 }).toBe(before + 1);
      ac.abort();
      await expect(pending).rejects.toThrow(/abort/i);
    } finally {
      await api.close();
    }
  });
});

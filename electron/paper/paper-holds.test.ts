import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Api, startTestBroker } from './test-helpers';

/**
 * Holding replies (docs/api.md §Holding replies): a test that looks at an in-between state holds
 * the broker at the door, sees the state, then releases — the request is handled only then.
 */
let api: Api;
beforeAll(async () => {
  api = await startTestBroker();
});
afterAll(() => api.close());

const control = (method: string, path: string, body?: unknown) =>
  api.call(method, `/_control${path}`, body, { token: null });

describe('a hold on order placement', () => {
  it('keeps the request unhandled and unanswered until released, then it is placed and answered once', async () => {
    const before = api.broker.orderCount();
    const hold = await control('POST', '/hold', { method: 'POST', path_prefix: '/v1/orders' });
    expect(hold.status).toBe(200);
    let answered = false;
    const placing = api.place({ order_type: 'LIMIT', price: 1 }).then((r) => {
      answered = true;
      return r;
    });
    // Wait for the condition (the request is at the hold), never for a time.
    await vi.waitFor(async () =>
      expect((await control('GET', '/holds')).body.holds).toEqual([
        { id: hold.body.id, method: 'POST', path_prefix: '/v1/orders', waiting: 1, held: 1 },
      ]),
    );
    // Reads and other routes are not held.
    expect((await api.call('GET', '/orders')).status).toBe(200);
    expect(api.broker.orderCount()).toBe(before);
    expect(answered).toBe(false);
    expect((await control('POST', '/release', { id: hold.body.id })).body).toEqual({ released: 1 });
    expect((await placing).status).toBe(201);
    expect(api.broker.orderCount()).toBe(before + 1);
    expect((await control('GET', '/holds')).body.holds).toEqual([]);
  });

  it('a hold on /kite holds that dialect’s writes only', async () => {
    const id = api.broker.hold({ method: 'POST', pathPrefix: '/kite/orders' });
    expect((await api.place({ order_type: 'LIMIT', price: 1 })).status).toBe(201);
    expect(api.broker.holds()).toMatchObject([{ id, waiting: 0, held: 0 }]);
    expect(api.broker.release()).toBe(0);
  });

  it('a bad hold or an unknown release is refused naming the field', async () => {
    const bad = await control('POST', '/hold', { path_prefix: '/etc/passwd' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('path_prefix');
    expect((await control('POST', '/release', { id: 'h999' })).status).toBe(404);
  });
});

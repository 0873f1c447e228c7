import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WireOrderList, WireStreamServerMessage } from '../wire/rest-schemas';
import { START_MS, type TestClock } from './testing/broker-driver';
import { type Api, startTestBroker } from './test-helpers';

/**
 * docs/api.md §A lagging order book: with `orderbookLagMs` the order reads show a new order, and
 * each change to one, only that many real ms later; the POST reply, the stream and the duplicate
 * check do not wait. The broker's real clock is the test's, moved by hand.
 */

const LAG = 1500;
const clock: TestClock = { now: START_MS };
let api: Api;
let limit: number;

beforeAll(async () => {
  api = await startTestBroker({ clock: () => clock.now, orderbookLagMs: LAG });
  const infy = await api.instrument('NSE', 'INFY');
  // Far under the market: the order rests, so modifications and cancels apply to it.
  limit = Math.round(infy.last_price * 0.92 * 20) / 20;
});
afterAll(() => api.close());

/** Moves the broker's real clock on by `ms`. */
const pass = (ms: number): void => {
  clock.now += ms;
};

const ids = async (query = ''): Promise<string[]> => {
  const r = await api.call('GET', `/orders${query}`);
  expect(r.status).toBe(200);
  return WireOrderList.parse(r.body).orders.map((o) => o.order_id);
};

/** A resting LIMIT order, read once it shows. */
const shownOrder = async (o: Record<string, unknown> = {}): Promise<string> => {
  const r = await api.place({ order_type: 'LIMIT', price: limit, ...o });
  expect(r.status).toBe(201);
  pass(LAG);
  const id = r.body.order_id as string;
  expect(await api.order(id)).toMatchObject({ order_id: id, status: 'OPEN' });
  return id;
};

describe('a lagging order book (docs/api.md §A lagging order book)', () => {
  it('a new order is answered at once, but reads show it only once the lag has passed', async () => {
    const placed = await api.place({ order_type: 'LIMIT', price: limit, client_order_id: 'lag-new-1' });
    expect(placed.status).toBe(201);
    expect(placed.body).toMatchObject({ client_order_id: 'lag-new-1', status: 'OPEN' });
    const id: string = placed.body.order_id;

    const absent = async (): Promise<void> => {
      expect(await ids()).not.toContain(id);
      expect(await ids('?client_order_id=lag-new-1')).toEqual([]);
      expect(await ids('?status=OPEN')).not.toContain(id);
      expect((await api.call('GET', `/orders/${id}`)).status).toBe(404);
      expect((await api.call('GET', `/orders/${id}/history`)).status).toBe(404);
    };
    await absent();
    pass(LAG - 1);
    await absent();

    pass(1);
    expect(await ids()).toContain(id);
    expect(await ids('?client_order_id=lag-new-1')).toEqual([id]);
    expect(await ids('?status=OPEN')).toContain(id);
    expect(await api.order(id)).toMatchObject({ order_id: id, status: 'OPEN', quantity: 1, price: limit });
    const history = await api.call('GET', `/orders/${id}/history`);
    expect(history.body.history.map((h: { status: string }) => h.status)).toEqual(['OPEN']);
  });

  it('refuses a reused client_order_id at once, although the first order does not show yet', async () => {
    const first = await api.place({ order_type: 'LIMIT', price: limit, client_order_id: 'lag-dup-1' });
    expect(first.status).toBe(201);
    expect(await ids('?client_order_id=lag-dup-1')).toEqual([]);
    const again = await api.place({ order_type: 'LIMIT', price: limit, client_order_id: 'lag-dup-1' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'duplicate_client_order_id', order_id: first.body.order_id });
    pass(LAG);
  });

  it('a modification shows late: until then reads show the order as it was, with its earlier history', async () => {
    const id = await shownOrder();
    const modified = await api.call('PATCH', `/orders/${id}`, { quantity: 3 });
    expect(modified.status).toBe(200);
    expect(modified.body).toMatchObject({ order_id: id, version: 2 });

    expect(await api.order(id)).toMatchObject({ quantity: 1, version: 1 });
    const listed = WireOrderList.parse((await api.call('GET', '/orders')).body).orders.find((o) => o.order_id === id);
    expect(listed).toMatchObject({ quantity: 1, version: 1 });
    expect((await api.call('GET', `/orders/${id}/history`)).body.history).toHaveLength(1);
    // Modify and cancel act on the real order: a precondition on version 2 holds already.
    const second = await api.call('PATCH', `/orders/${id}`, { quantity: 4 }, { headers: { 'if-match': '"2"' } });
    expect(second.status).toBe(200);

    pass(LAG);
    expect(await api.order(id)).toMatchObject({ quantity: 4, version: 3 });
    const history = (await api.call('GET', `/orders/${id}/history`)).body.history;
    expect(history.map((h: { message: string | null }) => h.message)).toEqual([
      null,
      'Modified: quantity 1 → 3',
      'Modified: quantity 3 → 4',
    ]);
  });

  it('a change shows in the order it happened: half way through, the first shows and the second does not', async () => {
    const id = await shownOrder();
    expect((await api.call('PATCH', `/orders/${id}`, { quantity: 2 })).status).toBe(200);
    pass(LAG / 2);
    expect((await api.call('DELETE', `/orders/${id}`)).body).toMatchObject({ status: 'CANCELLED' });
    pass(LAG / 2);
    expect(await api.order(id)).toMatchObject({ quantity: 2, status: 'OPEN' });
    pass(LAG / 2);
    expect(await api.order(id)).toMatchObject({ quantity: 2, status: 'CANCELLED' });
  });

  it('a cancel shows late: the order reads OPEN until the lag has passed', async () => {
    const id = await shownOrder();
    const cancelled = await api.call('DELETE', `/orders/${id}`);
    expect(cancelled.body).toMatchObject({ order_id: id, status: 'CANCELLED' });
    expect(await api.order(id)).toMatchObject({ status: 'OPEN', cancelled_quantity: 0 });
    expect(await ids('?status=CANCELLED')).not.toContain(id);
    pass(LAG);
    expect(await api.order(id)).toMatchObject({ status: 'CANCELLED', cancelled_quantity: 1 });
    expect(await ids('?status=CANCELLED')).toContain(id);
  });

  it('the since cursor is the view’s: continuing from it later answers the changes that showed meanwhile', async () => {
    const before = WireOrderList.parse((await api.call('GET', '/orders')).body);
    const cursor = before.cursor ?? '';
    const placed = await api.place({ order_type: 'LIMIT', price: limit });
    const id: string = placed.body.order_id;

    const early = await api.call('GET', `/orders?since=${cursor}`);
    expect(early.body).toEqual({ orders: [], cursor, full: false });
    // Nothing showed: the whole list's ETag and cursor have not moved either.
    const whole = await api.call('GET', '/orders', undefined, {
      headers: { 'if-none-match': (await api.call('GET', '/orders')).headers.get('etag') ?? '' },
    });
    expect(whole.status).toBe(304);
    const idle = await api.call('GET', `/orders?since=${cursor}`, undefined, {
      headers: { 'if-none-match': early.headers.get('etag') ?? '' },
    });
    expect(idle.status).toBe(304);

    pass(LAG);
    const late = WireOrderList.parse((await api.call('GET', `/orders?since=${cursor}`)).body);
    expect(late.full).toBe(false);
    expect(late.orders.map((o) => [o.order_id, o.status])).toEqual([[id, 'OPEN']]);
    expect(late.cursor).not.toBe(cursor);
    expect(WireOrderList.parse((await api.call('GET', `/orders?since=${late.cursor ?? ''}`)).body).orders).toEqual([]);
  });

  it('the stream pushes an order change at once, while the reads do not show it yet', async () => {
    const ws = new WebSocket(`${api.broker.url.replace('http', 'ws')}/stream`, {
      headers: { authorization: `Bearer ${api.token}` },
    });
    const pushed: Array<{ id: string; status: string }> = [];
    ws.on('message', (data) => {
      const m = WireStreamServerMessage.parse(JSON.parse(String(data)));
      if (m.type === 'order') pushed.push({ id: m.order.order_id, status: m.order.status });
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    try {
      const placed = await api.place({ order_type: 'LIMIT', price: limit });
      const id: string = placed.body.order_id;
      await expect.poll(() => pushed.find((p) => p.id === id)?.status).toBe('OPEN');
      await api.call('DELETE', `/orders/${id}`);
      await expect.poll(() => pushed.filter((p) => p.id === id).at(-1)?.status).toBe('CANCELLED');
      // The real clock has not moved: the reads still do not show the order at all.
      expect((await api.call('GET', `/orders/${id}`)).status).toBe(404);
      pass(LAG);
      expect(await api.order(id)).toMatchObject({ status: 'CANCELLED' });
    } finally {
      ws.close();
    }
  });

  it('margins and positions do not wait: a fill shows in positions before its order shows', async () => {
    const placed = await api.place({ order_type: 'MARKET', tradingsymbol: 'ITC', quantity: 2 });
    expect(placed.body.status).toBe('COMPLETE');
    const positions = (await api.call('GET', '/positions')).body.positions as Array<{
      tradingsymbol: string;
      quantity: number;
    }>;
    expect(positions.find((p) => p.tradingsymbol === 'ITC')?.quantity).toBe(2);
    expect((await api.call('GET', `/orders/${placed.body.order_id}`)).status).toBe(404);
    pass(LAG);
  });
});

describe('a lagging order book across a restart', () => {
  it('shows the orders the journal restored at once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paper-lag-'));
    const c: TestClock = { now: START_MS };
    try {
      const a = await startTestBroker({ dataDir: dir, clock: () => c.now, orderbookLagMs: LAG });
      const placed = await a.place({ client_order_id: 'lag-restart' });
      await a.close();
      const b = await startTestBroker({ dataDir: dir, clock: () => c.now, orderbookLagMs: LAG });
      try {
        expect(await b.order(placed.body.order_id)).toMatchObject({ client_order_id: 'lag-restart' });
      } finally {
        await b.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

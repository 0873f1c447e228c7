import type { Connect } from 'kiteconnect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { START_MS, type TestClock } from '../testing/broker-driver';
import { type KiteTest, placeParams, startKiteTest } from './test-kite';

/**
 * docs/kite.md §A lagging order book, through Zerodha's own `kiteconnect` client: with
 * `orderbookLagMs` the order book and an order's history show a new order, and each change to
 * one, only that many real ms later; the placement reply, the ticker's order postbacks and the
 * trades do not wait. The broker's real clock is the test's, moved by hand.
 */

const LAG = 1500;
const clock: TestClock = { now: START_MS };
let t: KiteTest;
let kc: Connect;

/** A LIMIT buy of INFY far under the market (1500), so it rests. */
const order = (o: Record<string, unknown> = {}) => placeParams({ price: 1400, ...o });

beforeAll(async () => {
  t = await startKiteTest({ clock: () => clock.now, orderbookLagMs: LAG });
  kc = await t.login();
  t.api.broker.setPrice((await t.api.instrument('NSE', 'INFY')).instrument_token, 1500);
});
afterAll(() => t.close());

const inBook = async (id: string): Promise<boolean> => (await kc.getOrders()).some((o) => o.order_id === id);

describe('/kite with a lagging order book (docs/kite.md §A lagging order book)', () => {
  it('a new order is answered at once, but the order book and its history show it only once the lag has passed', async () => {
    const { order_id } = await kc.placeOrder('regular', order({ tag: 'lagK1' }));
    expect(order_id).toMatch(/^\d+$/);
    expect(await inBook(order_id)).toBe(false);
    await expect(kc.getOrderHistory(order_id)).rejects.toMatchObject({ error_type: 'InputException' });
    clock.now += LAG - 1;
    expect(await inBook(order_id)).toBe(false);

    clock.now += 1;
    expect((await kc.getOrders()).find((o) => o.order_id === order_id)).toMatchObject({
      status: 'OPEN',
      tag: 'lagK1',
      price: 1400,
    });
    expect((await kc.getOrderHistory(order_id)).at(-1)).toMatchObject({ status: 'OPEN' });
  });

  it('the same tag twice is two orders at once (Kite never deduplicates tags), neither in the book yet', async () => {
    const a = await kc.placeOrder('regular', order({ tag: 'lagTwice' }));
    const b = await kc.placeOrder('regular', order({ tag: 'lagTwice' }));
    expect(a.order_id).not.toBe(b.order_id);
    expect((await kc.getOrders()).filter((o) => o.tag === 'lagTwice')).toEqual([]);
    clock.now += LAG;
    expect((await kc.getOrders()).filter((o) => o.tag === 'lagTwice').map((o) => o.order_id)).toEqual([
      a.order_id,
      b.order_id,
    ]);
  });

  it('a modification and a cancel show late; until then the book shows the order as it was', async () => {
    const { order_id } = await kc.placeOrder('regular', order({ price: 1410 }));
    clock.now += LAG;
    expect(await inBook(order_id)).toBe(true);
    await kc.modifyOrder('regular', order_id, { price: 1411 });
    const statuses = async (): Promise<string[]> => (await kc.getOrderHistory(order_id)).map((h) => h.status);
    expect((await kc.getOrders()).find((o) => o.order_id === order_id)?.price).toBe(1410);
    expect(await statuses()).toEqual(['PUT ORDER REQ RECEIVED', 'VALIDATION PENDING', 'OPEN PENDING', 'OPEN']);
    // The cancel acts on the real order, which the book does not show modified yet.
    await kc.cancelOrder('regular', order_id);
    expect((await kc.getOrders()).find((o) => o.order_id === order_id)).toMatchObject({ price: 1410, status: 'OPEN' });

    clock.now += LAG;
    expect((await kc.getOrders()).find((o) => o.order_id === order_id)).toMatchObject({
      price: 1411,
      status: 'CANCELLED',
    });
    expect((await statuses()).slice(-4)).toEqual(['MODIFY PENDING', 'OPEN', 'CANCEL PENDING', 'CANCELLED']);
  });

  it('a fill is in the trades and positions at once, before its order is in the book', async () => {
    const { order_id } = await kc.placeOrder(
      'regular',
      order({ order_type: 'MARKET', price: 0, quantity: 2, market_protection: -1 }),
    );
    expect(await inBook(order_id)).toBe(false);
    expect((await kc.getTrades()).filter((tr) => tr.order_id === order_id).reduce((n, tr) => n + tr.quantity, 0)).toBe(
      2,
    );
    expect((await kc.getOrderTrades(order_id)).reduce((n, tr) => n + tr.quantity, 0)).toBe(2);
    expect((await kc.getPositions()).net.find((p) => p.tradingsymbol === 'INFY')?.quantity).toBeGreaterThanOrEqual(2);
    clock.now += LAG;
    expect((await kc.getOrders()).find((o) => o.order_id === order_id)?.status).toBe('COMPLETE');
  });

  it('the ticker posts an order update at once, while the book does not show the order yet', async () => {
    const access = (kc as unknown as { access_token: string }).access_token;
    const ws = new WebSocket(`ws://127.0.0.1:${t.port}/kite/ws?api_key=paper&access_token=${access}`);
    const updates: Array<{ order_id: string; status: string }> = [];
    ws.on('message', (d: Buffer, isBinary) => {
      if (isBinary) return;
      const m = JSON.parse(String(d)) as { type: string; data: { order_id: string; status: string } };
      if (m.type === 'order') updates.push(m.data);
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    try {
      const { order_id } = await kc.placeOrder('regular', order({ price: 1420 }));
      await expect.poll(() => updates.find((u) => u.order_id === order_id)?.status).toBe('OPEN');
      expect(await inBook(order_id)).toBe(false);
      clock.now += LAG;
      expect(await inBook(order_id)).toBe(true);
    } finally {
      ws.close();
    }
  });
});

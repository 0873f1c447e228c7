import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useAppOnPaper } from './testing/app-on-paper';

/**
 * A window opening (or a page reloading) paints main's order book as main holds it: while the
 * book is fresh, its first `orders.sync` waits for no broker read and no turn in the rate limiter
 * (docs/live-data.md §The first screen first). Shown with every read of the broker answered 429
 * with Retry-After 30 s: a sync that reads the broker fails, one from main's book does not.
 */
describe("a page's first orders.sync, from main's fresh book", () => {
  const app = useAppOnPaper({ name: 'first-sync', config: { log: () => undefined } });
  const { dispatch } = app;
  const placed: string[] = [];

  beforeAll(async () => {
    // Three working orders, placed on the broker by someone else (another terminal).
    const session = (await (
      await fetch(`${app.paper.url}/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: 'paper', api_secret: 'paper' }),
      })
    ).json()) as { access_token: string };
    for (let i = 0; i < 3; i += 1) {
      const res = await fetch(`${app.paper.url}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.access_token}` },
        body: JSON.stringify({
          exchange: 'NSE',
          tradingsymbol: 'INFY',
          transaction_type: 'BUY',
          quantity: 1,
          order_type: 'LIMIT',
          price: 1000,
          product: 'CNC',
          validity: 'DAY',
        }),
      });
      placed.push(((await res.json()) as { order_id: string }).order_id);
    }
  });

  it('answers a page holding nothing from the book as held, while every broker read is refused', async () => {
    // The main window's poll brings the book up to date; the stream is open.
    await vi.waitFor(async () => {
      const first = await dispatch('orders.sync', { first: 200 });
      expect(first).toMatchObject({ ok: true });
      const ids = (first as { data: { upserts: Array<{ orderId: string }> } }).data.upserts.map((o) => o.orderId);
      expect(ids).toEqual(expect.arrayContaining(placed));
      expect(await dispatch('connection.status', undefined)).toMatchObject({ ok: true, data: { stream: 'open' } });
    });

    app.paper.setFaults('read_rate_limit=1,retry_after_s=30');
    // A pop-out opens: its first sync is main's book, whole, with the cursor to poll from.
    const popout = await dispatch('orders.sync', { first: 200 });
    expect(popout).toMatchObject({ ok: true, data: { full: true } });
    const answer = (popout as { data: { book: string; cursor: number; upserts: Array<{ orderId: string }> } }).data;
    expect(answer.upserts.map((o) => o.orderId)).toEqual(expect.arrayContaining(placed));
    // Its next poll reads the broker as every poll does, and meets the storm.
    const poll = await dispatch('orders.sync', { book: answer.book, since: answer.cursor, first: 200 });
    expect(poll).toMatchObject({ ok: false });
    app.paper.setFaults({});
  });
});

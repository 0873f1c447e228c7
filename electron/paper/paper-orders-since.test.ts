import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WireOrderList } from '../wire/rest-schemas';
import { type Api, startTestBroker } from './test-helpers';

/** docs/api.md §Incremental reads: `GET /orders?since=<cursor>`. */

let api: Api;
beforeAll(async () => {
  api = await startTestBroker();
});
afterAll(() => api.close());

const list = async (query = ''): Promise<{ ids: string[]; cursor: string; full: boolean | undefined }> => {
  const r = await api.call('GET', `/orders${query}`);
  expect(r.status).toBe(200);
  const body = WireOrderList.parse(r.body);
  return { ids: body.orders.map((o) => o.order_id), cursor: body.cursor ?? '', full: body.full };
};

/** A LIMIT buy far under the market: it rests, so later modifications and cancels apply. */
const rest = async (): Promise<string> => {
  const infy = await api.instrument('NSE', 'INFY');
  const r = await api.place({ order_type: 'LIMIT', price: Math.round(infy.last_price * 0.92 * 20) / 20 });
  expect(r.body.status).toBe('OPEN');
  return r.body.order_id as string;
};

describe('GET /orders?since=', () => {
  it('answers only the orders changed after the cursor, each once, with the cursor to continue from', async () => {
    const a = await rest();
    const b = await rest();
    const { cursor, ids: everything } = await list();
    expect(everything).toEqual(expect.arrayContaining([a, b]));
    const c = await rest();
    const modified = await api.call('PATCH', `/orders/${a}`, { quantity: 2 });
    expect(modified.status).toBe(200);

    const delta = await list(`?since=${cursor}`);
    expect(delta.full).toBe(false);
    expect(delta.ids).toEqual([c, a]); // in the order they last changed; b did not change
    expect(delta.cursor).not.toBe(cursor);

    const none = await list(`?since=${delta.cursor}`);
    expect(none).toEqual({ ids: [], cursor: delta.cursor, full: false });
  });

  it('answers a cancel after the cursor with the cancelled order', async () => {
    const a = await rest();
    const { cursor } = await list();
    expect((await api.call('DELETE', `/orders/${a}`)).status).toBe(200);
    const r = await api.call('GET', `/orders?since=${cursor}`);
    expect(r.body.orders.map((o: { order_id: string; status: string }) => [o.order_id, o.status])).toEqual([
      [a, 'CANCELLED'],
    ]);
  });

  it('answers 304 with no body to the same cursor and its ETag while nothing changed, and 200 once something did', async () => {
    const { cursor } = await list();
    const first = await api.call('GET', `/orders?since=${cursor}`);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const idle = await api.call('GET', `/orders?since=${cursor}`, undefined, {
      headers: { 'if-none-match': etag ?? '' },
    });
    expect(idle.status).toBe(304);
    expect(idle.body).toBeUndefined();
    const a = await rest();
    const moved = await api.call('GET', `/orders?since=${cursor}`, undefined, {
      headers: { 'if-none-match': etag ?? '' },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.orders.map((o: { order_id: string }) => o.order_id)).toEqual([a]);
  });

  it('answers a cursor of another run of the broker with the whole book, marked full', async () => {
    const { cursor, ids } = await list();
    const otherRun = cursor.replace(/^[0-9a-f]{8}/, (run) => (run === '00000000' ? '00000001' : '00000000'));
    const r = await list(`?since=${otherRun}`);
    expect(r.full).toBe(true);
    expect(r.ids).toEqual(ids);
  });

  it('refuses a malformed cursor, or one combined with a filter, with a 400 naming since', async () => {
    for (const q of ['?since=42', '?since=abc', '?since=', `?since=${(await list()).cursor}&status=OPEN`]) {
      const r = await api.call('GET', `/orders${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.errors?.[0]?.field ?? r.body.field, q).toBe('since');
    }
  });
});

describe('GET /orders?since= across a restart', () => {
  it('answers a cursor from before the restart with the whole replayed book, marked full', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paper-since-'));
    try {
      const a = await startTestBroker({ dataDir: dir });
      await a.place({ client_order_id: 'before-restart' });
      const before = WireOrderList.parse((await a.call('GET', '/orders')).body);
      await a.close();
      const b = await startTestBroker({ dataDir: dir });
      try {
        const after = WireOrderList.parse((await b.call('GET', `/orders?since=${before.cursor ?? ''}`)).body);
        expect(after.full).toBe(true);
        expect(after.orders.map((o) => o.client_order_id)).toEqual(['before-restart']);
      } finally {
        await b.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

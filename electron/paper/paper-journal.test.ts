import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JOURNAL_FILE, Journal } from './journal';
import { type Api, startTestBroker } from './test-helpers';

const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'paper-journal-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Everything a client can see of the account, for before/after comparison. */
async function snapshot(api: Api) {
  const get = async (p: string) => (await api.call('GET', p)).body;
  return {
    orders: await get('/orders'),
    trades: await get('/trades'),
    positions: await get('/positions'),
    holdings: await get('/holdings'),
    funds: await get('/funds'),
  };
}

async function trade(api: Api): Promise<string> {
  const infy = await api.instrument('NSE', 'INFY');
  await api.place({ quantity: 10, client_order_id: 'j-1' });
  api.broker.setPrice(infy.instrument_token, Math.round((infy.last_price + 4) * 20) / 20);
  await api.place({ quantity: 3, transaction_type: 'SELL', client_order_id: 'j-2' });
  await api.place({ tradingsymbol: 'ITC', product: 'CNC', quantity: 7 });
  const resting = await api.place({
    order_type: 'LIMIT',
    price: Math.round((infy.last_price - 30) * 20) / 20,
    client_order_id: 'j-rest',
  });
  const cancelled = await api.place({ order_type: 'LIMIT', price: Math.round((infy.last_price - 30) * 20) / 20 });
  await api.call('DELETE', `/orders/${cancelled.body.order_id}`);
  return resting.body.order_id;
}

describe('journal', () => {
  it('restores orders, trades, positions, holdings, funds and sessions after a clean restart', async () => {
    const dir = tmp();
    const a = await startTestBroker({ dataDir: dir });
    const restingId = await trade(a);
    const before = await snapshot(a);
    const token = a.token;
    await a.close();

    const b = await startTestBroker({ dataDir: dir });
    try {
      // The old token still works: sessions are journaled too.
      const orders = await b.call('GET', '/orders', undefined, { token });
      expect(orders.status).toBe(200);
      expect(await snapshot(b)).toEqual(before);
      // The idempotency key survives, and the resting order still works.
      expect((await b.place({ client_order_id: 'j-1' })).status).toBe(409);
      const infy = await b.instrument('NSE', 'INFY');
      const resting = await b.order(restingId);
      b.broker.setPrice(infy.instrument_token, resting.price);
      expect((await b.order(restingId)).status).toBe('COMPLETE');
      const next = await b.place();
      expect(Number(next.body.order_id)).toBeGreaterThan(Number(restingId));
    } finally {
      await b.close();
    }
  });

  it('recovers from a crash (no clean close) with a torn last line', async () => {
    const dir = tmp();
    const crashed = tmp();
    const a = await startTestBroker({ dataDir: dir });
    await trade(a);
    const before = await snapshot(a);
    // Acknowledged means fsynced: a copy taken now is what a crash would leave.
    copyFileSync(join(dir, JOURNAL_FILE), join(crashed, JOURNAL_FILE));
    await a.close();
    appendFileSync(join(crashed, JOURNAL_FILE), '{"e":"order","o":{"orderId":"26');
    const b = await startTestBroker({ dataDir: crashed });
    try {
      const after = await snapshot(b);
      expect(after.orders).toEqual(before.orders);
      expect(after.trades).toEqual(before.trades);
      expect(after.holdings.holdings.map((h: { quantity: number }) => h.quantity)).toEqual(
        before.holdings.holdings.map((h: { quantity: number }) => h.quantity),
      );
      expect(after.funds.funds.available_cash).toBe(before.funds.funds.available_cash);
      expect(after.funds.funds.realised_pnl).toBe(before.funds.funds.realised_pnl);
      // The torn tail was cut off, so new events start on a fresh line.
      await b.place({ client_order_id: 'after-crash' });
    } finally {
      await b.close();
    }
    const lines = readFileSync(join(crashed, JOURNAL_FILE), 'utf8').trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('skips a damaged line in the middle and keeps the rest', () => {
    const dir = tmp();
    writeFileSync(
      join(dir, JOURNAL_FILE),
      '{"e":"session_end","token":"a"}\nnot json\n{"e":"session_end","token":"b"}\n',
    );
    const { journal, replay } = Journal.open(dir);
    journal.close();
    expect(replay.events).toHaveLength(2);
    expect(replay.skipped).toBe(1);
    expect(replay.truncated).toBe(false);
  });
});

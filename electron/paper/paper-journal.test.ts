import { appendFileSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { JOURNAL_FILE } from './journal';
import { type Api, startTestBroker } from './test-helpers';
import { tempDirs } from './testing/temp-dirs';

const tmp = tempDirs('paper-journal-');

/** Everything a client can see of the account, for before/after comparison. */
async function snapshot(api: Api) {
  const get = async (p: string) => (await api.call('GET', p)).body;
  return {
    // The list's change cursor names the broker's run, so it differs after any restart by design.
    orders: (await get('/orders')).orders,
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

/** A format-1 journal (money in paise, records without `v`), as the broker wrote it then. */
const V1_LINES = [
  '{"e":"order","o":{"orderId":"260000000001","clientOrderId":"v1-fill","token":190634936,"exchange":"NSE","tradingsymbol":"INFY","instrumentType":"EQ","transactionType":"BUY","quantity":10,"filled":0,"cancelled":0,"orderType":"MARKET","product":"MIS","validity":"DAY","pricePaise":null,"triggerPaise":null,"filledValuePaise":0,"status":"OPEN","statusMessage":null,"placedAt":1795451228399,"updatedAt":1795451228399,"blockedPaise":296010,"history":[{"status":"OPEN","at":1795451228399,"filled":0,"filledValuePaise":0,"message":null}]}}',
  '{"e":"trade","t":{"tradeId":"70000001","orderId":"260000000001","token":190634936,"exchange":"NSE","tradingsymbol":"INFY","instrumentType":"EQ","transactionType":"BUY","product":"MIS","quantity":10,"pricePaise":148005,"at":1795451228399}}',
  '{"e":"order","o":{"orderId":"260000000001","clientOrderId":"v1-fill","token":190634936,"exchange":"NSE","tradingsymbol":"INFY","instrumentType":"EQ","transactionType":"BUY","quantity":10,"filled":10,"cancelled":0,"orderType":"MARKET","product":"MIS","validity":"DAY","pricePaise":null,"triggerPaise":null,"filledValuePaise":1480050,"status":"COMPLETE","statusMessage":null,"placedAt":1795451228399,"updatedAt":1795451228399,"blockedPaise":0,"history":[{"status":"OPEN","at":1795451228399,"filled":0,"filledValuePaise":0,"message":null},{"status":"COMPLETE","at":1795451228399,"filled":10,"filledValuePaise":1480050,"message":null}]}}',
  '{"e":"order","o":{"orderId":"260000000002","clientOrderId":"v1-rest","token":190634936,"exchange":"NSE","tradingsymbol":"INFY","instrumentType":"EQ","transactionType":"BUY","quantity":5,"filled":0,"cancelled":0,"orderType":"LIMIT","product":"MIS","validity":"DAY","pricePaise":140000,"triggerPaise":null,"filledValuePaise":0,"status":"OPEN","statusMessage":null,"placedAt":1795451228406,"updatedAt":1795451228406,"blockedPaise":140000,"history":[{"status":"OPEN","at":1795451228406,"filled":0,"filledValuePaise":0,"message":null}]}}',
  '{"e":"marks","prices":{"190634936":148005}}',
];
/**
 * The broker's clock for the old lines: the instant the last was written (21:57 IST, after that
 * day's close). Its market day is then the lines' own, so the restored MIS position and resting
 * DAY order are still open; on the real clock a later trading day's start would pass that day's
 * close first (square-off, expiry), and these tests would read differently from one day to the
 * next.
 */
const V1_WRITTEN_AT = 1795451228406;

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

  it('reads a journal written in paise (format 1) with the same rupee amounts', async () => {
    // Lines exactly as the broker wrote them before money moved to units of ₹0.0001: a MARKET
    // BUY 10 INFY filled at ₹1,480.05 and a resting LIMIT BUY 5 at ₹1,400.
    const dir = tmp();
    writeFileSync(join(dir, JOURNAL_FILE), `${V1_LINES.join('\n')}\n`);
    const b = await startTestBroker({ dataDir: dir, clock: () => V1_WRITTEN_AT });
    try {
      expect(await b.order('260000000001')).toMatchObject({ average_price: 1480.05, filled_quantity: 10 });
      expect(await b.order('260000000002')).toMatchObject({ price: 1400, status: 'OPEN' });
      const positions = (await b.call('GET', '/positions')).body.positions;
      expect(positions).toEqual([
        expect.objectContaining({ tradingsymbol: 'INFY', quantity: 10, average_price: 1480.05, last_price: 1480.05 }),
      ]);
      // Blocked ₹1,400 for the resting order (5 × 1,400 / 5) plus ₹2,960.10 carried by the position.
      expect((await b.call('GET', '/funds')).body.funds).toMatchObject({ used_margin: 4360.1, realised_pnl: 0 });
    } finally {
      await b.close();
    }
  });

  it('reads a format-2 journal written before trades carried a multiplier, valuing each at price × quantity', async () => {
    // The same account as the format-1 lines, as the units build wrote it: money in units of
    // ₹0.0001, `"v":2`, no checksum and no trade multiplier.
    const toV2 = (line: string): string => {
      const rec = JSON.parse(line) as Record<string, Record<string, unknown>>;
      const units = (x: unknown) => (x === null ? null : (x as number) * 100);
      const rename = (o: Record<string, unknown>) => {
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(o))
          if (k.endsWith('Paise')) out[k.replace(/Paise$/, 'Units')] = units(v);
          else out[k] = Array.isArray(v) ? v.map((h) => rename(h as Record<string, unknown>)) : v;
        return out;
      };
      if (rec.o) rec.o = rename(rec.o);
      if (rec.t) rec.t = rename(rec.t);
      if (rec.e === ('marks' as never))
        rec.prices = Object.fromEntries(Object.entries(rec.prices!).map(([k, v]) => [k, units(v)])) as never;
      return JSON.stringify({ v: 2, ...rec });
    };
    const dir = tmp();
    writeFileSync(join(dir, JOURNAL_FILE), `${V1_LINES.map(toV2).join('\n')}\n`);
    const b = await startTestBroker({ dataDir: dir, clock: () => V1_WRITTEN_AT });
    try {
      expect(await b.order('260000000001')).toMatchObject({ average_price: 1480.05, filled_quantity: 10 });
      expect((await b.call('GET', '/positions')).body.positions).toEqual([
        expect.objectContaining({ tradingsymbol: 'INFY', quantity: 10, average_price: 1480.05, last_price: 1480.05 }),
      ]);
      expect((await b.call('GET', '/funds')).body.funds).toMatchObject({ used_margin: 4360.1, realised_pnl: 0 });
    } finally {
      await b.close();
    }
  });

  it('reads a format-3 journal (written before GTT records existed) and appends format 4 beside it', async () => {
    const dir = tmp();
    const a = await startTestBroker({ dataDir: dir });
    await trade(a);
    const before = await snapshot(a);
    await a.close();
    // The same account as a format-3 broker wrote it: v 3, its own checksum.
    const asV3 = readFileSync(join(dir, JOURNAL_FILE), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => {
        const { c: _c, ...rest } = JSON.parse(l) as Record<string, unknown>;
        const json = JSON.stringify({ ...rest, v: 3 });
        const ordered = JSON.stringify({ v: 3, ...JSON.parse(json) });
        return `${ordered.slice(0, -1)},"c":"${crc32(ordered).toString(16).padStart(8, '0')}"}`;
      });
    writeFileSync(join(dir, JOURNAL_FILE), `${asV3.join('\n')}\n`);

    const b = await startTestBroker({ dataDir: dir });
    try {
      expect(await snapshot(b)).toEqual(before);
      expect((await b.place()).status).toBe(201);
    } finally {
      await b.close();
    }
    const versions = readFileSync(join(dir, JOURNAL_FILE), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { v: number }).v);
    expect(versions.slice(0, asV3.length).every((v) => v === 3)).toBe(true);
    expect(versions.slice(asV3.length)).not.toHaveLength(0);
    expect(versions.slice(asV3.length).every((v) => v === 4)).toBe(true);
  });

  it('refuses a journal in a newer format, naming the file, and leaves it untouched', async () => {
    const dir = tmp();
    const text = `${V1_LINES[0]}\n{"v":99,"e":"marks","prices":{"190634936":1}}\n`;
    writeFileSync(join(dir, JOURNAL_FILE), text);
    await expect(startTestBroker({ dataDir: dir })).rejects.toThrow(
      `Cannot read the paper journal ${join(dir, JOURNAL_FILE)}: it holds a record in format 99`,
    );
    expect(readFileSync(join(dir, JOURNAL_FILE), 'utf8')).toBe(text);
  });

  it("after a restart the next day, carries yesterday's open position with yesterday's last price as the close", async () => {
    const dir = tmp();
    // Wed 25 and Thu 26 Nov 2026, two trading days in a row.
    let now = Date.parse('2026-11-25T15:00:00+05:30');
    const opts = { dataDir: dir, clock: () => now, tokenTtlMs: 7 * 24 * 3600_000 };
    const a = await startTestBroker(opts);
    // The far month: the near one may expire in between and leave the universe with the restart.
    const futs = (await a.call('GET', '/instruments?exchange=NFO')).body.instruments.filter(
      (i: { tradingsymbol: string }) => /^NIFTY\d\d[A-Z]{3}FUT$/.test(i.tradingsymbol),
    );
    const fut = futs[futs.length - 1];
    await a.fillAt({ exchange: 'NFO', tradingsymbol: fut.tradingsymbol, product: 'NRML', quantity: 75 }, 26000);
    a.broker.setPrice(fut.instrument_token, 26100);
    await a.close();

    now = Date.parse('2026-11-26T09:30:00+05:30');
    const b = await startTestBroker(opts);
    try {
      b.broker.setPrice(fut.instrument_token, 26080);
      expect((await b.call('GET', '/positions')).body.positions).toEqual([
        expect.objectContaining({
          quantity: 75,
          overnight_quantity: 75,
          close_price: 26100,
          pnl: 75 * 80,
          m2m: 75 * -20,
        }),
      ]);
    } finally {
      await b.close();
    }
  });

  it('after a restart past a close, the close happens then: the DAY order is cancelled and the MIS position squared off at the saved price', async () => {
    const dir = tmp();
    let now = Date.parse('2026-11-23T15:00:00+05:30');
    const opts = { dataDir: dir, clock: () => now, tokenTtlMs: 7 * 24 * 3600_000 };
    const a = await startTestBroker(opts);
    const infy = await a.instrument('NSE', 'INFY');
    await a.fillAt({ quantity: 10 }, 1500);
    const resting = await a.place({ order_type: 'LIMIT', price: 1400 });
    a.broker.setPrice(infy.instrument_token, 1520);
    await a.close();

    now = Date.parse('2026-11-25T09:30:00+05:30');
    const b = await startTestBroker(opts);
    try {
      expect(await b.order(resting.body.order_id)).toMatchObject({
        status: 'CANCELLED',
        status_message: 'Cancelled at the close: a DAY order lives one session',
      });
      const squareOff = (await b.call('GET', '/orders')).body.orders.find(
        (o: { status_message: string | null }) => o.status_message === 'Squared off at the close (MIS)',
      );
      expect(squareOff).toMatchObject({ transaction_type: 'SELL', quantity: 10, average_price: 1520 });
      expect((await b.call('GET', '/positions')).body.positions).toEqual([]);
      expect((await b.call('GET', '/funds')).body.funds).toMatchObject({ used_margin: 0, realised_pnl: 200 });
    } finally {
      await b.close();
    }
  });
});

import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import initSqlJs from 'sql.js/dist/sql-wasm-inline.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JournalTrade, JournalView } from '@shared/domain/journal';
import type { Trade } from '@shared/domain/order';
import { estimateCharges } from '@shared/trading/charges';
import { createDispatcher } from './dispatcher';
import { createAppServices, type AppServices } from './app-services';

/**
 * The journal over the bridge against the real paper broker (docs/journal.md): a day of trades
 * read from the trade book into closed trades with the right P&L, charges and net, a stop order's
 * trigger as the R multiple's stop, the chart taken at the exit, notes kept across a restart,
 * a Console tradebook imported once (a second import adds nothing), and bad input named.
 */

let dir: string;
let services: AppServices;
let dispatch: ReturnType<typeof createDispatcher>;

async function ok<T>(p: Promise<{ ok: boolean; data?: unknown; error?: { message: string } }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(r.error?.message ?? 'failed');
  return r.data as T;
}

async function start(): Promise<void> {
  services = await createAppServices({ dataDir: dir, paper: { tickIntervalMs: 0, control: true } });
  dispatch = createDispatcher(services.handlers);
}

const order = (side: 'BUY' | 'SELL', quantity: number, extra: Record<string, unknown> = {}) =>
  ok<{ state: string; orderId: string }>(
    dispatch('orders.place', {
      order: {
        exchange: 'NSE',
        tradingsymbol: 'INFY',
        transactionType: side,
        quantity,
        orderType: 'MARKET',
        product: 'MIS',
        validity: 'DAY',
        ...extra,
      },
    }),
  );

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'td-journal-app-'));
  await start();
});
afterAll(async () => {
  await services.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the journal over the bridge', () => {
  it('closes a day of trades FIFO with their P&L, charges and net, and takes the chart at each exit', async () => {
    await order('BUY', 10);
    await order('BUY', 5);
    // A stop below the entry guards the position (it never triggers): its trigger is the trade's stop.
    const trades0 = await ok<Trade[]>(dispatch('trades.list', undefined));
    const entry = trades0[0]!.price;
    const trigger = Math.round(entry * 0.95 * 20) / 20;
    const stop = await order('SELL', 15, { orderType: 'SL-M', triggerPrice: trigger });
    await order('SELL', 12);
    await ok(dispatch('orders.cancel', { orderId: stop.orderId }));
    await order('SELL', 3);

    const sync = await ok<{ added: number }>(dispatch('journal.sync', undefined));
    expect(sync.added).toBe(4);
    const view = await ok<JournalView>(dispatch('journal.view', {}));
    expect(view.fills).toBe(4);
    expect(view.open).toEqual([]);
    expect(view.trades).toHaveLength(2);

    const fills = await ok<Trade[]>(dispatch('trades.list', undefined));
    const [b1, b2, s1, s2] = [...fills].sort((a, b) => Date.parse(a.filledAt) - Date.parse(b.filledAt));
    const [last, first] = view.trades as [JournalTrade, JournalTrade];
    // The first exit (12) closes the first buy's 10 and 2 of the second's; the second (3) the rest.
    expect(first.quantity).toBe(12);
    expect(first.pnl).toBeCloseTo((s1!.price - b1!.price) * 10 + (s1!.price - b2!.price) * 2, 6);
    expect(last.quantity).toBe(3);
    expect(last.pnl).toBeCloseTo((s2!.price - b2!.price) * 3, 6);
    // Charges: every order's estimate shared out by the quantity each trade took of it.
    const charge = (t: Trade) => estimateCharges([{ ...t, multiplier: 1 }]).total;
    expect(first.charges + last.charges).toBeCloseTo(charge(b1!) + charge(b2!) + charge(s1!) + charge(s2!), 6);
    expect(first.net).toBeCloseTo(first.pnl - first.charges, 9);
    // The stop order gave both trades their stop, hence an R multiple.
    expect(first.notes.stopLoss).toBe(trigger);
    expect(first.stopSource).toBe('order');
    expect(first.rMultiple).toBeCloseTo(first.pnl / ((first.entryPrice - trigger) * 12), 9);

    expect(first.hasPicture).toBe(true);
    const picture = await ok<{ svg: string } | null>(dispatch('journal.picture', { tradeId: first.id }));
    expect(picture?.svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(picture?.svg).toContain('INFY');
  });

  it('syncs by itself after fills and says so; reading the book again adds nothing', async () => {
    const changed = vi.fn();
    const off = services.events.on('journal.changed', changed);
    const before = (await ok<JournalView>(dispatch('journal.view', {}))).fills;
    await order('BUY', 1);
    await vi.waitFor(() => expect(changed).toHaveBeenCalled(), { timeout: 10_000 });
    off();
    expect((await ok<JournalView>(dispatch('journal.view', {}))).fills).toBe(before + 1);
    expect(await ok(dispatch('journal.sync', undefined))).toMatchObject({ added: 0 });
    await order('SELL', 1);
    await ok(dispatch('journal.sync', undefined));
  });

  it('keeps the trader’s tags, note and stop across a restart, and names bad input', async () => {
    const [trade] = (await ok<JournalView>(dispatch('journal.view', {}))).trades;
    const updated = await ok<JournalTrade>(
      dispatch('journal.update', {
        tradeId: trade!.id,
        notes: { tags: ['scalp', 'scalp', 'open drive'], note: 'Chased the move', stopLoss: trade!.entryPrice - 10 },
      }),
    );
    expect(updated.notes.tags).toEqual(['scalp', 'open drive']);
    expect(updated.stopSource).toBe('trader');
    expect(updated.rMultiple).toBeCloseTo(updated.pnl / (10 * updated.quantity), 9);

    const bad = await dispatch('journal.update', {
      tradeId: trade!.id,
      notes: { tags: ['<b>'], note: '', stopLoss: null },
    });
    expect(bad).toMatchObject({ ok: false, error: { kind: 'bad_request' } });
    expect(JSON.stringify(bad)).toMatch(/notes\.tags\.0/);
    expect(
      await dispatch('journal.update', { tradeId: 'NSE:NOPE:MIS:1', notes: { tags: [], note: '', stopLoss: null } }),
    ).toMatchObject({
      ok: false,
      error: { kind: 'not_found', field: 'tradeId' },
    });

    await services.close();
    await start();
    const again = (await ok<JournalView>(dispatch('journal.view', {}))).trades.find((t) => t.id === trade!.id);
    expect(again?.notes).toEqual({
      tags: ['scalp', 'open drive'],
      note: 'Chased the move',
      stopLoss: trade!.entryPrice - 10,
    });
  });

  it('imports a Console tradebook once: its trades join the journal, a second import adds nothing', async () => {
    const csv = [
      'symbol,isin,trade_date,exchange,segment,series,trade_type,auction,quantity,price,trade_id,order_id,order_execution_time',
      'TCS,INE467B01029,2026-10-05,NSE,EQ,EQ,buy,false,4.000000,3900.000000,C1,CO1,2026-10-05T10:00:00',
      'TCS,INE467B01029,2026-10-05,NSE,EQ,EQ,sell,false,4.000000,3925.500000,C2,CO2,2026-10-05T14:30:00',
    ].join('\n');
    const first = await ok(dispatch('journal.importCsv', { csv, equityProduct: 'MIS' }));
    expect(first).toMatchObject({ added: 2, duplicates: 0, rejected: [] });
    expect(await ok(dispatch('journal.importCsv', { csv, equityProduct: 'MIS' }))).toMatchObject({
      added: 0,
      duplicates: 2,
    });
    const october = await ok<JournalView>(dispatch('journal.view', { from: '2026-10-01', to: '2026-10-31' }));
    expect(october.trades.map((t) => [t.tradingsymbol, t.quantity, t.pnl])).toEqual([
      ['TCS', 4, expect.closeTo(102, 9)],
    ]);
    expect(await dispatch('journal.importCsv', { csv: 'a,b\n1,2', equityProduct: 'MIS' })).toMatchObject({
      ok: false,
      error: { kind: 'bad_request', field: 'csv' },
    });
  });

  it('an import with one bad row imports nothing and names each bad row by line and field; the journal still reads, across a restart', async () => {
    const before = (await ok<JournalView>(dispatch('journal.view', {}))).fills;
    const csv = [
      'symbol,isin,trade_date,exchange,segment,series,trade_type,auction,quantity,price,trade_id,order_id,order_execution_time',
      'TCS,INE467B01029,2026-10-06,NSE,EQ,EQ,buy,false,4,3900,D1,DO1,2026-10-06T10:00:00',
      'TCS,INE467B01029,2026-10-06,NSE,EQ,EQ,sell,false,9007199254740993,3925.5,D2,DO2,2026-10-06T14:30:00',
      'TCS,INE467B01029,2026-10-06,NSE,EQ,EQ,buy,false,1e3,3900,D3,DO3,2026-10-06T10:00:00',
      'TCS,INE467B01029,2026-10-06,NSE,EQ,EQ,buy,false,1,1e308,D4,DO4,2026-10-06T10:00:00',
      'TCS,INE467B01029,2026-10-06,NSE,EQ,EQ,buy,false,1,3900.03,D5,DO5,2026-10-06T10:00:00',
    ].join('\n');
    const r = await dispatch('journal.importCsv', { csv, equityProduct: 'MIS' });
    expect(r).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'csv' } });
    const error = (r as { error: { message: string; fields: { field: string; message: string }[] } }).error;
    expect(error.message).toMatch(/^Nothing imported: 4 lines cannot be read/);
    expect(error.fields.map((f) => f.field)).toEqual([
      'lines.3.quantity',
      'lines.4.quantity',
      'lines.5.price',
      'lines.6.price',
    ]);
    expect(error.fields[3]?.message).toMatch(/off the ₹0.05 tick/);
    expect((await ok<JournalView>(dispatch('journal.view', {}))).fills).toBe(before);
    await services.close();
    await start();
    expect((await ok<JournalView>(dispatch('journal.view', {}))).fills).toBe(before);
  });

  it("a journal holding a row it cannot read says which and why, and moves aside on the trader's word: a new journal starts, the old file is kept", async () => {
    await services.close();
    const [name] = (await readdir(dir)).filter((f) => /^journal-.*\.sqlite$/.test(f));
    const file = join(dir, name ?? 'missing');
    const SQL = await initSqlJs();
    const db = new SQL.Database(await readFile(file));
    // A row as an earlier version stored it: a quantity past the safe integers.
    db.run(
      `INSERT INTO fills VALUES ('NSE:BAD1', 'BO1', 'NSE', 'TCS', 'MIS', 'SELL', 9007199254740993, 3925.5, 1, ${Date.parse('2026-10-06T09:00:00Z')}, 'csv')`,
    );
    await writeFile(file, db.export());
    db.close();
    await start();
    const read = await dispatch('journal.view', {});
    expect(read).toMatchObject({
      ok: false,
      error: {
        kind: 'conflict',
        field: 'journal',
        message: expect.stringMatching(
          /fill NSE:BAD1 cannot be read \(quantity: .*\)\. Move it aside to start a new journal/,
        ),
      },
    });
    const moved = await ok<{ keptAs: string }>(dispatch('journal.moveAside', undefined));
    expect(moved.keptAs).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.damaged-\\d+$`));
    expect((await readFile(moved.keptAs)).length).toBeGreaterThan(0);
    expect(await ok<JournalView>(dispatch('journal.view', {}))).toMatchObject({ fills: 0, trades: [] });
    // Refused while the journal reads: nothing to move.
    expect(await dispatch('journal.moveAside', undefined)).toMatchObject({ ok: false, error: { kind: 'conflict' } });
  });
});

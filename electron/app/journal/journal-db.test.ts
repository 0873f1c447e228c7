import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js/dist/sql-wasm-inline.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JournalFill } from '@shared/domain/journal';
import { JournalDb } from './journal-db';
import { migrate, MIGRATIONS, SCHEMA_VERSION, schemaVersion, type Migration } from './migrations';

/**
 * The journal's database on disk (docs/journal.md §The database): versioned migrations — a new
 * file, an older one brought up to date with its data, a newer one refused untouched, a failed
 * step rolled back — and durable writes: each change is on disk when its call returns, and a
 * write a crash cut short leaves the last whole journal.
 */

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'td-journal-'));
  path = join(dir, 'journal-paper.sqlite');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const FILL: JournalFill = {
  fillId: 'NSE:T1',
  orderId: 'O1',
  exchange: 'NSE',
  tradingsymbol: 'INFY',
  product: 'MIS',
  side: 'BUY',
  quantity: 10,
  price: 1500.5,
  multiplier: 1,
  filledAt: Date.parse('2026-11-23T09:20:00+05:30'),
  source: 'broker',
};

/** The schema version and tables of the file on disk, read with sql.js directly. */
async function onDisk(): Promise<{ version: number; tables: string[]; fills: number }> {
  const SQL = await initSqlJs();
  const db = new SQL.Database(await readFile(path));
  const tables = (db.exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")[0]?.values ?? []).map(
    (r) => String(r[0]),
  );
  const fills = Number(db.exec('SELECT count(*) FROM fills')[0]?.values[0]?.[0] ?? 0);
  const version = schemaVersion(db);
  db.close();
  return { version, tables, fills };
}

describe('migrations', () => {
  it('a new journal is created at the current version, every table there', async () => {
    const j = await JournalDb.open(path);
    await j.close();
    expect(await onDisk()).toEqual({
      version: SCHEMA_VERSION,
      tables: ['fills', 'meta', 'pictures', 'trade_notes'],
      fills: 0,
    });
    expect(SCHEMA_VERSION).toBe(2);
    // Versions are 1, 2, … with no gap: each is applied after the one before.
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, n) => n + 1));
  });

  it('a journal written at version 1 is brought to the current version with its fills and notes kept', async () => {
    const SQL = await initSqlJs();
    const old = new SQL.Database();
    expect(migrate(old, MIGRATIONS, 1)).toEqual([1]);
    old.run(
      `INSERT INTO fills VALUES ('NSE:T1', 'O1', 'NSE', 'INFY', 'MIS', 'BUY', 10, 1500.5, 1, ${FILL.filledAt}, 'broker')`,
    );
    old.run(`INSERT INTO trade_notes VALUES ('NSE:INFY:MIS:O2', '["breakout"]', 'kept', 1490, 'trader', 1)`);
    await writeFile(path, old.export());
    old.close();
    expect((await onDisk()).version).toBe(1);

    const j = await JournalDb.open(path);
    expect(j.fills()).toEqual([FILL]);
    expect(j.notes().get('NSE:INFY:MIS:O2')).toEqual({
      notes: { tags: ['breakout'], note: 'kept', stopLoss: 1490 },
      stopSource: 'trader',
    });
    // The new version's tables work.
    await j.setPicture('NSE:INFY:MIS:O2', '<svg/>', 5);
    await j.close();
    expect(await onDisk()).toMatchObject({ version: 2, fills: 1 });

    // Opening again applies nothing and changes nothing.
    const before = await readFile(path);
    await (await JournalDb.open(path)).close();
    expect(Buffer.compare(before, await readFile(path))).toBe(0);
  });

  it('a journal from a newer version of the app is refused, and left exactly as it was', async () => {
    const SQL = await initSqlJs();
    const newer = new SQL.Database();
    migrate(newer);
    newer.exec('PRAGMA user_version = 99');
    await writeFile(path, newer.export());
    newer.close();
    const before = await readFile(path);
    await expect(JournalDb.open(path)).rejects.toThrow(
      /newer version of Tradedesk \(schema 99; this one knows up to 2\)/,
    );
    expect(Buffer.compare(before, await readFile(path))).toBe(0);
  });

  it('a file that is not a journal is refused, naming it, and not overwritten', async () => {
    await writeFile(path, 'not a database, but a trader’s notes they care about');
    await expect(JournalDb.open(path)).rejects.toThrow(new RegExp(`The journal ${path} cannot be opened`));
    expect(await readFile(path, 'utf8')).toBe('not a database, but a trader’s notes they care about');
  });

  it('an empty (0-byte) file is refused as damaged, saying so, and left as it was: never silently replaced by a new journal', async () => {
    await writeFile(path, '');
    await expect(JournalDb.open(path)).rejects.toThrow(/cannot be opened: the file is empty \(0 bytes\)/);
    expect((await readFile(path)).length).toBe(0);
  });

  it('a fill it could not read back is never stored (a quantity past the safe integers)', async () => {
    const j = await JournalDb.open(path);
    await expect(j.addFills([{ ...FILL, quantity: 9007199254740993 }])).rejects.toThrow(
      /Fill NSE:T1 not stored: quantity/,
    );
    expect(j.fills()).toEqual([]);
    await j.close();
  });

  it('a step that fails is rolled back: the database stays at the version before it', async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    const broken: Migration[] = [
      ...MIGRATIONS,
      { version: 3, name: 'broken', sql: 'CREATE TABLE t (a); INSERT INTO no_such_table VALUES (1)' },
    ];
    expect(() => migrate(db, broken)).toThrow(/Journal migration 3 \(broken\) failed/);
    expect(schemaVersion(db)).toBe(2);
    expect(db.exec("SELECT name FROM sqlite_master WHERE name = 't'")).toEqual([]);
    db.close();
  });
});

describe('durability', () => {
  it('a change is on disk when its call returns: another open of the file sees it', async () => {
    const j = await JournalDb.open(path);
    expect(await j.addFills([FILL, FILL])).toEqual({ added: 1, duplicates: 1 });
    expect((await onDisk()).fills).toBe(1);
    await j.setNotes('NSE:INFY:MIS:O2', { notes: { tags: ['x'], note: 'n', stopLoss: null }, stopSource: null }, 1);
    const again = await JournalDb.open(path);
    expect(again.notes().get('NSE:INFY:MIS:O2')?.notes.tags).toEqual(['x']);
    await again.close();
    await j.close();
  });

  it('goes to a side file first: a crash before the rename leaves the last whole journal, and the side file is dropped', async () => {
    // What is on disk at each step, looked at there and then (the step is reported synchronously).
    const seen: Array<{ step: string; side: Buffer | null; journal: Buffer | null }> = [];
    const read = (p: string): Buffer | null => (existsSync(p) ? readFileSync(p) : null);
    const j = await JournalDb.open(path, {
      onStep: (step) => seen.push({ step, side: read(`${path}.tmp`), journal: read(path) }),
    });
    await j.addFills([FILL]);
    await j.close();
    const SQL = await initSqlJs();
    const fillsIn = (bytes: Buffer | null): number | null => {
      if (!bytes) return null;
      const db = new SQL.Database(bytes);
      const n = Number(db.exec('SELECT count(*) FROM fills')[0]?.values[0]?.[0]);
      db.close();
      return n;
    };
    // The new fill is whole in the side file while the journal still holds the last whole state;
    // the rename then puts it in the journal and leaves no side file.
    expect(seen.slice(-2).map((s) => ({ step: s.step, side: fillsIn(s.side), journal: fillsIn(s.journal) }))).toEqual([
      { step: 'written', side: 1, journal: 0 },
      { step: 'renamed', side: null, journal: 1 },
    ]);
    // A crash mid-write leaves a torn side file beside the journal.
    await writeFile(`${path}.tmp`, 'half a datab');
    const reopened = await JournalDb.open(path);
    expect(reopened.fills()).toEqual([FILL]);
    await reopened.close();
    await expect(readFile(`${path}.tmp`)).rejects.toThrow(/ENOENT/);
  });
});

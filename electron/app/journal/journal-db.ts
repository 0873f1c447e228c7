import { readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import initSqlJs from 'sql.js/dist/sql-wasm-inline.js';
import type { Database, SqlValue } from 'sql.js';
import type { JournalFill, TradeNotes } from '@shared/domain/journal';
import { JournalFill as JournalFillSchema, TradeNotes as TradeNotesSchema } from '@shared/domain/journal';
import { replaceFileDurably, type ReplaceStep } from '../../core/storage/durable-file';
import { makePrivateDir } from '../../wire/private-files';
import { migrate } from './migrations';

/**
 * The trader's journal database, one file per profile (docs/journal.md §The database): SQLite
 * compiled to WebAssembly (sql.js), so the same code runs in Electron's main process and in plain
 * Node with nothing native to build. The database lives in memory; every change is written out
 * whole — to a side file that is fsynced, renamed over the old one, the directory fsynced — before
 * the call that made it returns, so a crash leaves the last committed journal, never a torn one.
 */

let engine: ReturnType<typeof initSqlJs> | null = null;
/** sql.js's engine, loaded once per process (≈15 ms). */
const sqlJs = (): ReturnType<typeof initSqlJs> => (engine ??= initSqlJs());

/**
 * A journal file the app cannot use as it is: empty, not a database, from a newer app, or
 * holding a row it cannot read. It says what is wrong; the trader may move it aside
 * (docs/journal.md §A damaged journal), and it is never overwritten.
 */
export class JournalDamaged extends Error {
  public constructor(
    public readonly path: string,
    what: string,
  ) {
    super(`The journal ${path} cannot be opened: ${what}`);
    this.name = 'JournalDamaged';
  }
}

/** Notes as kept, with where the stop-loss came from. */
export interface StoredNotes {
  readonly notes: TradeNotes;
  readonly stopSource: 'trader' | 'order' | null;
}

export class JournalDb {
  readonly #db: Database;
  readonly #path: string;
  readonly #onStep: ((step: ReplaceStep) => void) | undefined;
  #saving: Promise<void> = Promise.resolve();
  #closed = false;

  private constructor(db: Database, path: string, onStep?: (step: ReplaceStep) => void) {
    this.#db = db;
    this.#path = path;
    this.#onStep = onStep;
  }

  /**
   * Opens (or creates) the journal at `path` and brings its schema up to date. A side file a crash
   * left mid-write is discarded (the file it was to replace is whole). A file that is not a
   * journal, or one from a newer app, is refused with an error naming it — never overwritten.
   */
  public static async open(
    path: string,
    options: { readonly onStep?: (step: ReplaceStep) => void } = {},
  ): Promise<JournalDb> {
    const SQL = await sqlJs();
    await makePrivateDir(dirname(path));
    await rm(`${path}.tmp`, { force: true });
    let bytes: Uint8Array | undefined;
    try {
      bytes = await readFile(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    // An empty file is not a new journal: something cut it short (a full disk, another program),
    // and replacing it would hide that the trader's record is gone.
    if (bytes?.length === 0) throw new JournalDamaged(path, 'the file is empty (0 bytes)');
    const db = new SQL.Database(bytes);
    try {
      // A file that is not SQLite fails here, on its first read.
      db.exec('PRAGMA foreign_keys = ON');
      const applied = migrate(db);
      const journal = new JournalDb(db, path, options.onStep);
      if (applied.length > 0 || bytes === undefined) await journal.#persist();
      return journal;
    } catch (err) {
      db.close();
      throw new JournalDamaged(path, err instanceof Error ? err.message : String(err));
    }
  }

  /**
   * Adds fills not yet in the journal (by fill id); the rest are counted as duplicates. A fill the
   * journal could not read back (a quantity past the safe integers) is refused before anything
   * is stored: one such row once made every later read fail.
   */
  public async addFills(fills: readonly JournalFill[]): Promise<{ added: number; duplicates: number }> {
    for (const f of fills) {
      const r = JournalFillSchema.safeParse(f);
      if (!r.success) {
        const issue = r.error.issues[0];
        throw new Error(`Fill ${f.fillId} not stored: ${issue?.path.join('.') ?? '?'}: ${issue?.message ?? '?'}`);
      }
    }
    let added = 0;
    this.#write(() => {
      const insert = this.#db.prepare(
        `INSERT OR IGNORE INTO fills (fill_id, order_id, exchange, tradingsymbol, product, side, quantity, price, multiplier, filled_at, source)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      try {
        for (const f of fills) {
          insert.run([
            f.fillId,
            f.orderId,
            f.exchange,
            f.tradingsymbol,
            f.product,
            f.side,
            f.quantity,
            f.price,
            f.multiplier,
            f.filledAt,
            f.source,
          ]);
          added += this.#db.getRowsModified();
        }
      } finally {
        insert.free();
      }
    });
    if (added > 0) await this.#persist();
    return { added, duplicates: fills.length - added };
  }

  /** Removes fills by id (a carried-in lot that the real fills now explain). */
  public async removeFills(ids: readonly string[]): Promise<number> {
    let removed = 0;
    this.#write(() => {
      for (const id of ids) {
        this.#db.run('DELETE FROM fills WHERE fill_id = ?', [id]);
        removed += this.#db.getRowsModified();
      }
    });
    if (removed > 0) await this.#persist();
    return removed;
  }

  /** Every fill, oldest first. */
  public fills(): JournalFill[] {
    return this.#rows(
      'SELECT fill_id, order_id, exchange, tradingsymbol, product, side, quantity, price, multiplier, filled_at, source FROM fills ORDER BY filled_at, fill_id',
    ).map((r) => {
      const row = JournalFillSchema.safeParse({
        fillId: r[0],
        orderId: r[1],
        exchange: r[2],
        tradingsymbol: r[3],
        product: r[4],
        side: r[5],
        quantity: r[6],
        price: r[7],
        multiplier: r[8],
        filledAt: r[9],
        source: r[10],
      });
      if (row.success) return row.data;
      const issue = row.error.issues[0];
      throw new JournalDamaged(
        this.#path,
        `fill ${String(r[0]).slice(0, 96)} cannot be read (${issue?.path.join('.') ?? '?'}: ${issue?.message ?? '?'})`,
      );
    });
  }

  /** Every trade's notes, by trade id. */
  public notes(): Map<string, StoredNotes> {
    const out = new Map<string, StoredNotes>();
    for (const r of this.#rows('SELECT trade_id, tags, note, stop_loss, stop_source FROM trade_notes')) {
      out.set(String(r[0]), {
        notes: TradeNotesSchema.parse({ tags: JSON.parse(String(r[1])), note: r[2], stopLoss: r[3] }),
        stopSource: r[4] === 'trader' || r[4] === 'order' ? r[4] : null,
      });
    }
    return out;
  }

  /** Keeps a trade's notes (replacing what was there). */
  public async setNotes(tradeId: string, stored: StoredNotes, at: number): Promise<void> {
    this.#write(() =>
      this.#db.run(
        `INSERT INTO trade_notes (trade_id, tags, note, stop_loss, stop_source, updated_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (trade_id) DO UPDATE SET tags = excluded.tags, note = excluded.note, stop_loss = excluded.stop_loss,
           stop_source = excluded.stop_source, updated_at = excluded.updated_at`,
        [
          tradeId,
          JSON.stringify(stored.notes.tags),
          stored.notes.note,
          stored.notes.stopLoss,
          stored.notes.stopLoss === null ? null : stored.stopSource,
          at,
        ],
      ),
    );
    await this.#persist();
  }

  /** Ids of the trades that have a picture. */
  public pictureIds(): Set<string> {
    return new Set(this.#rows('SELECT trade_id FROM pictures').map((r) => String(r[0])));
  }

  public picture(tradeId: string): { svg: string; takenAt: number } | null {
    const [r] = this.#rows('SELECT svg, taken_at FROM pictures WHERE trade_id = ?', [tradeId]);
    return r ? { svg: String(r[0]), takenAt: Number(r[1]) } : null;
  }

  public async setPicture(tradeId: string, svg: string, takenAt: number): Promise<void> {
    this.#write(() =>
      this.#db.run('INSERT OR REPLACE INTO pictures (trade_id, svg, taken_at) VALUES (?, ?, ?)', [
        tradeId,
        svg,
        takenAt,
      ]),
    );
    await this.#persist();
  }

  public meta(key: string): string | null {
    const [r] = this.#rows('SELECT value FROM meta WHERE key = ?', [key]);
    return r ? String(r[0]) : null;
  }

  public async setMeta(key: string, value: string): Promise<void> {
    this.#write(() => this.#db.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [key, value]));
    await this.#persist();
  }

  /** Waits for the last write to reach the disk, then frees the database. */
  public async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#saving.catch(() => undefined);
    this.#db.close();
  }

  #rows(sql: string, params: SqlValue[] = []): SqlValue[][] {
    const [result] = this.#db.exec(sql, params);
    return result?.values ?? [];
  }

  /** One change, all or nothing in memory. */
  #write(change: () => void): void {
    if (this.#closed) throw new Error('The journal is closed');
    this.#db.exec('BEGIN');
    try {
      change();
      this.#db.exec('COMMIT');
    } catch (err) {
      this.#db.exec('ROLLBACK');
      throw err;
    }
  }

  /**
   * Writes the database out; resolves once this change is on disk. Writes follow one another: a
   * later export always carries every earlier change, so the file only moves forward.
   */
  #persist(): Promise<void> {
    const next = this.#saving
      .catch(() => undefined)
      .then(() => replaceFileDurably(this.#path, this.#db.export(), this.#onStep));
    this.#saving = next;
    return next;
  }
}

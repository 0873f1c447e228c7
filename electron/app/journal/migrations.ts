import type { Database } from 'sql.js';

/**
 * The journal database's schema, version by version (docs/journal.md §The database). A version
 * is never edited once released: a change is a new version appended here. The database records
 * the version it is at (`PRAGMA user_version`); opening it applies every later version in order,
 * each in one transaction with the version it brings, so a failed step leaves the file at the
 * version before it.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'fills and the trader’s notes',
    sql: `
      CREATE TABLE fills (
        fill_id       TEXT PRIMARY KEY,
        order_id      TEXT NOT NULL,
        exchange      TEXT NOT NULL,
        tradingsymbol TEXT NOT NULL,
        product       TEXT NOT NULL,
        side          TEXT NOT NULL CHECK (side IN ('BUY', 'SELL')),
        quantity      INTEGER NOT NULL CHECK (quantity > 0),
        price         REAL NOT NULL CHECK (price >= 0),
        multiplier    REAL NOT NULL CHECK (multiplier > 0),
        filled_at     INTEGER NOT NULL,
        source        TEXT NOT NULL CHECK (source IN ('broker', 'csv', 'carried'))
      );
      CREATE INDEX fills_by_instrument ON fills (exchange, tradingsymbol, product, filled_at);
      CREATE TABLE trade_notes (
        trade_id    TEXT PRIMARY KEY,
        tags        TEXT NOT NULL DEFAULT '[]',
        note        TEXT NOT NULL DEFAULT '',
        stop_loss   REAL,
        stop_source TEXT CHECK (stop_source IN ('trader', 'order')),
        updated_at  INTEGER NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'the chart at the exit, and when the trade book was last read',
    sql: `
      CREATE TABLE pictures (
        trade_id TEXT PRIMARY KEY,
        svg      TEXT NOT NULL,
        taken_at INTEGER NOT NULL
      );
      CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
];

/** The version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** The version a database is at (0: empty, never migrated). */
export function schemaVersion(db: Database): number {
  const [row] = db.exec('PRAGMA user_version');
  return Number(row?.values[0]?.[0] ?? 0);
}

/**
 * Brings `db` to `target` (default: the last version given), applying each later migration in its
 * own transaction. Refuses a database from a newer version of the app rather than write to a
 * schema it does not know. Returns the versions applied.
 */
export function migrate(
  db: Database,
  migrations: readonly Migration[] = MIGRATIONS,
  target = migrations[migrations.length - 1]?.version ?? 0,
): number[] {
  const at = schemaVersion(db);
  const newest = migrations[migrations.length - 1]?.version ?? 0;
  if (at > newest) {
    throw new Error(
      `The journal was written by a newer version of Tradedesk (schema ${at}; this one knows up to ${newest}): update the app to open it`,
    );
  }
  const applied: number[] = [];
  for (const m of migrations) {
    if (m.version <= at || m.version > target) continue;
    db.exec('BEGIN');
    try {
      db.exec(m.sql);
      db.exec(`PRAGMA user_version = ${m.version}`);
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw new Error(
        `Journal migration ${m.version} (${m.name}) failed: ${err instanceof Error ? err.message : String(err)}`,
        {
          cause: err,
        },
      );
    }
    applied.push(m.version);
  }
  return applied;
}

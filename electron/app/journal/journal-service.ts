import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Instrument } from '@shared/domain/instrument';
import type {
  JournalFill,
  JournalImport,
  JournalRange,
  JournalTrade,
  JournalView,
  TradeNotes,
} from '@shared/domain/journal';
import type { Order } from '@shared/domain/order';
import { AppError } from '@shared/ipc/app-error';
import { chartPicture } from '@shared/journal/chart-picture';
import { matchFifo } from '@shared/journal/fifo';
import { parseConsoleTradebook, type RejectedLine } from '@shared/journal/journal-csv';
import { tickProblem } from '@shared/trading/rules';
import { rMultiple } from '@shared/journal/stats';
import { istDate, istDayStart, toIstIso } from '@shared/lib/ist-time';
import type { Broker } from '../../broker/broker';
import { JournalDamaged, JournalDb, type StoredNotes } from './journal-db';

/** What the journal needs of the logged-in account. */
export interface JournalAccount {
  readonly broker: Pick<Broker, 'listTrades' | 'listOrders' | 'listPositions' | 'marketStatus' | 'getCandles'>;
  readonly find: (exchange: Instrument['exchange'], tradingsymbol: string) => Promise<Instrument | undefined>;
}

export interface JournalServiceOptions {
  /** The app's data folder: the journal is `journal-<profile>.sqlite` in it. */
  readonly dataDir: string;
  readonly now?: () => number;
  readonly log?: (message: string) => void;
  /** Told when a sync changed the journal (`journal.changed`). */
  readonly onChanged?: () => void;
  /** How long after a fill the journal reads the trade book (default 3 s: a burst of fills is one read). */
  readonly syncDelayMs?: number;
}

/** Pictures are taken of exits at most this old (older candles may be gone), and at most this many per sync. */
const PICTURE_WITHIN_MS = 3 * 24 * 3_600_000;
const PICTURES_PER_SYNC = 5;
const DAY_MS = 24 * 3_600_000;

const keyOf = (f: { exchange: string; tradingsymbol: string; product: string }): string =>
  `${f.exchange}:${f.tradingsymbol}:${f.product}`;

/** A profile key as a file-name part. */
/** Every journal call's refusal while the file is damaged: what is wrong, and the way out. */
function damaged(err: JournalDamaged): AppError {
  return new AppError({
    kind: 'conflict',
    field: 'journal',
    message: `${err.message}. Move it aside to start a new journal; the file is kept beside it`,
  });
}

/** An import refused as a whole: each line that cannot be read, by line and column. */
function nothingImported(rejected: readonly RejectedLine[]): AppError {
  const sorted = [...rejected].sort((a, b) => a.line - b.line);
  const n = sorted.length;
  const first = sorted
    .slice(0, 3)
    .map((r) => `line ${r.line}, ${r.field}: ${r.message}`)
    .join('; ');
  return new AppError({
    kind: 'bad_request',
    field: 'csv',
    message: `Nothing imported: ${n} line${n === 1 ? '' : 's'} cannot be read — ${first}${n > 3 ? `; and ${n - 3} more` : ''}`,
    fields: sorted.map((r) => ({ field: `lines.${r.line}.${r.field}`, message: r.message })),
  });
}

const safeName = (key: string): string => key.replace(/[^A-Za-z0-9-]+/g, '-').slice(0, 80);

/**
 * The trader's journal in main (docs/journal.md): one database per broker profile, opened at
 * login. It reads the broker's trade book into fills (at once after fills arrive, and when asked),
 * makes closed trades of them FIFO, keeps the trader's tags, notes and stop-losses, finds the stop
 * a stop order gave a trade, and takes a picture of the chart at each exit.
 */
export class JournalService {
  readonly #options: JournalServiceOptions;
  readonly #now: () => number;
  #profile: string | null = null;
  #db: Promise<JournalDb> | null = null;
  #syncing: Promise<JournalImport> | null = null;
  /** The file of the open profile's journal when it was found damaged, until it is moved aside. */
  #damaged: string | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #account: (() => JournalAccount) | null = null;
  /** Whether this login's positions were checked for carried-in lots (once a login, and on every Sync now). */
  #carriedChecked = false;
  /** Trades a picture was tried for this login (one try each: a trade without candles is not asked again). */
  readonly #pictured = new Set<string>();

  public constructor(options: JournalServiceOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Opens the journal of `profileKey` (closing another profile's); `account` reaches its broker for syncs. */
  public async load(profileKey: string, account: () => JournalAccount): Promise<void> {
    this.#account = account;
    if (this.#profile === profileKey && this.#db) return;
    await this.close();
    this.#damaged = null;
    this.#carriedChecked = false;
    this.#pictured.clear();
    this.#profile = profileKey;
    const path = join(this.#options.dataDir, `journal-${safeName(profileKey)}.sqlite`);
    const opening = JournalDb.open(path);
    this.#db = opening;
    // A journal that cannot open is said on every journal call; the desk goes on without it.
    opening.catch((err: unknown) => this.#options.log?.(err instanceof Error ? err.message : String(err)));
  }

  /** The closed trades exiting in `range` (IST days, inclusive), newest first, and the open lots. */
  public async view(range: JournalRange = {}): Promise<JournalView> {
    const db = await this.#open();
    const fills = await this.#guard(() => db.fills());
    const { trades, open } = matchFifo(fills);
    const notes = db.notes();
    const pictures = db.pictureIds();
    const inRange = trades.filter((t) => {
      const day = istDate(t.exitAt);
      return (!range.from || day >= range.from) && (!range.to || day <= range.to);
    });
    const synced = db.meta('synced_at');
    return {
      trades: inRange.map((t) => withNotes(t, notes.get(t.id), pictures.has(t.id))),
      open,
      fills: fills.length,
      syncedAt: synced === null ? null : Number(synced),
    };
  }

  /** Changes a trade's tags, note and stop-loss (the trader's); the trade as it now reads. */
  public async update(tradeId: string, notes: TradeNotes): Promise<JournalTrade> {
    const db = await this.#open();
    const trade = matchFifo(await this.#guard(() => db.fills())).trades.find((t) => t.id === tradeId);
    if (!trade)
      throw new AppError({ kind: 'not_found', message: `No closed trade ${tradeId} in the journal`, field: 'tradeId' });
    const tags = [...new Set(notes.tags.map((t) => t.trim()))];
    const stored: StoredNotes = { notes: { ...notes, tags }, stopSource: notes.stopLoss === null ? null : 'trader' };
    await db.setNotes(tradeId, stored, this.#now());
    return withNotes(trade, stored, db.pictureIds().has(tradeId));
  }

  /** The chart picture taken at a trade's exit, or null. */
  public async picture(tradeId: string): Promise<{ svg: string; takenAt: number } | null> {
    return (await this.#open()).picture(tradeId);
  }

  /**
   * Reads fills from a Console tradebook CSV (docs/journal.md §Import and export), all or
   * nothing: a file with any line that cannot be read (a column missing or malformed, a number
   * out of bounds, a price off its instrument's tick) imports nothing and is refused naming each
   * such line and column. A fill already in the journal (the same exchange trade id, from the
   * broker or an earlier file) is counted, not added twice.
   */
  public async importCsv(text: string, equityProduct: 'CNC' | 'MIS'): Promise<JournalImport> {
    const db = await this.#open();
    const parsed = parseConsoleTradebook(text, { equityProduct });
    const header = parsed.rejected.find((r) => r.field === 'header');
    if (header) throw new AppError({ kind: 'bad_request', message: header.message, field: 'csv' });
    const account = this.#tryAccount();
    const fills: JournalFill[] = [];
    const rejected = [...parsed.rejected];
    for (const [i, f] of parsed.fills.entries()) {
      const instrument = await account?.find(f.exchange, f.tradingsymbol);
      // The tick is the instrument's when the catalog still lists it (an expired contract is not).
      const offTick = instrument && f.price > 0 ? tickProblem('price', f.price, instrument.tickSize) : null;
      if (offTick !== null) rejected.push({ line: parsed.lines[i] ?? 0, field: 'price', message: offTick });
      fills.push({ ...f, multiplier: instrument?.multiplier ?? 1 });
    }
    if (rejected.length > 0) throw nothingImported(rejected);
    const { added, duplicates } = await this.#guard(() => db.addFills(fills));
    // Real fills from before a carried-in lot now say how the position was built: the lot goes.
    const earliest = new Map<string, number>();
    for (const f of fills) earliest.set(keyOf(f), Math.min(earliest.get(keyOf(f)) ?? Infinity, f.filledAt));
    await this.#guard(() =>
      db.removeFills(
        db
          .fills()
          .filter((f) => f.source === 'carried' && (earliest.get(keyOf(f)) ?? Infinity) < f.filledAt)
          .map((f) => f.fillId),
      ),
    );
    if (added > 0) this.#options.onChanged?.();
    return { added, duplicates, rejected: [] };
  }

  /**
   * Reads the broker's trade book into the journal now (one read at a time). The trader's Sync
   * now also checks the positions for carried-in lots; a read after fills does that once a login.
   */
  public sync(asked = true): Promise<JournalImport> {
    this.#syncing ??= this.#sync(asked).finally(() => {
      this.#syncing = null;
    });
    return this.#syncing;
  }

  /** Fills arrived: read the trade book shortly (a burst of fills is one read). */
  public fillsArrived(): void {
    if (this.#timer || !this.#db) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.sync(false).catch((err: unknown) =>
        this.#options.log?.(
          `Journal: reading the trade book failed: ${err instanceof Error ? err.message : String(err)}`,
        ),
      );
    }, this.#options.syncDelayMs ?? 3_000);
  }

  public async close(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#syncing?.catch(() => undefined);
    const db = this.#db;
    this.#db = null;
    this.#profile = null;
    await (await db?.catch(() => null))?.close();
  }

  /**
   * Moves a damaged journal aside (renamed `<file>.damaged-<epoch ms>`, kept) and starts a new one
   * (docs/journal.md §A damaged journal). Refused while the journal reads.
   */
  public async moveAside(): Promise<{ keptAs: string }> {
    const profile = this.#profile;
    const account = this.#account;
    if (profile === null || !account)
      throw new AppError({ kind: 'unauthorized', message: 'Log in to open your journal' });
    if (!this.#damaged) {
      throw new AppError({
        kind: 'conflict',
        field: 'journal',
        message: 'The journal reads: there is nothing to move aside',
      });
    }
    const path = this.#damaged;
    await this.close();
    const keptAs = `${path}.damaged-${this.#now()}`;
    await rename(path, keptAs);
    this.#damaged = null;
    await this.load(profile, account);
    await this.#open();
    this.#options.onChanged?.();
    return { keptAs };
  }

  /** Runs a read or write of the database; a damaged file is said as such (and may be moved aside). */
  async #guard<T>(work: () => T | Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof JournalDamaged) {
        this.#damaged = err.path;
        throw damaged(err);
      }
      throw err;
    }
  }

  async #open(): Promise<JournalDb> {
    if (!this.#db) throw new AppError({ kind: 'unauthorized', message: 'Log in to open your journal' });
    try {
      return await this.#db;
    } catch (err) {
      if (err instanceof JournalDamaged) {
        this.#damaged = err.path;
        throw damaged(err);
      }
      throw new AppError({
        kind: 'internal',
        message: err instanceof Error ? err.message : 'The journal cannot be opened',
      });
    }
  }

  #tryAccount(): JournalAccount | null {
    try {
      return this.#account?.() ?? null;
    } catch {
      return null;
    }
  }

  async #sync(asked: boolean): Promise<JournalImport> {
    const db = await this.#open();
    const account = this.#account?.();
    if (!account) throw new AppError({ kind: 'unauthorized', message: 'Log in to read the trade book' });
    const trades = await account.broker.listTrades();
    const found = new Map<string, Instrument | undefined>();
    const instrument = async (exchange: Instrument['exchange'], symbol: string): Promise<Instrument | undefined> => {
      const key = `${exchange}:${symbol}`;
      if (!found.has(key)) found.set(key, await account.find(exchange, symbol));
      return found.get(key);
    };
    const fills: JournalFill[] = [];
    for (const t of trades) {
      fills.push({
        fillId: `${t.exchange}:${t.tradeId}`,
        orderId: t.orderId,
        exchange: t.exchange,
        tradingsymbol: t.tradingsymbol,
        product: t.product,
        side: t.transactionType,
        quantity: t.quantity,
        price: t.price,
        multiplier: (await instrument(t.exchange, t.tradingsymbol))?.multiplier ?? 1,
        filledAt: Date.parse(t.filledAt),
        source: 'broker',
      });
    }
    const result = await db.addFills(fills);
    // The rest is what the journal adds to the fills; a failure in it must not lose the import.
    let changed = result.added;
    if (asked || !this.#carriedChecked) {
      changed += await this.#carried(db, account).catch((e: unknown) => this.#note('carried positions', e));
      this.#carriedChecked = true;
    }
    changed += await this.#stops(db, account).catch((e: unknown) => this.#note('stop orders', e));
    changed += await this.#pictures(db, account, instrument).catch((e: unknown) => this.#note('chart pictures', e));
    await db.setMeta('synced_at', String(this.#now()));
    if (changed > 0 || asked) this.#options.onChanged?.();
    return { ...result, rejected: [] };
  }

  /** Logs a step that failed; it changed nothing. */
  #note(what: string, err: unknown): number {
    this.#options.log?.(`Journal: ${what} not read: ${err instanceof Error ? err.message : String(err)}`);
    return 0;
  }

  /**
   * A position carried into today whose opening fills the journal never saw (a broker whose trade
   * book holds only today) gets a carried-in lot at the previous close, so its exit closes a trade
   * (docs/journal.md §Carried positions). Real fills of earlier days replace it.
   */
  async #carried(db: JournalDb, account: JournalAccount): Promise<number> {
    const [positions, status] = await Promise.all([account.broker.listPositions(), account.broker.marketStatus()]);
    const now = Date.parse(status.now);
    const today = istDate(now);
    const start = istDayStart(now);
    const fills = db.fills();
    const stale: string[] = [];
    const carried: JournalFill[] = [];
    for (const p of positions) {
      const key = keyOf(p);
      const before = fills.filter((f) => keyOf(f) === key && f.filledAt < start);
      const net = before.reduce((q, f) => q + (f.side === 'BUY' ? f.quantity : -f.quantity), 0);
      // The journal explains the position, or has real fills of its own that say otherwise (an
      // import of the earlier days is what completes those): nothing to carry in.
      if (net === p.overnightQuantity || before.some((f) => f.source !== 'carried')) continue;
      stale.push(...before.map((f) => f.fillId));
      if (p.overnightQuantity === 0) continue;
      const id = `carried:${key}:${today}`;
      carried.push({
        fillId: id,
        orderId: id,
        exchange: p.exchange,
        tradingsymbol: p.tradingsymbol,
        product: p.product,
        side: p.overnightQuantity > 0 ? 'BUY' : 'SELL',
        quantity: Math.abs(p.overnightQuantity),
        price: p.closePrice,
        multiplier: p.multiplier,
        filledAt: start - 1,
        source: 'carried',
      });
    }
    const removed = await db.removeFills(stale);
    return removed + (await db.addFills(carried)).added;
  }

  /**
   * A trade without a stop-loss of the trader's takes the trigger of its first stop order: an SL
   * or SL-M on the exit side of the same instrument and product, placed between the entry and the
   * exit (docs/journal.md §R multiple).
   */
  async #stops(db: JournalDb, account: JournalAccount): Promise<number> {
    const notes = db.notes();
    const { trades } = matchFifo(db.fills());
    // Only the broker's order book of the day has the stops: trades exited within a day of the newest.
    const newest = trades[0]?.exitAt ?? 0;
    const open = trades.filter((t) => notes.get(t.id)?.notes.stopLoss == null && t.exitAt > newest - DAY_MS);
    if (open.length === 0) return 0;
    const orders = await account.broker.listOrders();
    const stops = orders.filter((o) => (o.orderType === 'SL' || o.orderType === 'SL-M') && o.triggerPrice !== null);
    let found = 0;
    for (const t of open) {
      const stop = firstStop(stops, t);
      if (stop === null) continue;
      found++;
      const old = notes.get(t.id)?.notes ?? { tags: [], note: '', stopLoss: null };
      await db.setNotes(t.id, { notes: { ...old, stopLoss: stop }, stopSource: 'order' }, this.#now());
    }
    return found;
  }

  /** The chart at each recent exit without one (docs/journal.md §The chart at the exit). */
  async #pictures(
    db: JournalDb,
    account: JournalAccount,
    instrument: (exchange: Instrument['exchange'], symbol: string) => Promise<Instrument | undefined>,
  ): Promise<number> {
    const have = db.pictureIds();
    const fills = db.fills();
    const fromBroker = new Set(fills.filter((f) => f.source === 'broker').map((f) => f.fillId));
    const { trades } = matchFifo(fills);
    // Exits the desk read from the broker's trade book (not a file of past days), recent ones only
    // (their candles are still there), each tried once a login.
    const newest = trades[0]?.exitAt ?? 0;
    const wanted = trades
      .filter(
        (t) =>
          !have.has(t.id) &&
          !this.#pictured.has(t.id) &&
          t.exitAt > newest - PICTURE_WITHIN_MS &&
          t.exits.every((p) => fromBroker.has(p.fillId)),
      )
      .slice(0, PICTURES_PER_SYNC);
    let taken = 0;
    const now = this.#now();
    for (const t of wanted) {
      this.#pictured.add(t.id);
      const i = await instrument(t.exchange, t.tradingsymbol);
      if (!i) continue;
      // Back far enough for the last sessions' minutes before the exit (a Monday morning's are Friday's).
      const from = t.exitAt - 4 * DAY_MS;
      const candles = await account.broker.getCandles(i.instrumentToken, {
        interval: 'minute',
        from: toIstIso(from),
        to: toIstIso(t.exitAt + 60_000),
      });
      const svg = chartPicture(candles, t);
      if (svg) {
        await db.setPicture(t.id, svg, now);
        taken++;
      }
    }
    return taken;
  }
}

/** A closed trade with its notes, its R multiple, and whether it has a picture. */
function withNotes(
  t: ReturnType<typeof matchFifo>['trades'][number],
  stored: StoredNotes | undefined,
  picture: boolean,
): JournalTrade {
  const notes = stored?.notes ?? { tags: [], note: '', stopLoss: null };
  return {
    ...t,
    notes,
    stopSource: notes.stopLoss === null ? null : (stored?.stopSource ?? null),
    rMultiple: rMultiple(t, notes.stopLoss),
    hasPicture: picture,
  };
}

/** The trigger of the first stop order guarding `t`, or null. */
function firstStop(
  stops: readonly Order[],
  t: JournalTrade | ReturnType<typeof matchFifo>['trades'][number],
): number | null {
  const exitSide = t.direction === 'long' ? 'SELL' : 'BUY';
  const guarding = stops
    .filter(
      (o) =>
        o.exchange === t.exchange &&
        o.tradingsymbol === t.tradingsymbol &&
        o.product === t.product &&
        o.transactionType === exitSide &&
        Date.parse(o.placedAt) >= t.entryAt - 1_000 &&
        Date.parse(o.placedAt) <= t.exitAt,
    )
    .sort((a, b) => Date.parse(a.placedAt) - Date.parse(b.placedAt));
  return guarding[0]?.triggerPrice ?? null;
}

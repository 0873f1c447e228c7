import {
  closeSync,
  fdatasync,
  fdatasyncSync,
  ftruncateSync,
  fchmodSync,
  openSync,
  readFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { makePrivateDirSync, PRIVATE_FILE_MODE } from '../wire/private-files';
import {
  decodeLine,
  sketchLine,
  encodeEvent,
  JournalError,
  JournalFormatError,
  RecordDamage,
  type JournalEvent,
} from './journal-format';

export type { JournalEvent } from './journal-format';
export { JournalError, JournalFormatError } from './journal-format';

/**
 * The append-only event journal that lets a paper account survive a restart
 * (docs/api.md §Persistence).
 *
 * One JSON object per line, each with a checksum. Orders are journaled as full snapshots after
 * every transition and fills as trades (positions, holdings and cash are rebuilt by re-applying
 * the trades), so replay is a fold with no matching logic in it. Nothing is answered before what
 * it changed is on disk: a request's reply waits for `durable()`, which shares one fdatasync
 * among every request that appended while the previous one ran (group commit), so a burst of
 * changes costs a few syncs instead of one each and the broker keeps serving while the disk works.
 *
 * The journal trusts nothing it reads. A torn last line (a crash mid-write: no newline at the
 * end) is the only damage tolerated; it is cut off and reported. Any other damage — a line
 * that is not JSON, fails its checksum or its schema, names an unknown event or a trade of an
 * unknown order — stops the start with a `JournalDamagedError` naming the file, the line and
 * what is wrong, and leaves the file untouched. `repair` (`--repair`) instead moves the damaged
 * line and everything after it to a side file and says what was lost.
 */

export const JOURNAL_FILE = 'paper-journal.jsonl';

/** The journal is damaged before its end: the broker must not start on it as it is. */
export class JournalDamagedError extends JournalError {
  constructor(
    readonly path: string,
    /** 1-based number of the first damaged line. */
    readonly line: number,
    readonly why: string,
  ) {
    super(
      `The paper journal ${path} is damaged at line ${line}: ${why}. Nothing was changed. ` +
        'To start anyway, repair it: `npm run paper -- --data-dir DIR --repair`, or start the app or the host ' +
        `with --paper-repair. That moves line ${line} and everything after it to a side file next to the journal ` +
        'and keeps the lines before it (docs/api.md §Persistence).',
    );
  }
}

/** What `repair` moved aside. */
export interface RepairReport {
  /** The side file holding the removed lines, byte for byte. */
  readonly sideFile: string;
  readonly fromLine: number;
  readonly lines: number;
  /** The damage that started it. */
  readonly why: string;
  /** One sentence for a log: where the lines went and what they held. */
  readonly summary: string;
  /** The highest order, trade and GTT ids the removed lines mention: new ids start above them. */
  readonly highestIds: { readonly order: number; readonly trade: number; readonly gtt: number };
}

export interface Replay {
  readonly events: JournalEvent[];
  /** The torn last line that was cut off (1-based), or null. */
  readonly torn: number | null;
  /** What a repair moved aside, or null when nothing was damaged. */
  readonly repaired: RepairReport | null;
}

export interface OpenOptions {
  /** Move damage and everything after it to a side file instead of refusing to start. */
  readonly repair?: boolean;
}

interface Scan {
  readonly events: JournalEvent[];
  /** Byte length of the intact prefix. */
  readonly goodBytes: number;
  readonly torn: number | null;
  readonly damage: { line: number; why: string; offset: number } | null;
}

export class Journal {
  /** Lines appended, and how many of them are known to be on disk. */
  private appended = 0;
  private synced = 0;
  /** The fdatasync in flight (it covers the lines appended before it started). */
  private flushing: Promise<void> | null = null;
  /** Work held until the lines appended before it are on disk, in the order it was queued. */
  private held: Array<{ readonly upTo: number; readonly run: () => void }> = [];
  /** fdatasync calls made (read by tests and benches). */
  syncs = 0;

  private constructor(private fd: number | null) {}

  /** A journal that keeps nothing (no data dir). */
  static memory(): Journal {
    return new Journal(null);
  }

  /**
   * Opens (creating) the journal in `dir`, reading back what it holds. Throws, naming the file,
   * when it was written in a newer format (`JournalFormatError`) or is damaged
   * (`JournalDamagedError`, unless `repair`).
   */
  static open(dir: string, options: OpenOptions = {}): { journal: Journal; replay: Replay } {
    makePrivateDirSync(dir);
    const path = join(dir, JOURNAL_FILE);
    // It holds the paper sessions' tokens: the trader's alone, also when an older version left it 0644.
    const fd = openSync(path, 'a+', PRIVATE_FILE_MODE);
    fchmodSync(fd, PRIVATE_FILE_MODE);
    try {
      const bytes = readFileSync(path);
      const scan = Journal.scan(bytes);
      let repaired: RepairReport | null = null;
      if (scan.damage) {
        if (!options.repair) throw new JournalDamagedError(path, scan.damage.line, scan.damage.why);
        repaired = Journal.quarantine(path, fd, bytes, scan.damage);
      } else if (scan.torn !== null) {
        ftruncateSync(fd, scan.goodBytes);
        fdatasyncSync(fd);
      }
      return { journal: new Journal(fd), replay: { events: scan.events, torn: scan.torn, repaired } };
    } catch (e) {
      closeSync(fd);
      if (e instanceof JournalFormatError)
        throw new JournalFormatError(
          `Cannot read the paper journal ${path}: ${e.message}. Paper data is disposable: move the file aside to start a fresh paper account.`,
        );
      throw e;
    }
  }

  /** Reads every line, stopping at the first damage. */
  private static scan(bytes: Buffer): Scan {
    const events: JournalEvent[] = [];
    const orders = new Set<string>();
    let newest = 0;
    let offset = 0;
    let goodBytes = 0;
    let lineNo = 0;
    while (offset < bytes.length) {
      lineNo += 1;
      const nl = bytes.indexOf(0x0a, offset);
      if (nl < 0) {
        // No newline after it: a write the crash interrupted, never fsynced, never acknowledged.
        return { events, goodBytes, torn: lineNo, damage: null };
      }
      const line = bytes.toString('utf8', offset, nl);
      const start = offset;
      offset = nl + 1;
      if (line.trim() === '') {
        goodBytes = offset;
        continue;
      }
      try {
        const { event, version } = decodeLine(line);
        // Formats only move forward within a file: an old-format line after a newer one was edited.
        if (version < newest) throw new RecordDamage(`a format-${version} record after format-${newest} ones`);
        newest = version;
        if (event.e === 'order') orders.add(event.o.orderId);
        if (event.e === 'trade' && !orders.has(event.t.orderId))
          throw new RecordDamage(
            `a trade (${event.t.tradeId}) of order ${event.t.orderId}, which no earlier line holds`,
          );
        events.push(event);
        goodBytes = offset;
      } catch (e) {
        if (!(e instanceof RecordDamage)) throw e;
        return { events, goodBytes, torn: null, damage: { line: lineNo, why: e.message, offset: start } };
      }
    }
    return { events, goodBytes, torn: null, damage: null };
  }

  /** Moves the damaged line and everything after it to a side file, then cuts the journal there. */
  private static quarantine(
    path: string,
    fd: number,
    bytes: Buffer,
    damage: { line: number; why: string; offset: number },
  ): RepairReport {
    const tail = bytes.subarray(damage.offset);
    const sideFile = `${path}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    const side = openSync(sideFile, 'wx', PRIVATE_FILE_MODE);
    try {
      writeSync(side, tail);
      fdatasyncSync(side);
    } finally {
      closeSync(side);
    }
    ftruncateSync(fd, damage.offset);
    fdatasyncSync(fd);
    const lines = tail
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    const counts = new Map<string, number>();
    const orderIds = new Set<string>();
    const highestIds = { order: 0, trade: 0, gtt: 0 };
    let unreadable = 0;
    for (const l of lines) {
      const d = sketchLine(l);
      if (!d) {
        unreadable += 1;
        continue;
      }
      counts.set(d.e, (counts.get(d.e) ?? 0) + 1);
      if (d.orderId) orderIds.add(d.orderId);
      highestIds.order = Math.max(highestIds.order, d.highOrder);
      highestIds.trade = Math.max(highestIds.trade, d.highTrade);
      highestIds.gtt = Math.max(highestIds.gtt, d.highGtt);
    }
    const held = [
      ...[...counts].map(([e, n]) => `${n} ${e} record${n === 1 ? '' : 's'}`),
      ...(unreadable > 0 ? [`${unreadable} unreadable line${unreadable === 1 ? '' : 's'}`] : []),
    ].join(', ');
    const touched = orderIds.size > 0 ? `; orders touched: ${[...orderIds].slice(0, 20).join(', ')}` : '';
    const more = orderIds.size > 20 ? ` and ${orderIds.size - 20} more` : '';
    const summary =
      `Repaired the paper journal ${path}: line ${damage.line} was damaged (${damage.why}). ` +
      `Moved it and the ${lines.length - 1} line(s) after it to ${sideFile} (${held}${touched}${more}). ` +
      'Those changes are lost from the paper account: the orders touched show their state before them, ' +
      'and the fills among them are no longer in positions, holdings or funds.';
    return { sideFile, fromLine: damage.line, lines: lines.length, why: damage.why, summary, highestIds };
  }

  append(event: JournalEvent): void {
    if (this.fd === null) return;
    writeSync(this.fd, `${encodeEvent(event)}\n`);
    this.appended += 1;
  }

  /**
   * Makes everything appended so far durable now, blocking: for writes that must be on disk
   * before the next line of code runs (an id block before its first id is used; start-up) and
   * for the market's own steps (a tick's fills, a control-interface price), which no request
   * waits on.
   */
  commit(): void {
    if (this.fd === null || this.synced === this.appended) return;
    const upTo = this.appended;
    fdatasyncSync(this.fd);
    this.syncs += 1;
    this.synced = Math.max(this.synced, upTo);
    this.release();
  }

  /**
   * Runs `run` once everything appended so far is on disk — at once when it already is. For
   * what leaves the broker other than a reply (a stream push of an order), so nothing a crash
   * could lose is ever shown. Runs in the order queued.
   */
  whenDurable(run: () => void): void {
    if (this.fd === null) return run();
    this.held.push({ upTo: this.appended, run });
    if (this.synced >= this.appended) return this.release();
    // A failed sync is the requests' to report (they answer 500); what is held stays held.
    this.durable().catch(() => undefined);
  }

  private release(): void {
    while (this.held.length > 0 && this.held[0]!.upTo <= this.synced) {
      const { run } = this.held.shift()!;
      try {
        run();
      } catch (e) {
        console.error('[paper] journal: work held for a sync failed:', e);
      }
    }
  }

  /**
   * Resolves once everything appended before the call is on disk. Called before a reply leaves,
   * so what a reply shows — and what a read shows of other requests' changes — survives a crash.
   * A sync already in flight does not cover lines appended after it started, so those wait for
   * the next one, which then serves every request that appended meanwhile.
   */
  async durable(): Promise<void> {
    const target = this.appended;
    while (this.synced < target) {
      const fd = this.fd;
      if (fd === null) return;
      this.flushing ??= this.flush(fd);
      await this.flushing;
    }
  }

  private async flush(fd: number): Promise<void> {
    const upTo = this.appended;
    try {
      await new Promise<void>((resolve, reject) => fdatasync(fd, (e) => (e ? reject(e) : resolve())));
      this.syncs += 1;
      this.synced = Math.max(this.synced, upTo);
    } finally {
      this.flushing = null;
    }
    this.release();
  }

  /** Waits for the sync in flight, if any, so the file can be closed under it. */
  async settle(): Promise<void> {
    while (this.flushing) await this.flushing.catch(() => undefined);
  }

  close(): void {
    if (this.fd === null) return;
    this.commit();
    closeSync(this.fd);
    this.fd = null;
  }
}

import { open as openFile, readFile, rename, rm, truncate, type FileHandle } from 'node:fs/promises';
import { fsyncDir } from '../storage/durable-file';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../../wire/private-files';
import { dirname } from 'node:path';
import {
  type GttIntentRecord,
  type GttResolutionRecord,
  type IntentRecord,
  LEDGER_FORMAT,
  type LedgerRecord,
  readRecord,
  type ResolutionRecord,
} from './ledger-record';

/**
 * The durable steps of the ledger, in order. Crash tests kill the process at one of them
 * (core/testing/crash-child.ts); nothing in the app observes them.
 */
export type LedgerStep =
  | 'batch-written' // a batch is written, not yet fdatasync'ed
  | 'batch-synced' // a batch is on disk
  | 'compaction-written' // the compacted copy is written and fsynced, not yet renamed over the ledger
  | 'compaction-renamed'; // renamed, the directory not yet fsynced

/** Knobs of the ledger. */
export interface LedgerOptions {
  /** Rewrite the file once it holds this many resolved intents (0 disables compaction). */
  readonly compactAfter?: number;
  /** Opens the ledger file for appending (tests inject a file whose writes fail). */
  readonly openFile?: (path: string, flags: string) => Promise<FileHandle>;
  /** Told at each durable step (crash tests). */
  readonly onStep?: (step: LedgerStep) => void;
  /**
   * How long a resolved intent's request id is kept, across a restart and compaction, so the
   * same request id is answered as the first time (default 10 minutes).
   */
  readonly keepResolvedMs?: number;
  /** Epoch ms (for the request ids' retention; default Date.now). */
  readonly now?: () => number;
  /** Told when lines that cannot be read were moved aside (default: a warning on the console). */
  readonly onUnreadable?: (count: number, keptIn: string) => void;
}

/** How long a resolved intent's request id is kept by default: as long as the unconfirmed list shows a settled one. */
export const KEEP_RESOLVED_MS = 10 * 60_000;

/** A resolved intent whose request id is still answered. */
export interface ResolvedRequest {
  readonly intent: IntentRecord;
  readonly resolution: ResolutionRecord;
}

/** A resolved GTT intent whose request id is still answered. */
export interface ResolvedGttRequest {
  readonly intent: GttIntentRecord;
  readonly resolution: GttResolutionRecord;
}

/** Lines the ledger could not read, and the side file they were moved to. */
export interface UnreadableRecords {
  readonly count: number;
  readonly keptIn: string;
}

/**
 * The order intents ledger: an append-only, fsynced JSON-lines file (docs/money-path.md,
 * "Exactly-once orders"). GTT creations and changes are journaled in it the same way, as their
 * own kind of line (docs/gtt.md §When the broker fails).
 *
 * Every place-order intent is written and flushed to disk *before* its POST, so an app that
 * dies mid-request finds on restart the intents whose outcome it never learnt and asks the
 * broker about them instead of guessing. Appends are group-committed: concurrent callers share
 * one write and one `fdatasync`, so durability does not serialise a burst of orders. A torn
 * last line (a crash mid-write) is cut off on load; the intent it held was never sent, since
 * sending waits for the flush. A write that fails part-way is cut back to the last whole batch
 * before anything else is appended, so one bad write never makes the next intent unreadable.
 * Compaction rewrites only the unresolved intents (and the recently resolved ones whose request
 * id is still answered) to a temporary file, fsyncs it and renames it over the old one, so a
 * crash during it leaves one whole file.
 *
 * Every line carries the record format (`ledger-record.ts`); an earlier format is migrated as it
 * is read. A line that cannot be read is never dropped in silence: it is appended to a side
 * file (`<ledger>.unreadable`), fsynced, named in the log and reported (`unreadable()`), and
 * only then left out of the ledger.
 */
export class IntentsLedger {
  readonly #path: string;
  readonly #compactAfter: number;
  readonly #openFile: (path: string, flags: string) => Promise<FileHandle>;
  readonly #onStep: (step: LedgerStep) => void;
  readonly #keepResolvedMs: number;
  readonly #now: () => number;
  readonly #onUnreadable: (count: number, keptIn: string) => void;
  readonly #open = new Map<string, IntentRecord>();
  /** Resolved intents with a request id, by request id, while it is still answered. */
  readonly #resolvedRequests = new Map<string, ResolvedRequest>();
  /** GTT intents whose outcome is not yet known, by their reference. */
  readonly #openGtts = new Map<string, GttIntentRecord>();
  /** Resolved GTT intents with a request id, by request id, while it is still answered. */
  readonly #resolvedGttRequests = new Map<string, ResolvedGttRequest>();
  #unreadable: UnreadableRecords | null = null;
  /** The file holds lines that were moved aside: rewrite it even if nothing was resolved. */
  #rewriteDue = false;
  #resolvedInFile = 0;
  #file: FileHandle | null = null;
  /** Bytes of whole, flushed lines: what the file is cut back to after a failed write. */
  #goodLength = 0;
  #queue: Array<{ line: string; done: (err?: unknown) => void }> = [];
  #flushing: Promise<void> | null = null;
  #closed = false;

  private constructor(path: string, options: LedgerOptions) {
    this.#path = path;
    this.#compactAfter = options.compactAfter ?? 500;
    this.#openFile = options.openFile ?? ((p, flags) => openFile(p, flags, PRIVATE_FILE_MODE));
    this.#onStep = options.onStep ?? (() => undefined);
    this.#keepResolvedMs = options.keepResolvedMs ?? KEEP_RESOLVED_MS;
    this.#now = options.now ?? Date.now;
    this.#onUnreadable =
      options.onUnreadable ??
      ((count, keptIn) =>
        console.warn(
          `[ledger] ${count} placement record${count === 1 ? '' : 's'} in ${path} could not be read; kept in ${keptIn}`,
        ));
  }

  /** Opens (creating if needed) the ledger at `path`, loads it and compacts it. */
  public static async open(path: string, options: LedgerOptions = {}): Promise<IntentsLedger> {
    const ledger = new IntentsLedger(path, options);
    await makePrivateDir(dirname(path));
    await ledger.#load();
    await ledger.#compact();
    return ledger;
  }

  /** Intents whose outcome is not yet known, oldest first. */
  public unresolved(): readonly IntentRecord[] {
    return [...this.#open.values()];
  }

  /** The unresolved intent with this client_order_id, if any. */
  public get(clientOrderId: string): IntentRecord | undefined {
    return this.#open.get(clientOrderId);
  }

  /** The resolved intent a request id made, while its answer is kept (across a restart too). */
  public resolvedRequest(requestId: string): ResolvedRequest | undefined {
    const r = this.#resolvedRequests.get(requestId);
    return r && r.resolution.at >= this.#now() - this.#keepResolvedMs ? r : undefined;
  }

  /** GTT intents whose outcome is not yet known, oldest first (docs/gtt.md §When the broker fails). */
  public unresolvedGtts(): readonly GttIntentRecord[] {
    return [...this.#openGtts.values()];
  }

  /** The open GTT intent a request id made, if any. */
  public openGttRequest(requestId: string): GttIntentRecord | undefined {
    for (const g of this.#openGtts.values()) if (g.requestId === requestId) return g;
    return undefined;
  }

  /** The resolved GTT intent a request id made, while its answer is kept (across a restart too). */
  public resolvedGttRequest(requestId: string): ResolvedGttRequest | undefined {
    const r = this.#resolvedGttRequests.get(requestId);
    return r && r.resolution.at >= this.#now() - this.#keepResolvedMs ? r : undefined;
  }

  /** Journals a GTT creation or change; resolves once it is on disk. Only then may it be sent. */
  public async appendGttIntent(intent: Omit<GttIntentRecord, 't' | 'v'>): Promise<void> {
    const record: GttIntentRecord = { v: LEDGER_FORMAT, t: 'gtt', ...intent };
    await this.#append(record);
    this.#openGtts.set(record.ref, record);
  }

  /**
   * Journals how a GTT intent ended; settles when the record is on disk. Unlike an order's, a
   * GTT's resolution is awaited: a GTT is a rare, deliberate act, and a retry after a crash
   * before it is durable would otherwise need a lookup.
   */
  public async resolveGtt(resolution: Omit<GttResolutionRecord, 't' | 'v'>): Promise<void> {
    const intent = this.#openGtts.get(resolution.ref);
    if (!intent) return;
    this.#openGtts.delete(resolution.ref);
    const record: GttResolutionRecord = { v: LEDGER_FORMAT, t: 'gtt-resolved', ...resolution };
    if (intent.requestId !== undefined) this.#resolvedGttRequests.set(intent.requestId, { intent, resolution: record });
    await this.#append(record);
    this.#resolvedInFile += 1;
    if (this.#compactAfter > 0 && this.#resolvedInFile >= this.#compactAfter) await this.#enqueueCompaction();
  }

  /** Lines found unreadable when the ledger was opened (moved to the side file), or null. */
  public unreadable(): UnreadableRecords | null {
    return this.#unreadable;
  }

  /** Journals an intent; resolves once it is on disk. Only then may its POST be sent. */
  public async appendIntent(intent: Omit<IntentRecord, 't' | 'v'>): Promise<void> {
    const record: IntentRecord = { v: LEDGER_FORMAT, t: 'intent', ...intent };
    await this.#append(record);
    this.#open.set(record.clientOrderId, record);
  }

  /**
   * Journals how an intent ended. The intent stops being open at once; the returned promise
   * settles when the record is on disk.
   *
   * Callers need not wait for it: if the process dies first, the intent is merely still open
   * at the next start, and reconciliation finds its order by client_order_id — a redundant
   * lookup, never a second order. That halves the fsyncs on the placement path.
   */
  public resolve(resolution: Omit<ResolutionRecord, 't' | 'v'>): Promise<void> {
    const intent = this.#open.get(resolution.clientOrderId);
    if (!intent) return Promise.resolve();
    this.#open.delete(resolution.clientOrderId);
    const record: ResolutionRecord = { v: LEDGER_FORMAT, t: 'resolved', ...resolution };
    if (intent.requestId !== undefined) this.#resolvedRequests.set(intent.requestId, { intent, resolution: record });
    return this.#append(record).then(async () => {
      this.#resolvedInFile += 1;
      if (this.#compactAfter > 0 && this.#resolvedInFile >= this.#compactAfter) await this.#enqueueCompaction();
    });
  }

  /** Flushes and closes the file. */
  public async close(): Promise<void> {
    this.#closed = true;
    await this.#flushing;
    await this.#file?.close();
    this.#file = null;
  }

  async #load(): Promise<void> {
    let text = '';
    try {
      text = await readFile(this.#path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    // Everything after the last newline is a torn tail (a crash mid-append): cut it off, so the
    // next append starts on a line of its own.
    const whole = text.lastIndexOf('\n') + 1;
    this.#goodLength = Buffer.byteLength(text.slice(0, whole));
    if (whole < text.length) await truncate(this.#path, this.#goodLength);
    const unreadable: string[] = [];
    for (const line of text.slice(0, whole).split('\n')) {
      if (line.trim() === '') continue;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        unreadable.push(line);
        continue;
      }
      const r = readRecord(json);
      if ('why' in r) {
        unreadable.push(line);
        continue;
      }
      if (r.t === 'gtt') {
        this.#openGtts.set(r.ref, r);
        continue;
      }
      if (r.t === 'gtt-resolved') {
        const gtt = this.#openGtts.get(r.ref);
        if (!gtt) continue;
        this.#openGtts.delete(r.ref);
        this.#resolvedInFile += 1;
        if (gtt.requestId !== undefined) this.#resolvedGttRequests.set(gtt.requestId, { intent: gtt, resolution: r });
        continue;
      }
      if (r.t === 'intent') {
        this.#open.set(r.clientOrderId, r);
        continue;
      }
      const intent = this.#open.get(r.clientOrderId);
      if (!intent) continue;
      this.#open.delete(r.clientOrderId);
      this.#resolvedInFile += 1;
      if (intent.requestId !== undefined) this.#resolvedRequests.set(intent.requestId, { intent, resolution: r });
    }
    if (unreadable.length > 0) await this.#setAside(unreadable);
    else this.#unreadable = await this.#keptAside();
  }

  /** The side file's lines from an earlier start, still there: reported until someone deals with them. */
  async #keptAside(): Promise<UnreadableRecords | null> {
    const keptIn = `${this.#path}.unreadable`;
    const text = await readFile(keptIn, 'utf8').catch(() => '');
    const count = text.split('\n').filter((l) => l.trim() !== '').length;
    return count > 0 ? { count, keptIn } : null;
  }

  /**
   * Moves lines that cannot be read to the side file, durably, before the ledger is rewritten
   * without them: a line a newer version wrote, or one damaged on disk, may be an open intent.
   */
  async #setAside(lines: readonly string[]): Promise<void> {
    const keptIn = `${this.#path}.unreadable`;
    const out = await openFile(keptIn, 'a', PRIVATE_FILE_MODE);
    try {
      await out.write(lines.map((l) => `${l}\n`).join(''));
      await out.sync();
    } finally {
      await out.close();
    }
    await fsyncDir(dirname(keptIn));
    this.#unreadable = (await this.#keptAside()) ?? { count: lines.length, keptIn };
    // The ledger is rewritten without them at once (compaction at open).
    this.#rewriteDue = true;
    this.#onUnreadable(lines.length, keptIn);
  }

  #append(record: LedgerRecord): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('intents ledger is closed'));
    return new Promise((resolve, reject) => {
      this.#queue.push({ line: `${JSON.stringify(record)}\n`, done: (err) => (err ? reject(err) : resolve()) });
      this.#flushing ??= this.#drain();
    });
  }

  /** Writes every queued line with one write + one fdatasync, until the queue is empty. */
  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue;
        this.#queue = [];
        const text = batch.map((b) => b.line).join('');
        try {
          if (this.#needsCut) await this.#cutBack();
          if (this.#needsCut) throw new Error('the intents ledger could not be repaired after a failed write');
          this.#file ??= await this.#openFile(this.#path, 'a');
          await this.#file.write(text);
          this.#onStep('batch-written');
          await this.#file.datasync();
          this.#goodLength += Buffer.byteLength(text);
          this.#onStep('batch-synced');
          for (const b of batch) b.done();
        } catch (err) {
          await this.#cutBack();
          for (const b of batch) b.done(err);
        }
      }
    } finally {
      this.#flushing = null;
    }
  }

  /**
   * After a failed or partial write: drop the handle and cut the file back to its last whole
   * batch, so the next batch does not land after half a line. If even that fails, the next
   * batch tries again first (it reopens the file).
   */
  async #cutBack(): Promise<void> {
    const file = this.#file;
    this.#file = null;
    await file?.close().catch(() => undefined);
    try {
      await truncate(this.#path, this.#goodLength);
    } catch {
      this.#needsCut = true;
      return;
    }
    this.#needsCut = false;
  }

  #needsCut = false;

  async #enqueueCompaction(): Promise<void> {
    // Compact between batches: wait for the current flush, then rewrite while nothing appends.
    while (this.#flushing) await this.#flushing;
    if (this.#resolvedInFile < this.#compactAfter) return;
    const gate = this.#compact().catch(async (err: unknown) => {
      // Compaction only saves space: the ledger it would replace is intact (the rewrite goes to a
      // side file, renamed over the ledger only when whole), so trading goes on appending to it.
      // Nobody awaits this promise (resolutions are not awaited), so a failure must end here;
      // another attempt comes after as many resolutions again (the count restarts; the next
      // start compacts everything regardless).
      this.#resolvedInFile = 0;
      await rm(`${this.#path}.tmp`, { force: true }).catch(() => undefined);
      console.warn(`[ledger] compacting ${this.#path} failed; it keeps growing until the next attempt:`, err);
    });
    this.#flushing = gate.finally(() => {
      this.#flushing = null;
      if (this.#queue.length > 0) this.#flushing = this.#drain();
    });
    await gate;
  }

  async #compact(): Promise<void> {
    if (this.#resolvedInFile === 0 && !this.#rewriteDue) return;
    const tmp = `${this.#path}.tmp`;
    // Open intents, and the resolved intents whose request id is still answered (both lines).
    const since = this.#now() - this.#keepResolvedMs;
    const kept: LedgerRecord[] = [];
    for (const [requestId, r] of this.#resolvedRequests) {
      if (r.resolution.at < since) this.#resolvedRequests.delete(requestId);
      else kept.push(r.intent, r.resolution);
    }
    for (const [requestId, r] of this.#resolvedGttRequests) {
      if (r.resolution.at < since) this.#resolvedGttRequests.delete(requestId);
      else kept.push(r.intent, r.resolution);
    }
    const text = [...kept, ...this.#open.values(), ...this.#openGtts.values()]
      .map((r) => `${JSON.stringify(r)}\n`)
      .join('');
    const out = await openFile(tmp, 'w', PRIVATE_FILE_MODE);
    try {
      await out.write(text);
      await out.sync();
    } finally {
      await out.close();
    }
    this.#onStep('compaction-written');
    await this.#file?.close();
    this.#file = null;
    await rename(tmp, this.#path);
    this.#goodLength = Buffer.byteLength(text);
    this.#onStep('compaction-renamed');
    await fsyncDir(dirname(this.#path));
    this.#resolvedInFile = 0;
    this.#rewriteDue = false;
  }
}

import { mkdir, open as openFile, readFile, rename, rm, truncate, type FileHandle } from 'node:fs/promises';
import { fsyncDir } from '../storage/durable-file';
import { dirname } from 'node:path';
import { type IntentRecord, LedgerRecord, type ResolutionRecord } from './ledger-record';

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
}

/**
 * The order intents ledger: an append-only, fsynced JSON-lines file (docs/architecture.md,
 * "Exactly-once orders").
 *
 * Every place-order intent is written and flushed to disk *before* its POST, so an app that
 * dies mid-request finds on restart the intents whose outcome it never learnt and asks the
 * broker about them instead of guessing. Appends are group-committed: concurrent callers share
 * one write and one `fdatasync`, so durability does not serialise a burst of orders. A torn
 * last line (a crash mid-write) is cut off on load; the intent it held was never sent, since
 * sending waits for the flush. A write that fails part-way is cut back to the last whole batch
 * before anything else is appended, so one bad write never makes the next intent unreadable.
 * Compaction rewrites only the unresolved intents to a temporary file, fsyncs it and renames it
 * over the old one, so a crash during it leaves one whole file.
 */
export class IntentsLedger {
  readonly #path: string;
  readonly #compactAfter: number;
  readonly #openFile: (path: string, flags: string) => Promise<FileHandle>;
  readonly #onStep: (step: LedgerStep) => void;
  readonly #open = new Map<string, IntentRecord>();
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
    this.#openFile = options.openFile ?? openFile;
    this.#onStep = options.onStep ?? (() => undefined);
  }

  /** Opens (creating if needed) the ledger at `path`, loads it and compacts it. */
  public static async open(path: string, options: LedgerOptions = {}): Promise<IntentsLedger> {
    const ledger = new IntentsLedger(path, options);
    await mkdir(dirname(path), { recursive: true });
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

  /** Journals an intent; resolves once it is on disk. Only then may its POST be sent. */
  public async appendIntent(intent: Omit<IntentRecord, 't'>): Promise<void> {
    const record: IntentRecord = { t: 'intent', ...intent };
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
  public resolve(resolution: Omit<ResolutionRecord, 't'>): Promise<void> {
    if (!this.#open.delete(resolution.clientOrderId)) return Promise.resolve();
    return this.#append({ t: 'resolved', ...resolution }).then(async () => {
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
    for (const line of text.slice(0, whole).split('\n')) {
      if (line.trim() === '') continue;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        continue; // a torn tail from a crash mid-append: that intent was never sent
      }
      const parsed = LedgerRecord.safeParse(json);
      if (!parsed.success) continue;
      const r = parsed.data;
      if (r.t === 'intent') this.#open.set(r.clientOrderId, r);
      else if (this.#open.delete(r.clientOrderId)) this.#resolvedInFile += 1;
    }
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
    if (this.#resolvedInFile === 0) return;
    const tmp = `${this.#path}.tmp`;
    const text = [...this.#open.values()].map((r) => `${JSON.stringify(r)}\n`).join('');
    const out = await openFile(tmp, 'w');
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
  }
}

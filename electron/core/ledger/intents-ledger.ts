import { mkdir, open, readFile, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type IntentRecord, LedgerRecord, type ResolutionRecord } from './ledger-record';

/** Knobs of the ledger. */
export interface LedgerOptions {
  /** Rewrite the file once it holds this many resolved intents (0 disables compaction). */
  readonly compactAfter?: number;
}

/**
 * The order intents ledger: an append-only, fsynced JSON-lines file (DESIGN.md §4).
 *
 * Every place-order intent is written and flushed to disk *before* its POST, so an app that
 * dies mid-request finds on restart the intents whose outcome it never learnt and asks the
 * broker about them instead of guessing. Appends are group-committed: concurrent callers share
 * one write and one `fdatasync`, so durability does not serialise a burst of orders. A torn
 * last line (a crash mid-write) is skipped on load; the intent it held was never sent, since
 * sending waits for the flush. Compaction rewrites only the unresolved intents to a temporary
 * file, fsyncs it and renames it over the old one, so a crash during it leaves one whole file.
 */
export class IntentsLedger {
  readonly #path: string;
  readonly #compactAfter: number;
  readonly #open = new Map<string, IntentRecord>();
  #resolvedInFile = 0;
  #file: FileHandle | null = null;
  #queue: Array<{ line: string; done: (err?: unknown) => void }> = [];
  #flushing: Promise<void> | null = null;
  #closed = false;

  private constructor(path: string, options: LedgerOptions) {
    this.#path = path;
    this.#compactAfter = options.compactAfter ?? 500;
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
    for (const line of text.split('\n')) {
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
        try {
          this.#file ??= await open(this.#path, 'a');
          await this.#file.write(batch.map((b) => b.line).join(''));
          await this.#file.datasync();
          for (const b of batch) b.done();
        } catch (err) {
          for (const b of batch) b.done(err);
        }
      }
    } finally {
      this.#flushing = null;
    }
  }

  async #enqueueCompaction(): Promise<void> {
    // Compact between batches: wait for the current flush, then rewrite while nothing appends.
    while (this.#flushing) await this.#flushing;
    if (this.#resolvedInFile < this.#compactAfter) return;
    const gate = this.#compact();
    this.#flushing = gate.finally(() => {
      this.#flushing = null;
      if (this.#queue.length > 0) this.#flushing = this.#drain();
    });
    await gate;
  }

  async #compact(): Promise<void> {
    if (this.#resolvedInFile === 0) return;
    const tmp = `${this.#path}.tmp`;
    const out = await open(tmp, 'w');
    try {
      await out.write([...this.#open.values()].map((r) => `${JSON.stringify(r)}\n`).join(''));
      await out.sync();
    } finally {
      await out.close();
    }
    await this.#file?.close();
    this.#file = null;
    await rename(tmp, this.#path);
    await fsyncDir(dirname(this.#path));
    this.#resolvedInFile = 0;
  }
}

/** Makes a rename durable: on Linux the directory entry needs its own fsync. */
async function fsyncDir(dir: string): Promise<void> {
  let handle: FileHandle | null = null;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Not supported on every platform (Windows); the rename itself is still atomic.
  } finally {
    await handle?.close();
  }
}

import { chmod, open as openFile, readFile, rm, stat, truncate, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../../wire/private-files';
import { fsyncDir, replaceFileDurably, writeAll } from './durable-file';

/**
 * The durable journal (docs/architecture.md §Durable journals): an append-only file of JSON
 * records, one a line, that the intents ledger (with its GTT intents) and the brackets journal
 * are built on. Each owner keeps only its record schema and decides what a compaction keeps; the
 * journal does the rest, the same way for both:
 *
 * - **Records and checksums.** A line is `<crc32 of the JSON, 8 hex digits> <JSON>`. A line that
 *   starts with `{` was written before lines carried a checksum and is read unchecked.
 * - **Formats.** Each record carries its owner's format (`v`); `readByFormat` reads the current
 *   one, migrates earlier ones, and refuses a newer one.
 * - **Durability, group-committed.** `append` resolves once its line is written and
 *   `fdatasync`ed; appends that arrive while a batch is being flushed share the next write and
 *   the next flush, so durability does not serialise a burst.
 * - **Repair, verified.** A torn last line (a crash mid-append) is cut off at open. A write that
 *   fails part-way is cut back to the last whole batch, and the cut is checked (the file's size
 *   read back) before anything else is appended; if the file cannot be cut back, appends are
 *   refused until it can, so one bad write never makes the next record unreadable.
 * - **Compaction.** The owner's records are written to a side file, fsynced, renamed over the
 *   journal and the directory fsynced (`durable-file.ts`), while appends wait: a crash leaves one
 *   whole file.
 * - **Quarantine.** A line that cannot be read (damaged, a bad checksum, a newer format) is never
 *   dropped in silence: it is appended to `<journal>.unreadable`, fsynced, reported, and only
 *   then left out when the journal is next rewritten. While that side file holds lines, every
 *   open reports them.
 * - Files are 0600 (an older file is tightened at open), the folder 0700
 *   (`wire/private-files.ts`).
 */

/** The durable steps of a journal, in order. Crash tests stop a process at one; nothing else observes them. */
export type JournalStep =
  | 'batch-written' // a batch is written, not yet fdatasync'ed
  | 'batch-synced' // a batch is on disk
  | 'compaction-written' // the compacted copy is written and fsynced, not yet renamed over the journal
  | 'compaction-renamed'; // renamed, the directory not yet fsynced

/** Why a line could not be read. */
export interface Unreadable {
  readonly why: string;
}

/** Lines the journal could not read, and the side file they were moved to. */
export interface UnreadableRecords {
  readonly count: number;
  readonly keptIn: string;
}

/** How a journal reads and reports; its owner's part. */
export interface JournalOptions<R> {
  /** Names the journal in the log ("intents ledger", "brackets journal"). */
  readonly name: string;
  /** One parsed line: the record in the current format (an earlier format migrated), or why not. */
  readonly read: (json: unknown) => R | Unreadable;
  /** Opens the journal for appending (tests inject a file whose writes fail). */
  readonly openFile?: (path: string, flags: string) => Promise<FileHandle>;
  /** Told at each durable step (crash tests). */
  readonly onStep?: (step: JournalStep) => void;
  /** Told when lines that cannot be read were moved aside (default: a warning on the console). */
  readonly onUnreadable?: (count: number, keptIn: string) => void;
}

/**
 * Reads a record by the format it carries in `v` (a record without one is format 1): `readers`
 * holds the current format's reader and one per earlier format that migrates to the current one.
 */
export function readByFormat<R>(
  json: unknown,
  current: number,
  readers: Readonly<Record<number, (json: unknown) => R | Unreadable>>,
): R | Unreadable {
  const v = typeof json === 'object' && json !== null && 'v' in json ? (json as { v: unknown }).v : 1;
  const reader = typeof v === 'number' ? readers[v] : undefined;
  if (reader) return reader(json);
  return { why: typeof v === 'number' && v > current ? `format ${v}, newer than this version's` : 'no format' };
}

/** True if `r` is why a line could not be read rather than a record. */
export function isUnreadable<R>(r: R | Unreadable): r is Unreadable {
  return typeof r === 'object' && r !== null && 'why' in r && Object.keys(r).length === 1;
}

/** One record as a line: its checksum, a space, its JSON. */
export function journalLine(record: unknown): string {
  const json = JSON.stringify(record);
  return `${checksum(json)} ${json}\n`;
}

function checksum(json: string): string {
  return crc32(json).toString(16).padStart(8, '0');
}

/** The JSON of each readable line of a journal's text (tests and tools that read a journal file). */
export function journalJson(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map(parseLine)
    .flatMap((p) => ('json' in p ? [p.json] : []));
}

/** The JSON a line holds, or why it cannot be read. */
function parseLine(line: string): { json: unknown } | Unreadable {
  let text = line;
  if (!line.startsWith('{')) {
    const m = /^([0-9a-f]{8}) (.*)$/s.exec(line);
    if (!m) return { why: 'not a journal line' };
    text = m[2] ?? '';
    if (checksum(text) !== m[1]) return { why: 'its checksum does not match' };
  }
  try {
    return { json: JSON.parse(text) as unknown };
  } catch {
    return { why: 'not JSON' };
  }
}

interface Queued {
  readonly line: string;
  readonly done: (err?: unknown) => void;
}

/** One durable journal file (see the module comment). */
export class DurableJournal<R> {
  readonly #path: string;
  readonly #name: string;
  readonly #openFile: (path: string, flags: string) => Promise<FileHandle>;
  readonly #onStep: (step: JournalStep) => void;
  #unreadable: UnreadableRecords | null = null;
  #setAsideNow = false;
  #file: FileHandle | null = null;
  /** Bytes of whole, flushed lines: what the file is cut back to after a failed write. */
  #goodLength = 0;
  /** A failed write could not be cut back yet: the next batch must first. */
  #needsCut = false;
  #queue: Queued[] = [];
  #flushing: Promise<void> | null = null;
  #closed = false;

  private constructor(path: string, options: JournalOptions<R>) {
    this.#path = path;
    this.#name = options.name;
    this.#openFile = options.openFile ?? ((p, flags) => openFile(p, flags, PRIVATE_FILE_MODE));
    this.#onStep = options.onStep ?? (() => undefined);
  }

  /**
   * Opens (creating its folder if needed) the journal at `path` and reads it: its records, oldest
   * first. Lines that cannot be read are moved to the side file before this returns.
   */
  public static async open<R>(
    path: string,
    options: JournalOptions<R>,
  ): Promise<{ journal: DurableJournal<R>; records: R[] }> {
    const journal = new DurableJournal<R>(path, options);
    await makePrivateDir(dirname(path));
    const { records, unreadable } = await journal.#load(options.read);
    if (unreadable.length > 0) {
      const keptIn = await journal.#setAside(unreadable);
      const onUnreadable =
        options.onUnreadable ??
        ((count: number) =>
          console.warn(
            `[${options.name}] ${count} record${count === 1 ? '' : 's'} in ${path} could not be read; kept in ${keptIn}`,
          ));
      onUnreadable(unreadable.length, keptIn);
    }
    journal.#unreadable = await journal.#keptAside();
    return { journal, records };
  }

  /** Lines the side file holds (moved aside at this open or an earlier one), or null. */
  public unreadable(): UnreadableRecords | null {
    return this.#unreadable;
  }

  /** Lines were moved aside at this open: the journal still holds them until it is rewritten. */
  public get rewriteDue(): boolean {
    return this.#setAsideNow;
  }

  /** Journals a record; resolves once it is on disk. */
  public append(record: R): Promise<void> {
    if (this.#closed) return Promise.reject(new Error(`the ${this.#name} is closed`));
    return new Promise((resolve, reject) => {
      this.#queue.push({ line: journalLine(record), done: (err) => (err ? reject(err) : resolve()) });
      this.#flushing ??= this.#drain();
    });
  }

  /**
   * Rewrites the journal to hold only `records()` (read once the current batch is flushed, while
   * appends wait), durably. Fails if the rewrite fails; the journal it would replace is intact.
   */
  public async rewrite(records: () => Iterable<R>): Promise<void> {
    await this.#exclusive(() => this.#replace(records()));
  }

  /**
   * A compaction while the journal is in use: like `rewrite`, but `records()` may say nothing is
   * due (null, checked once appends wait), and a failure is logged, never thrown — compaction only
   * saves space, and the journal it would replace is intact, so appending goes on.
   */
  public async compact(records: () => Iterable<R> | null): Promise<void> {
    await this.#exclusive(async () => {
      const kept = records();
      if (kept === null) return;
      await this.#replace(kept).catch(async (err: unknown) => {
        await rm(`${this.#path}.tmp`, { force: true }).catch(() => undefined);
        console.warn(`[${this.#name}] compacting ${this.#path} failed; it keeps growing until the next attempt:`, err);
      });
    });
  }

  /** Flushes what is queued and closes the file. */
  public async close(): Promise<void> {
    this.#closed = true;
    while (this.#flushing) await this.#flushing;
    await this.#file?.close();
    this.#file = null;
  }

  async #load(read: (json: unknown) => R | Unreadable): Promise<{ records: R[]; unreadable: string[] }> {
    let text = '';
    try {
      text = await readFile(this.#path, 'utf8');
      await chmod(this.#path, PRIVATE_FILE_MODE);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    // Everything after the last newline is a torn tail (a crash mid-append): cut it off, so the
    // next append starts on a line of its own.
    const whole = text.lastIndexOf('\n') + 1;
    this.#goodLength = Buffer.byteLength(text.slice(0, whole));
    if (whole < text.length && !(await this.#cutTo(this.#goodLength)))
      throw new Error(`the ${this.#name} ${this.#path} ends in a torn line that could not be cut off`);
    const records: R[] = [];
    const unreadable: string[] = [];
    for (const line of text.slice(0, whole).split('\n')) {
      if (line.trim() === '') continue;
      const parsed = parseLine(line);
      const r = 'json' in parsed ? read(parsed.json) : parsed;
      if (isUnreadable(r)) unreadable.push(line);
      else records.push(r);
    }
    return { records, unreadable };
  }

  /**
   * Moves lines that cannot be read to the side file, durably, before the journal is rewritten
   * without them: a line a newer version wrote, or one damaged on disk, may be an open intent.
   */
  async #setAside(lines: readonly string[]): Promise<string> {
    const keptIn = `${this.#path}.unreadable`;
    const out = await openFile(keptIn, 'a', PRIVATE_FILE_MODE);
    try {
      await out.write(lines.map((l) => `${l}\n`).join(''));
      await out.sync();
    } finally {
      await out.close();
    }
    await fsyncDir(dirname(keptIn));
    this.#setAsideNow = true;
    return keptIn;
  }

  /** The side file's lines, from this open or an earlier one: reported until someone deals with them. */
  async #keptAside(): Promise<UnreadableRecords | null> {
    const keptIn = `${this.#path}.unreadable`;
    const text = await readFile(keptIn, 'utf8').catch(() => '');
    const count = text.split('\n').filter((l) => l.trim() !== '').length;
    return count > 0 ? { count, keptIn } : null;
  }

  /** Writes every queued line with one write and one fdatasync, until the queue is empty. */
  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue;
        this.#queue = [];
        const text = batch.map((b) => b.line).join('');
        try {
          if (this.#needsCut) await this.#cutBack();
          if (this.#needsCut) throw new Error(`the ${this.#name} could not be repaired after a failed write`);
          this.#file ??= await this.#openFile(this.#path, 'a');
          // A write may store only part of its bytes without failing (a filling disk): the rest
          // is written before the batch counts as on disk.
          await writeAll(this.#file, Buffer.from(text));
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
   * batch, so the next batch does not land after half a line. If the cut fails, or the file is
   * not that long afterwards, the next batch tries again first (it reopens the file).
   */
  async #cutBack(): Promise<void> {
    const file = this.#file;
    this.#file = null;
    await file?.close().catch(() => undefined);
    this.#needsCut = !(await this.#cutTo(this.#goodLength));
  }

  /** Truncates the journal to `length` bytes and reads its size back: true if it is now that long. */
  async #cutTo(length: number): Promise<boolean> {
    try {
      await truncate(this.#path, length);
      return (await stat(this.#path)).size === length;
    } catch {
      return false;
    }
  }

  /** Runs `job` between batches: after the current flush, while appends queue behind it. */
  async #exclusive(job: () => Promise<void>): Promise<void> {
    while (this.#flushing) await this.#flushing;
    const gate = job();
    this.#flushing = gate
      .catch(() => undefined)
      .finally(() => {
        this.#flushing = null;
        if (this.#queue.length > 0) this.#flushing = this.#drain();
      });
    await gate;
  }

  async #replace(records: Iterable<R>): Promise<void> {
    const text = [...records].map(journalLine).join('');
    const file = this.#file;
    this.#file = null;
    await file?.close();
    await replaceFileDurably(this.#path, text, (step) =>
      this.#onStep(step === 'written' ? 'compaction-written' : 'compaction-renamed'),
    );
    this.#goodLength = Buffer.byteLength(text);
    this.#needsCut = false;
    this.#setAsideNow = false;
  }
}

import { open as openFile, readFile, truncate, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { Bracket, BracketId } from '@shared/domain/bracket';
import { fsyncDir, replaceFileDurably } from '../storage/durable-file';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../../wire/private-files';

/**
 * The brackets journal (docs/brackets.md §The journal): an append-only JSON-lines file per
 * profile, beside the intents ledger. Each line is a whole bracket as it stands after a step of
 * its state machine, written and `fdatasync`ed **before** main acts on that step; the last line
 * of a bracket is where it stands. So a crash at any point finds, at the next start, every
 * decision main took and may have begun to act on — which it then checks against the broker
 * before acting again.
 *
 * Like the intents ledger: every line carries its format (`v`); a torn last line (a crash
 * mid-append) is cut off; a line that cannot be read is moved to `<journal>.unreadable`, fsynced,
 * and reported, never dropped in silence; concurrent appends share one write and one fsync. The
 * file is rewritten (side file, fsync, rename, directory fsync) with the last line of each
 * bracket still running or finished within the day, at open and every `compactAfter` lines.
 */

/** The journal's record format (docs/brackets.md §The journal). 1: `{v, t:'bracket', at, bracket}`, `{v, t:'drop', at, id}`. */
export const BRACKET_JOURNAL_FORMAT = 1;

const BracketLine = z.object({ v: z.literal(1), t: z.literal('bracket'), at: z.number(), bracket: Bracket });
/** A bracket that never was for the trader: its entry was refused as it was created (nothing exists). */
const DropLine = z.object({ v: z.literal(1), t: z.literal('drop'), at: z.number(), id: BracketId });
const JournalLine = z.discriminatedUnion('t', [BracketLine, DropLine]);
type JournalLine = z.infer<typeof JournalLine>;

/** The durable steps of an append (crash tests stop a process at one). */
export type BracketJournalStep = 'written' | 'synced';

/** Knobs of the journal. */
export interface BracketJournalOptions {
  /** Rewrite the file after this many appended lines (default 500). */
  readonly compactAfter?: number;
  /** Finished brackets are kept this long (default a day). */
  readonly keepDoneMs?: number;
  readonly now?: () => number;
  readonly onStep?: (step: BracketJournalStep) => void;
  readonly onUnreadable?: (count: number, keptIn: string) => void;
}

/** The brackets journal of one profile. */
export class BracketJournal {
  readonly #path: string;
  readonly #compactAfter: number;
  readonly #keepDoneMs: number;
  readonly #now: () => number;
  readonly #onStep: (step: BracketJournalStep) => void;
  readonly #onUnreadable: (count: number, keptIn: string) => void;
  readonly #latest = new Map<string, Bracket>();
  #unreadable = 0;
  #file: FileHandle | null = null;
  #goodLength = 0;
  #lines = 0;
  #queue: Array<{ line: string; done: (err?: unknown) => void }> = [];
  #flushing: Promise<void> | null = null;
  #closed = false;

  private constructor(path: string, o: BracketJournalOptions) {
    this.#path = path;
    this.#compactAfter = o.compactAfter ?? 500;
    this.#keepDoneMs = o.keepDoneMs ?? 24 * 3_600_000;
    this.#now = o.now ?? Date.now;
    this.#onStep = o.onStep ?? (() => undefined);
    this.#onUnreadable =
      o.onUnreadable ??
      ((count, keptIn) =>
        console.warn(`[brackets] ${count} record(s) in ${path} could not be read; kept in ${keptIn}`));
  }

  /** Opens (creating if needed) the journal at `path`, loads it and rewrites it compactly. */
  public static async open(path: string, options: BracketJournalOptions = {}): Promise<BracketJournal> {
    const j = new BracketJournal(path, options);
    await makePrivateDir(dirname(path));
    await j.#load();
    await j.#compact();
    return j;
  }

  /** Every bracket the journal holds, as its last line says. */
  public brackets(): Bracket[] {
    return [...this.#latest.values()];
  }

  /** Lines that could not be read at open (moved to the side file). */
  public unreadable(): number {
    return this.#unreadable;
  }

  /** Journals where a bracket stands; resolves once it is on disk. Only then may main act on it. */
  public async write(bracket: Bracket): Promise<void> {
    await this.#append({ v: 1, t: 'bracket', at: this.#now(), bracket });
    this.#latest.set(bracket.id, bracket);
    await this.#maybeCompact();
  }

  /** Forgets a bracket that never was for the trader (its entry was refused as it was created). */
  public async drop(id: string): Promise<void> {
    await this.#append({ v: 1, t: 'drop', at: this.#now(), id });
    this.#latest.delete(id);
  }

  public async close(): Promise<void> {
    this.#closed = true;
    while (this.#flushing) await this.#flushing;
    await this.#file?.close();
    this.#file = null;
  }

  async #load(): Promise<void> {
    const text = await readFile(this.#path, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return '';
      throw err;
    });
    const whole = text.lastIndexOf('\n') + 1;
    this.#goodLength = Buffer.byteLength(text.slice(0, whole));
    if (whole < text.length) await truncate(this.#path, this.#goodLength);
    const unreadable: string[] = [];
    for (const line of text.slice(0, whole).split('\n')) {
      if (line.trim() === '') continue;
      let parsed: z.ZodSafeParseResult<JournalLine>;
      try {
        parsed = JournalLine.safeParse(JSON.parse(line));
      } catch {
        unreadable.push(line);
        continue;
      }
      if (!parsed.success) {
        unreadable.push(line);
        continue;
      }
      const r = parsed.data;
      if (r.t === 'drop') this.#latest.delete(r.id);
      else this.#latest.set(r.bracket.id, r.bracket);
    }
    if (unreadable.length === 0) return;
    const keptIn = `${this.#path}.unreadable`;
    const out = await openFile(keptIn, 'a', PRIVATE_FILE_MODE);
    try {
      await out.write(unreadable.map((l) => `${l}\n`).join(''));
      await out.sync();
    } finally {
      await out.close();
    }
    await fsyncDir(dirname(keptIn));
    this.#unreadable = unreadable.length;
    this.#onUnreadable(unreadable.length, keptIn);
  }

  #append(line: JournalLine): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('the brackets journal is closed'));
    return new Promise((resolve, reject) => {
      this.#queue.push({ line: `${JSON.stringify(line)}\n`, done: (err) => (err ? reject(err) : resolve()) });
      this.#flushing ??= this.#drain();
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue;
        this.#queue = [];
        const text = batch.map((b) => b.line).join('');
        try {
          this.#file ??= await openFile(this.#path, 'a', PRIVATE_FILE_MODE);
          await this.#file.write(text);
          this.#onStep('written');
          await this.#file.datasync();
          this.#goodLength += Buffer.byteLength(text);
          this.#lines += batch.length;
          this.#onStep('synced');
          for (const b of batch) b.done();
        } catch (err) {
          // Cut back to the last whole batch, so the next one does not land after half a line.
          const f = this.#file;
          this.#file = null;
          await f?.close().catch(() => undefined);
          await truncate(this.#path, this.#goodLength).catch(() => undefined);
          for (const b of batch) b.done(err);
        }
      }
    } finally {
      this.#flushing = null;
    }
  }

  async #maybeCompact(): Promise<void> {
    if (this.#lines < this.#compactAfter) return;
    while (this.#flushing) await this.#flushing;
    if (this.#lines < this.#compactAfter) return;
    // Nothing appends while the file is rewritten: appends queue behind this.
    let release: () => void = () => undefined;
    this.#flushing = new Promise<void>((r) => (release = r));
    try {
      await this.#compact();
    } catch (err) {
      // Compaction only saves space; the file it would replace is intact.
      console.warn(`[brackets] compacting ${this.#path} failed:`, err);
      this.#lines = 0;
    } finally {
      this.#flushing = null;
      release();
      if (this.#queue.length > 0) this.#flushing = this.#drain();
    }
  }

  async #compact(): Promise<void> {
    const since = this.#now() - this.#keepDoneMs;
    for (const [id, b] of this.#latest) if (b.phase === 'done' && (b.doneAt ?? 0) < since) this.#latest.delete(id);
    const text = [...this.#latest.values()]
      .map((bracket) => `${JSON.stringify({ v: 1, t: 'bracket', at: this.#now(), bracket })}\n`)
      .join('');
    await this.#file?.close();
    this.#file = null;
    await replaceFileDurably(this.#path, text);
    this.#goodLength = Buffer.byteLength(text);
    this.#lines = 0;
  }
}

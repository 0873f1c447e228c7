import { closeSync, fdatasyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { decodeRecord, encodeEvent, JournalFormatError, type JournalEvent } from './journal-format';

export type { JournalEvent } from './journal-format';

/**
 * The append-only event journal that lets a paper account survive a restart.
 *
 * One JSON object per line. Orders are journaled as full snapshots after every transition and
 * fills as trades (positions, holdings and cash are rebuilt by re-applying the trades), so
 * replay is a fold with no matching logic in it. `commit()` fsyncs before the broker answers,
 * so an acknowledged order is on disk. A crash mid-write leaves a torn last line: it is cut
 * off at start-up; a damaged line in the middle is skipped and counted. Records carry a format
 * version (journal-format.ts): an older one is converted, a newer one refuses to open.
 */

export const JOURNAL_FILE = 'paper-journal.jsonl';

export interface Replay {
  readonly events: JournalEvent[];
  /** Damaged lines skipped in the middle of the file. */
  readonly skipped: number;
  /** Whether a torn last line was cut off. */
  readonly truncated: boolean;
}

export class Journal {
  private dirty = false;

  private constructor(private fd: number | null) {}

  /** A journal that keeps nothing (no data dir). */
  static memory(): Journal {
    return new Journal(null);
  }

  /**
   * Opens (creating) the journal in `dir`, reading back what it holds. Throws, naming the file,
   * when it was written in a format this broker does not know.
   */
  static open(dir: string): { journal: Journal; replay: Replay } {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, JOURNAL_FILE);
    const fd = openSync(path, 'a+');
    try {
      return Journal.read(path, fd);
    } catch (e) {
      closeSync(fd);
      if (!(e instanceof JournalFormatError)) throw e;
      throw new JournalFormatError(
        `Cannot read the paper journal ${path}: ${e.message}. Paper data is disposable: move the file aside to start a fresh paper account.`,
      );
    }
  }

  private static read(path: string, fd: number): { journal: Journal; replay: Replay } {
    const text = readFileSync(path, 'utf8');
    const events: JournalEvent[] = [];
    let skipped = 0;
    let good = 0; // byte length of the intact prefix
    let offset = 0;
    let truncated = false;
    const lines = text.split('\n');
    lines.forEach((line, idx) => {
      const isLast = idx === lines.length - 1;
      const bytes = Buffer.byteLength(line, 'utf8') + (isLast ? 0 : 1);
      offset += bytes;
      if (line.trim() === '') {
        if (!isLast) good = offset;
        return;
      }
      try {
        if (isLast) throw new Error('no newline: torn write');
        events.push(decodeRecord(JSON.parse(line)));
        good = offset;
      } catch (e) {
        if (e instanceof JournalFormatError) throw e;
        if (isLast) truncated = true;
        else {
          skipped += 1;
          good = offset;
        }
      }
    });
    if (truncated) {
      ftruncateSync(fd, good);
      fdatasyncSync(fd);
    }
    return { journal: new Journal(fd), replay: { events, skipped, truncated } };
  }

  append(event: JournalEvent): void {
    if (this.fd === null) return;
    writeSync(this.fd, `${encodeEvent(event)}\n`);
    this.dirty = true;
  }

  /** Makes everything appended so far durable (before the broker replies). */
  commit(): void {
    if (this.fd === null || !this.dirty) return;
    fdatasyncSync(this.fd);
    this.dirty = false;
  }

  close(): void {
    if (this.fd === null) return;
    this.commit();
    closeSync(this.fd);
    this.fd = null;
  }
}

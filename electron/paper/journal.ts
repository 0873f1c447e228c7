import { closeSync, fdatasyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Session } from './sessions';
import type { PaperOrder, PaperTrade } from './types';

/**
 * The append-only event journal that lets a paper account survive a restart.
 *
 * One JSON object per line. Orders are journaled as full snapshots after every transition and
 * fills as trades (positions, holdings and cash are rebuilt by re-applying the trades), so
 * replay is a fold with no matching logic in it. `commit()` fsyncs before the broker answers,
 * so an acknowledged order is on disk. A crash mid-write leaves a torn last line: it is cut
 * off at start-up; a damaged line in the middle is skipped and counted.
 */

export type JournalEvent =
  | { readonly e: 'session'; readonly s: Session }
  | { readonly e: 'session_end'; readonly token: string }
  | { readonly e: 'order'; readonly o: PaperOrder }
  | { readonly e: 'trade'; readonly t: PaperTrade }
  /** Last prices of the instruments the account holds, written on a clean shutdown. */
  | { readonly e: 'marks'; readonly prices: Readonly<Record<string, number>> };

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

  /** Opens (creating) the journal in `dir`, reading back what it holds. */
  static open(dir: string): { journal: Journal; replay: Replay } {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, JOURNAL_FILE);
    const fd = openSync(path, 'a+');
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
        events.push(JSON.parse(line) as JournalEvent);
        good = offset;
      } catch {
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
    writeSync(this.fd, `${JSON.stringify(event)}\n`);
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

import { z } from 'zod';
import { Bracket, BracketId } from '@shared/domain/bracket';
import {
  DurableJournal,
  readByFormat,
  type JournalStep,
  type Unreadable,
  type UnreadableRecords,
} from '../storage/durable-journal';

/**
 * The brackets journal (docs/brackets.md §The journal): a durable journal per profile
 * (`storage/durable-journal.ts`), beside the intents ledger. Each record is a whole bracket as it
 * stands after a step of its state machine, written and `fdatasync`ed **before** main acts on
 * that step; the last record of a bracket is where it stands. So a crash at any point finds, at
 * the next start, every decision main took and may have begun to act on — which it then checks
 * against the broker before acting again.
 *
 * This class keeps the record schema and what a compaction keeps: the last record of each bracket
 * still running or finished within the day, rewritten at open and every `compactAfter` records.
 */

/** The journal's record format (docs/brackets.md §The journal). 1: `{v, t:'bracket', at, bracket}`, `{v, t:'drop', at, id}`. */
export const BRACKET_JOURNAL_FORMAT = 1;

const BracketRecord = z.object({ v: z.literal(1), t: z.literal('bracket'), at: z.number(), bracket: Bracket });
/** A bracket that never was for the trader: its entry was refused as it was created (nothing exists). */
const DropRecord = z.object({ v: z.literal(1), t: z.literal('drop'), at: z.number(), id: BracketId });
const BracketJournalRecord = z.discriminatedUnion('t', [BracketRecord, DropRecord]);
type BracketJournalRecord = z.infer<typeof BracketJournalRecord>;

/** One parsed record of the journal, or why it cannot be read. */
function readBracketRecord(json: unknown): BracketJournalRecord | Unreadable {
  return readByFormat<BracketJournalRecord>(json, BRACKET_JOURNAL_FORMAT, {
    1: (j) => {
      const r = BracketJournalRecord.safeParse(j);
      return r.success ? r.data : { why: `not a format 1 record (${r.error.issues[0]?.message ?? '?'})` };
    },
  });
}

/** The durable steps of an append or compaction (crash tests stop a process at one). */
export type BracketJournalStep = JournalStep;

/** Knobs of the journal. */
export interface BracketJournalOptions {
  /** Rewrite the file after this many appended records (default 500). */
  readonly compactAfter?: number;
  /** Finished brackets are kept this long (default a day). */
  readonly keepDoneMs?: number;
  readonly now?: () => number;
  readonly onStep?: (step: BracketJournalStep) => void;
  readonly onUnreadable?: (count: number, keptIn: string) => void;
}

/** The brackets journal of one profile. */
export class BracketJournal {
  readonly #journal: DurableJournal<BracketJournalRecord>;
  readonly #compactAfter: number;
  readonly #keepDoneMs: number;
  readonly #now: () => number;
  readonly #latest = new Map<string, Bracket>();
  #appended = 0;

  private constructor(journal: DurableJournal<BracketJournalRecord>, o: BracketJournalOptions) {
    this.#journal = journal;
    this.#compactAfter = o.compactAfter ?? 500;
    this.#keepDoneMs = o.keepDoneMs ?? 24 * 3_600_000;
    this.#now = o.now ?? Date.now;
  }

  /** Opens (creating if needed) the journal at `path`, loads it and rewrites it compactly. */
  public static async open(path: string, options: BracketJournalOptions = {}): Promise<BracketJournal> {
    const { journal, records } = await DurableJournal.open(path, {
      name: 'brackets journal',
      read: readBracketRecord,
      ...(options.onStep ? { onStep: options.onStep } : {}),
      onUnreadable:
        options.onUnreadable ??
        ((count, keptIn) =>
          console.warn(`[brackets] ${count} record(s) in ${path} could not be read; kept in ${keptIn}`)),
    });
    const j = new BracketJournal(journal, options);
    for (const r of records) {
      if (r.t === 'drop') j.#latest.delete(r.id);
      else j.#latest.set(r.bracket.id, r.bracket);
    }
    await journal.rewrite(() => j.#kept());
    return j;
  }

  /** Every bracket the journal holds, as its last record says. */
  public brackets(): Bracket[] {
    return [...this.#latest.values()];
  }

  /** Lines that could not be read (moved to the side file, at this open or an earlier one), or null. */
  public unreadable(): UnreadableRecords | null {
    return this.#journal.unreadable();
  }

  /** Journals where a bracket stands; resolves once it is on disk. Only then may main act on it. */
  public async write(bracket: Bracket): Promise<void> {
    await this.#journal.append({ v: 1, t: 'bracket', at: this.#now(), bracket });
    this.#latest.set(bracket.id, bracket);
    this.#appended += 1;
    if (this.#appended < this.#compactAfter) return;
    await this.#journal.compact(() => {
      // Checked again once appends wait: another write may have compacted already.
      if (this.#appended < this.#compactAfter) return null;
      this.#appended = 0;
      return this.#kept();
    });
  }

  /** Forgets a bracket that never was for the trader (its entry was refused as it was created). */
  public async drop(id: string): Promise<void> {
    await this.#journal.append({ v: 1, t: 'drop', at: this.#now(), id });
    this.#latest.delete(id);
  }

  public async close(): Promise<void> {
    await this.#journal.close();
  }

  /** What a compaction keeps: each bracket still running, or finished within `keepDoneMs`. */
  #kept(): BracketJournalRecord[] {
    const since = this.#now() - this.#keepDoneMs;
    for (const [id, b] of this.#latest) if (b.phase === 'done' && (b.doneAt ?? 0) < since) this.#latest.delete(id);
    const at = this.#now();
    return [...this.#latest.values()].map((bracket) => ({ v: 1, t: 'bracket', at, bracket }));
  }
}

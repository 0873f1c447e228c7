import type { FileHandle } from 'node:fs/promises';
import { DurableJournal, type JournalStep, type UnreadableRecords } from '../storage/durable-journal';
import {
  type GttIntentRecord,
  type GttResolutionRecord,
  type IntentRecord,
  LEDGER_FORMAT,
  type LedgerRecord,
  readRecord,
  type ResolutionRecord,
} from './ledger-record';

/** The durable steps of the ledger (its journal's: `storage/durable-journal.ts`). Crash tests kill the process at one. */
export type LedgerStep = JournalStep;

export type { UnreadableRecords };

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

/**
 * The order intents ledger: an append-only, fsynced JSON-lines file (docs/money-path.md,
 * "Exactly-once orders"). GTT creations and changes are journaled in it the same way, as their
 * own kind of line (docs/gtt.md §When the broker fails).
 *
 * Every place-order intent is written and flushed to disk *before* its POST, so an app that
 * dies mid-request finds on restart the intents whose outcome it never learnt and asks the
 * broker about them instead of guessing. The file is a durable journal
 * (`storage/durable-journal.ts`: group-committed appends, a torn line cut off, a failed write cut
 * back and checked, unreadable lines moved to `<ledger>.unreadable` and reported, durable
 * compaction); this class keeps the record schema (`ledger-record.ts`) and decides what a
 * compaction keeps: the unresolved intents, and the recently resolved ones whose request id is
 * still answered. A torn last line held an intent that was never sent, since sending waits for
 * the flush.
 */
export class IntentsLedger {
  readonly #journal: DurableJournal<LedgerRecord>;
  readonly #compactAfter: number;
  readonly #keepResolvedMs: number;
  readonly #now: () => number;
  readonly #open = new Map<string, IntentRecord>();
  /** Resolved intents with a request id, by request id, while it is still answered. */
  readonly #resolvedRequests = new Map<string, ResolvedRequest>();
  /** GTT intents whose outcome is not yet known, by their reference. */
  readonly #openGtts = new Map<string, GttIntentRecord>();
  /** Resolved GTT intents with a request id, by request id, while it is still answered. */
  readonly #resolvedGttRequests = new Map<string, ResolvedGttRequest>();
  #resolvedInFile = 0;

  private constructor(journal: DurableJournal<LedgerRecord>, options: LedgerOptions) {
    this.#journal = journal;
    this.#compactAfter = options.compactAfter ?? 500;
    this.#keepResolvedMs = options.keepResolvedMs ?? KEEP_RESOLVED_MS;
    this.#now = options.now ?? Date.now;
  }

  /** Opens (creating if needed) the ledger at `path`, loads it and compacts it. */
  public static async open(path: string, options: LedgerOptions = {}): Promise<IntentsLedger> {
    const { journal, records } = await DurableJournal.open(path, {
      name: 'intents ledger',
      read: readRecord,
      ...(options.openFile ? { openFile: options.openFile } : {}),
      ...(options.onStep ? { onStep: options.onStep } : {}),
      onUnreadable:
        options.onUnreadable ??
        ((count, keptIn) =>
          console.warn(
            `[ledger] ${count} placement record${count === 1 ? '' : 's'} in ${path} could not be read; kept in ${keptIn}`,
          )),
    });
    const ledger = new IntentsLedger(journal, options);
    for (const r of records) ledger.#take(r);
    // Lines moved aside leave the file at once, even if nothing was resolved.
    if (ledger.#resolvedInFile > 0 || journal.rewriteDue) await journal.rewrite(() => ledger.#kept());
    ledger.#resolvedInFile = 0;
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
    await this.#journal.append(record);
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
    await this.#journal.append(record);
    await this.#resolvedOnDisk();
  }

  /** Lines found unreadable (moved to the side file, at this start or an earlier one), or null. */
  public unreadable(): UnreadableRecords | null {
    return this.#journal.unreadable();
  }

  /** Journals an intent; resolves once it is on disk. Only then may its POST be sent. */
  public async appendIntent(intent: Omit<IntentRecord, 't' | 'v'>): Promise<void> {
    const record: IntentRecord = { v: LEDGER_FORMAT, t: 'intent', ...intent };
    await this.#journal.append(record);
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
    return this.#journal.append(record).then(() => this.#resolvedOnDisk());
  }

  /**
   * Journals that an intent resolved "not placed" has an order after all (docs/money-path.md §After
   * the landing horizon): its request id answers that order from now on, across a restart too, so
   * nothing offers to place it again. Only a `not_placed` answer is replaced, and only by `recovered`.
   */
  public adoptLate(resolution: Omit<ResolutionRecord, 't' | 'v' | 'outcome'>): Promise<void> {
    const record: ResolutionRecord = { v: LEDGER_FORMAT, t: 'resolved', outcome: 'recovered', ...resolution };
    if (!this.#replaceNotPlaced(record)) return Promise.resolve();
    return this.#journal.append(record).then(() => this.#resolvedOnDisk());
  }

  /** Replaces the `not_placed` answer of the record's intent with the record; false when there is none. */
  #replaceNotPlaced(record: ResolutionRecord): boolean {
    if (record.outcome !== 'recovered') return false;
    for (const [requestId, r] of this.#resolvedRequests) {
      if (r.intent.clientOrderId !== record.clientOrderId) continue;
      if (r.resolution.outcome !== 'not_placed') return false;
      this.#resolvedRequests.set(requestId, { intent: r.intent, resolution: record });
      return true;
    }
    return false;
  }

  /** Flushes and closes the file. */
  public async close(): Promise<void> {
    await this.#journal.close();
  }

  /** Takes in one record read at open, in file order. */
  #take(r: LedgerRecord): void {
    if (r.t === 'gtt') {
      this.#openGtts.set(r.ref, r);
      return;
    }
    if (r.t === 'gtt-resolved') {
      const gtt = this.#openGtts.get(r.ref);
      if (!gtt) return;
      this.#openGtts.delete(r.ref);
      this.#resolvedInFile += 1;
      if (gtt.requestId !== undefined) this.#resolvedGttRequests.set(gtt.requestId, { intent: gtt, resolution: r });
      return;
    }
    if (r.t === 'intent') {
      this.#open.set(r.clientOrderId, r);
      return;
    }
    const intent = this.#open.get(r.clientOrderId);
    if (!intent) {
      // A late order adopted after the intent ended "not placed" (`adoptLate`).
      if (this.#replaceNotPlaced(r)) this.#resolvedInFile += 1;
      return;
    }
    this.#open.delete(r.clientOrderId);
    this.#resolvedInFile += 1;
    if (intent.requestId !== undefined) this.#resolvedRequests.set(intent.requestId, { intent, resolution: r });
  }

  /**
   * Counts a resolution on disk, and compacts once `compactAfter` have accumulated. A failed
   * compaction is not the caller's failure (the journal logs it); the count restarts either way,
   * so another attempt comes after as many resolutions again (the next start compacts regardless).
   */
  async #resolvedOnDisk(): Promise<void> {
    this.#resolvedInFile += 1;
    if (this.#compactAfter === 0 || this.#resolvedInFile < this.#compactAfter) return;
    await this.#journal.compact(() => {
      // Checked again once appends wait: another resolution may have compacted already.
      if (this.#resolvedInFile < this.#compactAfter) return null;
      this.#resolvedInFile = 0;
      return this.#kept();
    });
  }

  /** What a compaction keeps: the open intents, and the resolved ones whose request id is still answered (both lines). */
  #kept(): LedgerRecord[] {
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
    return [...kept, ...this.#open.values(), ...this.#openGtts.values()];
  }
}

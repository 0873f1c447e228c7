import type { Placement } from '@shared/domain/placement';
import type { PlacementRecord } from './placement-record';

/** Settled placements kept for `requestId` replays and the list. */
const KEEP_SETTLED = 500;
/** A settled placement stays in the list this long after settling. */
const LIST_SETTLED_FOR_MS = 10 * 60_000;

/**
 * The order service's memory of recent intents: by client reference, by the renderer's
 * request id, and the unconfirmed-placements list the trader sees (`placements.list`).
 *
 * Bounded: open intents are always kept; of the settled ones, only the most recent
 * `KEEP_SETTLED`. The list holds the listed intents (answered "not yet confirmed", or found
 * open after a restart) while open, and for a while after they settle, newest first.
 */
export class PlacementBook {
  readonly #records = new Map<string, PlacementRecord>();
  readonly #byRequest = new Map<string, PlacementRecord>();
  readonly #now: () => number;
  readonly #onChange: (placements: Placement[]) => void;

  public constructor(now: () => number, onChange: (placements: Placement[]) => void) {
    this.#now = now;
    this.#onChange = onChange;
  }

  /** Remembers a new intent. */
  public add(rec: PlacementRecord): void {
    this.#records.set(rec.clientOrderId, rec);
    if (rec.requestId !== null) this.#byRequest.set(rec.requestId, rec);
    this.#prune();
  }

  public get(clientOrderId: string): PlacementRecord | undefined {
    return this.#records.get(clientOrderId);
  }

  /** The intent a renderer request id created, if remembered. */
  public byRequest(requestId: string): PlacementRecord | undefined {
    return this.#byRequest.get(requestId);
  }

  /** Intents open now, or settled at or after `since` (epoch ms). */
  public recent(since: number): PlacementRecord[] {
    return [...this.#records.values()].filter((r) => r.settledAt === null || r.settledAt >= since);
  }

  /** Open intents (checking, or waiting for the trader's decision). */
  public open(): PlacementRecord[] {
    return [...this.#records.values()].filter(
      (r) => r.state === 'checking' || r.state === 'needs_decision' || r.state === 'unverifiable',
    );
  }

  /** The unconfirmed-placements list: listed intents, open or settled recently, newest first. */
  public list(): Placement[] {
    const since = this.#now() - LIST_SETTLED_FOR_MS;
    return [...this.#records.values()]
      .filter((r) => r.listed && (r.settledAt === null || r.settledAt >= since))
      .sort((a, b) => b.journaledAt - a.journaledAt)
      .map((r) => r.toPlacement());
  }

  /** A record changed (or became listed): tell the list's watchers if it is on the list. */
  public changed(rec: PlacementRecord): void {
    if (rec.listed) this.#onChange(this.list());
    this.#prune();
  }

  #prune(): void {
    const settled = [...this.#records.values()].filter((r) => r.settledAt !== null);
    const excess = settled.length - KEEP_SETTLED;
    if (excess <= 0) return;
    settled.sort((a, b) => (a.settledAt ?? 0) - (b.settledAt ?? 0));
    for (const r of settled.slice(0, excess)) {
      this.#records.delete(r.clientOrderId);
      if (r.requestId !== null && this.#byRequest.get(r.requestId) === r) this.#byRequest.delete(r.requestId);
    }
  }
}

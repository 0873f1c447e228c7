import type { Engine } from './matching';
import type { PaperOrder } from './types';

/**
 * A lagging order book (docs/api.md §A lagging order book): order reads show each order as it
 * was `lagMs` real milliseconds ago, as a real broker's order book trails its order system. The
 * engine, the POST reply, the stream and the duplicate check stay immediate; only what the order
 * reads see waits.
 */

/** What the order reads of both dialects see: the engine itself, or the engine `lagMs` ago. */
export interface OrderReads {
  /** Names this run of the broker in cursors. */
  readonly run: string;
  /** Every order that shows, in placement order. */
  allOrders(): PaperOrder[];
  /** The order as it shows, or undefined while it does not show yet (or does not exist). */
  order(orderId: string): PaperOrder | undefined;
  /** The number of the latest change that shows (docs/api.md §Incremental reads). */
  changeCursor(): number;
  /** Orders whose latest change that shows is numbered above `seq`, in the order of those changes. */
  ordersChangedSince(seq: number): PaperOrder[];
}

/** An order's state at one of its changes: its fields then, and how long its history was. */
interface Snapshot {
  /** A copy of the order's fields; `history` is the order's own list, which only ever grows. */
  readonly order: PaperOrder;
  readonly historyLength: number;
  readonly seq: number;
  /** Real epoch ms of the change. */
  readonly at: number;
}

/**
 * At most this many changes wait to show. Past it the oldest shows early, so a flood of changes
 * shortens the lag instead of growing memory without bound.
 */
export const MAX_WAITING_CHANGES = 100_000;

/** The order as it was at `s` (a fresh object: the caller may keep it). */
function materialize(s: Snapshot): PaperOrder {
  return { ...s.order, history: s.order.history.slice(0, s.historyLength) };
}

export class LaggingOrderBook implements OrderReads {
  /** Changes not showing yet, oldest first (from `head`): numbers and times both ascend. */
  private waiting: Snapshot[] = [];
  private head = 0;
  /** Order id → the number of its latest waiting change: an order not here shows as the engine has it. */
  private readonly latestWaiting = new Map<string, number>();
  /**
   * Order id → its state at its latest change. The engine changes an order in place before it
   * numbers the change, so this copy is what shows of it while its next change waits.
   */
  private readonly latest = new Map<string, Snapshot>();
  /** Order id → what shows of an order that has waiting changes and showed before them. */
  private readonly shown = new Map<string, Snapshot>();
  /** Each order's latest change that shows, oldest first (the engine's change map, lagged). */
  private readonly shownChanges = new Map<string, number>();
  private shownSeq = 0;
  /** False while the journal is replayed and the start catches up: those changes show at once. */
  private live = false;
  private lastAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly engine: Engine,
    private readonly lagMs: number,
    private readonly realClock: () => number,
    private readonly maxWaiting = MAX_WAITING_CHANGES,
  ) {
    if (!(Number.isInteger(lagMs) && lagMs > 0))
      throw new Error(`orderbookLagMs must be a whole number > 0, not ${lagMs}`);
    engine.watchChanges((o, seq) => this.noted(o, seq));
  }

  /** From now on changes wait `lagMs` before they show (what the start restored shows at once). */
  start(): void {
    this.live = true;
  }

  /** The order reads at real time `realNow`. */
  at(realNow: number): OrderReads {
    this.reveal(realNow);
    return this;
  }

  /** Changes waiting to show (tests, the memory bound). */
  waitingCount(): number {
    return this.waiting.length - this.head;
  }

  get run(): string {
    return this.engine.run;
  }

  changeCursor(): number {
    return this.shownSeq;
  }

  order(orderId: string): PaperOrder | undefined {
    if (!this.latestWaiting.has(orderId)) return this.engine.order(orderId);
    const s = this.shown.get(orderId);
    return s === undefined ? undefined : materialize(s);
  }

  allOrders(): PaperOrder[] {
    const out: PaperOrder[] = [];
    for (const o of this.engine.allOrders()) {
      const seen = this.latestWaiting.has(o.orderId) ? this.order(o.orderId) : o;
      if (seen !== undefined) out.push(seen);
    }
    return out;
  }

  ordersChangedSince(seq: number): PaperOrder[] {
    const out: PaperOrder[] = [];
    if (seq >= this.shownSeq) return out;
    for (const [id, at] of this.shownChanges) {
      if (at <= seq) continue;
      const o = this.order(id);
      if (o) out.push(o);
    }
    return out;
  }

  private noted(o: PaperOrder, seq: number): void {
    const id = o.orderId;
    if (!this.live) {
      this.latest.set(id, { order: { ...o }, historyLength: o.history.length, seq, at: Number.NEGATIVE_INFINITY });
      this.show(id, seq);
      return;
    }
    // Real time may step back (an NTP correction): a change never shows before an earlier one.
    const at = Math.max(this.lastAt, this.realClock());
    this.lastAt = at;
    const snapshot: Snapshot = { order: { ...o }, historyLength: o.history.length, seq, at };
    // Showing whole until now: what shows from now on is its state before this change.
    const before = this.latest.get(id);
    if (!this.latestWaiting.has(id) && before !== undefined) this.shown.set(id, before);
    this.latest.set(id, snapshot);
    this.waiting.push(snapshot);
    this.latestWaiting.set(id, seq);
    // Revealing here too keeps the log to the lag's window even when nobody reads.
    this.reveal(at);
    while (this.waitingCount() > this.maxWaiting) this.apply(this.take());
  }

  /** Shows every change at least `lagMs` old at real time `t`. */
  private reveal(t: number): void {
    const due = t - this.lagMs;
    while (this.head < this.waiting.length && (this.waiting[this.head] as Snapshot).at <= due) this.apply(this.take());
  }

  private take(): Snapshot {
    const s = this.waiting[this.head] as Snapshot;
    this.head += 1;
    // Drop the shown prefix now and then, so the array holds only what waits.
    if (this.head >= 1024 && this.head * 2 >= this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
    return s;
  }

  private apply(s: Snapshot): void {
    const id = s.order.orderId;
    this.show(id, s.seq);
    if (this.latestWaiting.get(id) === s.seq) {
      // Its latest change shows: the engine's own order is what shows now, no copy kept.
      this.latestWaiting.delete(id);
      this.shown.delete(id);
    } else this.shown.set(id, s);
  }

  private show(orderId: string, seq: number): void {
    this.shownChanges.delete(orderId);
    this.shownChanges.set(orderId, seq);
    this.shownSeq = seq;
  }
}

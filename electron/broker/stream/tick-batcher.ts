import type { Tick } from '@shared/domain/market';

/** Knobs of the batcher. */
export interface TickBatcherOptions {
  /** Shortest time between two flushes (main has no animation frames; 100 ms ≈ 6 frames). */
  readonly everyMs?: number;
  /** Clock (ms); injectable for tests. */
  readonly now?: () => number;
}

/**
 * Coalesces ticks into at most one delivery per `everyMs`, carrying only the latest tick of
 * each instrument.
 *
 * The renderer paints a price at most once a frame, so a tick superseded before the next
 * delivery is worthless to it, and every IPC message costs a structured clone, a task on the
 * renderer's main thread and a react-query notification. The first tick after a quiet spell
 * goes out on the next turn of the event loop (not after a full interval), so an isolated
 * price change is not delayed; a busy stream is capped at 1000/everyMs messages a second.
 */
export class TickBatcher {
  readonly #flush: (ticks: Tick[]) => void;
  readonly #everyMs: number;
  readonly #now: () => number;
  #pending = new Map<number, Tick>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  #lastFlush = -Infinity;

  public constructor(flush: (ticks: Tick[]) => void, options: TickBatcherOptions = {}) {
    this.#flush = flush;
    this.#everyMs = options.everyMs ?? 100;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Queues a tick; a newer tick of the same instrument replaces it. */
  public push(tick: Tick): void {
    this.#pending.set(tick.instrumentToken, tick);
    if (this.#timer !== null) return;
    const wait = Math.max(0, this.#lastFlush + this.#everyMs - this.#now());
    this.#timer = setTimeout(() => this.#deliver(), wait);
    if (typeof this.#timer === 'object' && 'unref' in this.#timer) this.#timer.unref();
  }

  /** Drops what is queued and stops the timer (logout, shutdown). */
  public close(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#pending = new Map();
  }

  #deliver(): void {
    this.#timer = null;
    if (this.#pending.size === 0) return;
    const ticks = [...this.#pending.values()];
    this.#pending = new Map();
    this.#lastFlush = this.#now();
    this.#flush(ticks);
  }
}

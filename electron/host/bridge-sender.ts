import type { WebSocket } from 'ws';
import type { Tick } from '@shared/domain/market';

/**
 * Everything the browser host sends one page, with a bound on what may wait unsent
 * (docs/architecture.md §The bridge, bounded sends).
 *
 * A page that stops reading (a frozen tab, a debugger pause, a hostile client) must not grow
 * the host's memory. Past `coalesceAboveBytes` unsent, ticks are no longer queued one message
 * each: the latest tick of each instrument is kept and sent as one `market.ticks` message once
 * the socket has room (prices are state, so an old one is worth nothing once a newer exists).
 * Replies and every other event are never dropped. A page still behind after `slowCloseMs`, or
 * with `closeAboveBytes` unsent, is closed with 4008; one that stops answering pings is dropped
 * after `deadAfterMs`. `close()` releases everything it kept.
 */

/** Bounds of one bridge socket. */
export interface BridgeLimits {
  readonly coalesceAboveBytes: number;
  readonly closeAboveBytes: number;
  readonly slowCloseMs: number;
  readonly pingEveryMs: number;
  readonly deadAfterMs: number;
}

export const DEFAULT_BRIDGE_LIMITS: BridgeLimits = {
  coalesceAboveBytes: 256 * 1024,
  closeAboveBytes: 4 * 1024 * 1024,
  slowCloseMs: 10_000,
  pingEveryMs: 10_000,
  deadAfterMs: 30_000,
};

/** Close code for a page that reads too slowly (the paper stream uses the same). */
export const CLOSE_TOO_SLOW = 4008;

/** How long a slow page's close frame gets before the connection is cut. */
const CLOSE_GRACE_MS = 2_000;

/** How often kept ticks are retried while the page is behind. */
const FLUSH_EVERY_MS = 100;

/**
 * One serialisation per event, not per page: the hub hands every bridge the same payload
 * object, so the first sender's text is reused by the rest.
 */
const serialised = new WeakMap<object, string>();

function eventText(event: string, payload: unknown): string {
  if (payload === null || typeof payload !== 'object') return JSON.stringify({ event, payload });
  let text = serialised.get(payload);
  if (text === undefined) serialised.set(payload, (text = JSON.stringify({ event, payload })));
  return text;
}

export class BridgeSender {
  readonly #ws: WebSocket;
  readonly #limits: BridgeLimits;
  readonly #now: () => number;
  readonly #pending = new Map<number, Tick>();
  #behindSince: number | null = null;
  #lastPong: number;
  #flushTimer: NodeJS.Timeout | null = null;
  readonly #pingTimer: NodeJS.Timeout;
  #closed = false;

  public constructor(ws: WebSocket, limits: Partial<BridgeLimits> = {}, now: () => number = Date.now) {
    this.#ws = ws;
    this.#limits = { ...DEFAULT_BRIDGE_LIMITS, ...limits };
    this.#now = now;
    this.#lastPong = now();
    ws.on('pong', () => {
      this.#lastPong = this.#now();
    });
    this.#pingTimer = setInterval(() => this.#ping(), this.#limits.pingEveryMs);
    this.#pingTimer.unref();
  }

  /** True once closed (by the page, or for being too slow or silent). */
  public get closed(): boolean {
    return this.#closed;
  }

  /** Unsent bytes on this socket (tests and the soak watch it stay bounded). */
  public get bufferedBytes(): number {
    return this.#ws.bufferedAmount;
  }

  /** Sends one event; ticks for a page that is behind are kept, latest per instrument. */
  public event(event: string, payload: unknown): void {
    if (event === 'market.ticks') return this.#ticks(payload as { ticks: readonly Tick[] });
    this.#send(eventText(event, payload));
  }

  /** Sends a call's reply (never dropped). */
  public reply(id: number | string | null, result: unknown): void {
    this.#send(JSON.stringify({ id, result }));
  }

  /** Stops the timers and forgets what was kept; the socket is closing. */
  public close(): void {
    this.#closed = true;
    clearInterval(this.#pingTimer);
    if (this.#flushTimer) clearInterval(this.#flushTimer);
    this.#flushTimer = null;
    this.#pending.clear();
  }

  #open(): boolean {
    return !this.#closed && this.#ws.readyState === this.#ws.OPEN;
  }

  #send(text: string): void {
    if (!this.#open()) return;
    this.#ws.send(text);
    this.#police();
  }

  #ticks(payload: { ticks: readonly Tick[] }): void {
    if (!this.#open() || payload.ticks.length === 0) return;
    if (this.#pending.size === 0 && this.#ws.bufferedAmount <= this.#limits.coalesceAboveBytes) {
      this.#ws.send(eventText('market.ticks', payload));
      return;
    }
    for (const t of payload.ticks) this.#pending.set(t.instrumentToken, t);
    if (this.#behindSince === null) {
      this.#behindSince = this.#now();
      this.#flushTimer = setInterval(() => this.#flush(), FLUSH_EVERY_MS);
      this.#flushTimer.unref();
    }
    this.#police();
  }

  /** Sends the kept ticks as one message once the socket has room; then the page has caught up. */
  #flush(): void {
    if (!this.#open() || this.#pending.size === 0) return;
    if (this.#ws.bufferedAmount > this.#limits.coalesceAboveBytes) return this.#police();
    this.#ws.send(JSON.stringify({ event: 'market.ticks', payload: { ticks: [...this.#pending.values()] } }));
    this.#pending.clear();
    this.#behindSince = null;
    if (this.#flushTimer) clearInterval(this.#flushTimer);
    this.#flushTimer = null;
  }

  #police(): void {
    const buffered = this.#ws.bufferedAmount;
    const now = this.#now();
    const tooFar = buffered >= this.#limits.closeAboveBytes;
    const tooLong = this.#behindSince !== null && now - this.#behindSince >= this.#limits.slowCloseMs;
    if (!tooFar && !tooLong) return;
    const why = tooFar ? `${buffered} bytes unread` : `behind for ${Math.round((now - this.#behindSince!) / 1000)} s`;
    this.close();
    this.#ws.close(CLOSE_TOO_SLOW, `too slow: ${why}; reload the page`);
    const ws = this.#ws;
    setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  #ping(): void {
    if (!this.#open()) return;
    if (this.#now() - this.#lastPong >= this.#limits.deadAfterMs) {
      // No pong for that long: the page is gone (or not reading at all).
      this.close();
      this.#ws.terminate();
      return;
    }
    this.#flush();
    this.#ws.ping();
  }
}

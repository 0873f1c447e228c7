import { WebSocket } from 'ws';

/**
 * The server side of every WebSocket main serves — the paper broker's `/v1/stream` and Kite
 * ticker, the browser host's bridge — with one policy for what a peer may cost (docs/api.md
 * §Stream, docs/architecture.md §The bridge).
 *
 * Nothing a peer does can grow the server's memory without bound. Messages that must arrive
 * (order updates, replies, errors, heartbeats) are always sent. Messages that carry state
 * (a tick: only the latest price of an instrument is worth anything) are *offered*: sent at once
 * while the peer keeps up, but once its unsent bytes pass `coalesceAboveBytes` only the latest
 * value per key is kept, and sent packed (`pack`) as soon as the socket has room. A peer behind
 * for `slowCloseMs`, or with `closeAboveBytes` unsent, is closed with the dialect's "too slow"
 * code; one that answers no ping for `deadAfterMs` is dropped; one whose session ended is closed
 * with the dialect's code at the next beat. A closed or dropped peer leaves the set at once, and
 * everything it kept is released.
 */

/** Bounds of one peer. */
export interface FanOutLimits {
  /** Unsent bytes above which offered values are kept, latest per key, instead of sent. */
  readonly coalesceAboveBytes: number;
  /** Unsent bytes at which a peer is closed at once. */
  readonly closeAboveBytes: number;
  /** How long a peer may stay behind (values kept) before it is closed. */
  readonly slowCloseMs: number;
  /** How long a peer may go without answering a ping before it is dropped. */
  readonly deadAfterMs: number;
}

export const DEFAULT_FAN_OUT_LIMITS: FanOutLimits = {
  coalesceAboveBytes: 256 * 1024,
  closeAboveBytes: 4 * 1024 * 1024,
  slowCloseMs: 10_000,
  deadAfterMs: 20_000,
};

/** A close code and the reason sent with it. */
export interface Closing {
  readonly code: number;
  readonly reason: string;
}

/** One server's dialect of the policy. */
export interface FanOutOptions<S, V> {
  readonly limits?: Partial<FanOutLimits>;
  /** How often every peer is checked (session, liveness), given what it kept, sent its heartbeat and pinged. */
  readonly beatMs: number;
  /** The close of a peer that reads too slowly: its code, and what the peer should do ("reconnect and read faster"). */
  readonly tooSlow: { readonly code: number; readonly advice: string };
  /** The messages that carry values kept while a peer was behind, latest per key. */
  pack(kept: V[]): Array<string | Buffer>;
  /** The close of a peer whose session ended, or null while it holds. */
  revoked?(state: S): Closing | null;
  /** What a beat sends a live peer (`sentSinceBeat` says whether it heard anything since the last beat). */
  heartbeat?(peer: Peer<S, V>): string | Buffer | null;
  /** Wall clock (ms) for the bounds. */
  readonly now?: () => number;
}

/** How soon a peer that is behind is offered its kept values again. */
const FLUSH_RETRY_MS = 25;

/** How long a slow peer's close frame gets to reach it before the connection is cut. */
const CLOSE_GRACE_MS = 2_000;

/** One peer's outbound side. */
export class Peer<S, V> {
  public readonly state: S;
  readonly #ws: WebSocket;
  readonly #fan: FanOut<S, V>;
  readonly #pending = new Map<number, V>();
  #behindSince: number | null = null;
  #flushTimer: NodeJS.Timeout | null = null;
  #lastPong: number;
  #closed = false;
  /** Whether anything went out since the last beat (a quiet peer may get a heartbeat instead). */
  public sentSinceBeat = false;

  public constructor(ws: WebSocket, state: S, fan: FanOut<S, V>) {
    this.#ws = ws;
    this.state = state;
    this.#fan = fan;
    this.#lastPong = fan.now();
  }

  /** Unsent bytes on this socket. */
  public get bufferedBytes(): number {
    return this.#ws.bufferedAmount;
  }

  /** True once closed or dropped, by either side. */
  public get closed(): boolean {
    return this.#closed;
  }

  /** A message that must arrive (never dropped, never coalesced). */
  public send(data: string | Buffer): void {
    if (!this.#open()) return;
    this.#ws.send(data);
    this.sentSinceBeat = true;
    this.#police();
  }

  /**
   * Values that carry state, keyed (an instrument's tick): `message` goes now while the peer
   * keeps up; while it is behind, each key's latest value is kept instead.
   */
  public offer(entries: ReadonlyArray<readonly [number, V]>, message: string | Buffer | (() => string | Buffer)): void {
    if (entries.length === 0 || !this.#open()) return;
    if (this.#pending.size > 0 || this.#ws.bufferedAmount > this.#fan.limits.coalesceAboveBytes) {
      for (const [key, value] of entries) this.#pending.set(key, value);
      this.#behindSince ??= this.#fan.now();
      this.#police();
      this.#scheduleFlush();
      return;
    }
    this.#ws.send(typeof message === 'function' ? message() : message);
    this.sentSinceBeat = true;
  }

  /** Forgets a kept value (the peer no longer wants the key). */
  public forget(key: number): void {
    this.#pending.delete(key);
  }

  /** Sends the kept values once the socket has room; then the peer has caught up. */
  public flush(): void {
    if (this.#pending.size === 0 || !this.#open()) return;
    if (this.#ws.bufferedAmount > this.#fan.limits.coalesceAboveBytes) return this.#police();
    for (const message of this.#fan.options.pack([...this.#pending.values()])) this.#ws.send(message);
    this.sentSinceBeat = true;
    this.#pending.clear();
    this.#behindSince = null;
  }

  /** Closes the peer with `code` (it leaves the fan-out now; the connection is cut if the close frame cannot go). */
  public close(code: number, reason: string): void {
    if (this.#closed) return;
    this.release();
    this.#ws.close(code, reason);
    const ws = this.#ws;
    setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  /** Cuts the connection without a word (a dead peer, a stream switched off). */
  public drop(): void {
    this.release();
    this.#ws.terminate();
  }

  /** Leaves the fan-out and forgets everything kept; the socket is closing or closed. */
  public release(): void {
    this.#closed = true;
    this.#fan.remove(this);
    this.#pending.clear();
    if (this.#flushTimer !== null) clearTimeout(this.#flushTimer);
    this.#flushTimer = null;
  }

  /** @internal The fan-out's beat: session, liveness, what was kept, heartbeat, ping. */
  public beat(now: number): void {
    const revoked = this.#fan.options.revoked?.(this.state);
    if (revoked) return this.close(revoked.code, revoked.reason);
    if (now - this.#lastPong >= this.#fan.limits.deadAfterMs) return this.drop();
    this.flush();
    const heartbeat = this.#fan.options.heartbeat?.(this);
    if (heartbeat !== null && heartbeat !== undefined) this.send(heartbeat);
    this.sentSinceBeat = false;
    if (this.#open()) this.#ws.ping();
  }

  /** @internal */
  public pong(now: number): void {
    this.#lastPong = now;
  }

  #open(): boolean {
    return !this.#closed && this.#ws.readyState === WebSocket.OPEN;
  }

  #scheduleFlush(): void {
    if (this.#flushTimer !== null || this.#closed) return;
    this.#flushTimer = setTimeout(() => {
      this.#flushTimer = null;
      this.flush();
      if (this.#pending.size > 0) this.#scheduleFlush();
    }, FLUSH_RETRY_MS);
    this.#flushTimer.unref();
  }

  /** Closes a peer too far behind, or behind for too long. */
  #police(): void {
    const { closeAboveBytes, slowCloseMs } = this.#fan.limits;
    const buffered = this.#ws.bufferedAmount;
    const now = this.#fan.now();
    const tooFar = buffered >= closeAboveBytes;
    const tooLong = this.#behindSince !== null && now - this.#behindSince >= slowCloseMs;
    if (!tooFar && !tooLong) return;
    const why = tooFar ? `${buffered} bytes unread` : `behind for ${Math.round((now - this.#behindSince!) / 1000)} s`;
    const { code, advice } = this.#fan.options.tooSlow;
    this.close(code, `too slow: ${why}; ${advice}`);
  }
}

/** Every peer of one server, beaten together. */
export class FanOut<S, V> {
  public readonly options: FanOutOptions<S, V>;
  public readonly limits: FanOutLimits;
  public readonly now: () => number;
  readonly #peers = new Set<Peer<S, V>>();
  readonly #beat: NodeJS.Timeout;

  public constructor(options: FanOutOptions<S, V>) {
    this.options = options;
    this.limits = { ...DEFAULT_FAN_OUT_LIMITS, ...options.limits };
    this.now = options.now ?? Date.now;
    this.#beat = setInterval(() => this.beat(), options.beatMs);
    this.#beat.unref();
  }

  /** Takes a freshly upgraded socket in; it leaves when it closes. */
  public attach(ws: WebSocket, state: S): Peer<S, V> {
    const peer = new Peer(ws, state, this);
    this.#peers.add(peer);
    ws.on('close', () => peer.release());
    ws.on('error', () => peer.release());
    ws.on('pong', () => peer.pong(this.now()));
    return peer;
  }

  /** The peers still open. */
  public peers(): IterableIterator<Peer<S, V>> {
    return this.#peers.values();
  }

  public get size(): number {
    return this.#peers.size;
  }

  /** @internal A peer that closed. */
  public remove(peer: Peer<S, V>): void {
    this.#peers.delete(peer);
  }

  /** Checks every peer now (the timer does it every `beatMs`). */
  public beat(): void {
    const now = this.now();
    for (const peer of [...this.#peers]) peer.beat(now);
  }

  /** Cuts every peer, as a lost network would; returns how many. */
  public cut(): number {
    const cut = this.#peers.size;
    for (const peer of [...this.#peers]) peer.drop();
    return cut;
  }

  /** Each peer's unsent bytes (tests and the soak watch them stay bounded). */
  public buffered(): number[] {
    return [...this.#peers].map((p) => p.bufferedBytes);
  }

  /** Stops the beat and cuts every peer. */
  public close(): void {
    clearInterval(this.#beat);
    this.cut();
  }
}

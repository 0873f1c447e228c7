import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { toIstIso } from '@shared/lib/ist-time';
import { STREAM_SUBSCRIPTION_LIMIT, WireStreamClientMessage } from '@shared/wire/schemas';
import type { StreamMode } from '@shared/domain/market';
import type { Market, PriceMove } from './market';
import { tickText } from './quote-view';
import { rawProblem, requestUrl } from './http-io';
import { Problem } from './problem';
import type { AuthGuard } from './auth-guard';
import type { Session } from './sessions';
import type { PaperOrder } from './types';
import { wireOrder } from './wire-views';

/**
 * The `/v1/stream` WebSocket: ticks for subscribed tokens, every order change, heartbeats.
 *
 * Authenticated on the upgrade request with the same Bearer header as REST (a refused upgrade
 * is a plain HTTP 401 with a problem+json body). A socket whose token expires or is revoked
 * is closed with 4001 at the next heartbeat, so a client cannot stream on a dead login.
 * A malformed client message, or a subscription over the limit, is answered with an `error`
 * message naming what is wrong; the socket stays open.
 *
 * Nothing a client does can make the broker hold unbounded memory for it (docs/api.md
 * §Stream): a socket whose unsent bytes pass `coalesceAboveBytes` gets only the latest tick of
 * each instrument until it catches up (order messages are never dropped); one that stays behind
 * for `slowCloseMs`, or passes `closeAboveBytes`, is closed with 4008; one that stops answering
 * pings is dropped after `deadAfterMs`. Everything a socket held is released when it closes.
 */

/** Bounds of one stream socket; see docs/api.md §Stream. */
export interface StreamLimits {
  /** Unsent bytes above which a socket gets only the latest tick per instrument. */
  readonly coalesceAboveBytes: number;
  /** Unsent bytes at which a socket is closed at once (4008). */
  readonly closeAboveBytes: number;
  /** How long a socket may stay behind (coalescing) before it is closed (4008). */
  readonly slowCloseMs: number;
  /** How long a socket may go without answering a ping before it is dropped. */
  readonly deadAfterMs: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  coalesceAboveBytes: 256 * 1024,
  closeAboveBytes: 4 * 1024 * 1024,
  slowCloseMs: 10_000,
  deadAfterMs: 20_000,
};

/** The stream's knobs: its bounds, and (tests) whether it answers client pings. */
export type StreamOptions = Partial<StreamLimits> & {
  /** False makes every socket look half-open to a client that pings (tests of its watchdog). */
  readonly answerPings?: boolean;
};

/** Close code for a socket that reads too slowly (an application code, like 4001). */
export const CLOSE_TOO_SLOW = 4008;

/** How soon a socket that is behind is offered its kept ticks again. */
const FLUSH_RETRY_MS = 25;

/** How long a slow socket's close frame gets to reach it before the connection is cut. */
const CLOSE_GRACE_MS = 2_000;

interface Client {
  readonly ws: WebSocket;
  readonly session: Session;
  readonly tokens: Set<number>;
  /** Tokens in a mode other than the default `quote` (docs/api.md §Stream, modes). */
  readonly modes: Map<number, StreamMode>;
  /** The latest unsent tick per instrument while the socket is behind (serialised). */
  readonly pending: Map<number, string>;
  /** Since when the socket has been behind, or null. */
  behindSince: number | null;
  /** A pending flush while the socket is behind (so kept ticks go out as soon as it drains, not at the next heartbeat). */
  flushTimer: NodeJS.Timeout | null;
  lastPong: number;
}

export class Stream {
  private readonly wss: WebSocketServer;
  private readonly clients = new Set<Client>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly limits: StreamLimits;
  /** False while the control interface has switched the stream off (tests of a lost stream). */
  private accepting = true;
  /** Other WebSocket paths on the same server (the Kite ticker, docs/kite.md §Ticker), by path. */
  private readonly delegates = new Map<string, (req: IncomingMessage, socket: Duplex, head: Buffer) => void>();

  constructor(
    server: Server,
    private readonly auth: AuthGuard,
    private readonly market: Market,
    heartbeatMs: number,
    { answerPings = true, ...limits }: StreamOptions = {},
    /** The market clock: what ticks and heartbeats are stamped with. */
    private readonly clock: () => number = Date.now,
    /** Real time: token lifetimes. */
    private readonly realClock: () => number = Date.now,
  ) {
    this.limits = { ...DEFAULT_STREAM_LIMITS, ...limits };
    this.wss = new WebSocketServer({ noServer: true, maxPayload: 256 * 1024, autoPong: answerPings });
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head));
    this.heartbeat = setInterval(() => this.beat(), heartbeatMs);
    this.heartbeat.unref();
  }

  /** Hands upgrades of `path` to another WebSocket server on the same HTTP server. */
  delegate(path: string, handler: (req: IncomingMessage, socket: Duplex, head: Buffer) => void): void {
    this.delegates.set(path, handler);
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    // The socket is ours from here: a peer that resets it mid-refusal must not crash the broker.
    socket.on('error', () => socket.destroy());
    const refuse = (p: Problem): void => {
      socket.end(rawProblem(p));
    };
    let path: string;
    try {
      path = requestUrl(req.url).pathname;
    } catch (e) {
      return refuse(e instanceof Problem ? e : new Problem(400, 'invalid_field', 'Bad request target'));
    }
    const other = this.delegates.get(path);
    if (other) return other(req, socket, head);
    if (path !== '/v1/stream') return refuse(new Problem(404, 'not_found', `No WebSocket at ${path}; use /v1/stream`));
    if (!this.accepting)
      return refuse(new Problem(503, 'server_error', 'The stream is switched off (control interface)'));
    let session: Session;
    try {
      session = this.auth.authenticate(req.headers.authorization, req.socket.remoteAddress ?? '', this.realClock());
    } catch (e) {
      return refuse(e instanceof Problem ? e : new Problem(401, 'token_invalid', 'Unauthorized'));
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.attach(ws, session));
  }

  private attach(ws: WebSocket, session: Session): void {
    const client: Client = {
      ws,
      session,
      tokens: new Set(),
      modes: new Map(),
      pending: new Map(),
      behindSince: null,
      flushTimer: null,
      lastPong: Date.now(),
    };
    this.clients.add(client);
    const release = (): void => {
      this.clients.delete(client);
      client.pending.clear();
      client.tokens.clear();
      client.modes.clear();
      if (client.flushTimer !== null) clearTimeout(client.flushTimer);
      client.flushTimer = null;
    };
    ws.on('close', release);
    ws.on('error', release);
    ws.on('pong', () => {
      client.lastPong = Date.now();
    });
    ws.on('message', (data) => this.onMessage(client, data));
  }

  private onMessage(client: Client, data: RawData): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(data));
    } catch {
      return this.error(client, 'invalid_message', 'Send JSON: {"action":"subscribe"|"unsubscribe","tokens":[…]}');
    }
    const asked = (parsed as { tokens?: unknown } | null)?.tokens;
    if (Array.isArray(asked) && asked.length > STREAM_SUBSCRIPTION_LIMIT) return this.overLimit(client, asked.length);
    const msg = WireStreamClientMessage.safeParse(parsed);
    if (!msg.success) {
      const issue = msg.error.issues[0];
      const where = issue?.path.length ? issue.path.map(String).join('.') : 'message';
      return this.error(client, 'invalid_message', `${where}: ${issue?.message ?? 'invalid'}`);
    }
    if (msg.data.action === 'mode') {
      const { mode } = msg.data;
      const now = Date.now();
      const at = this.clock();
      for (const t of new Set(msg.data.tokens)) {
        if (!client.tokens.has(t)) continue;
        if (mode === 'quote') client.modes.delete(t);
        else client.modes.set(t, mode);
        // One tick in the new mode at once, so a depth ladder fills without waiting for a move.
        const i = this.market.instrument(t);
        if (i) this.sendTick(client, t, tickText(this.market, i, mode, at), now);
      }
      return;
    }
    if (msg.data.action === 'unsubscribe') {
      for (const t of msg.data.tokens) {
        client.tokens.delete(t);
        client.modes.delete(t);
        client.pending.delete(t);
      }
      return;
    }
    // Every token asked for counts, listed or not: the limit is on what a socket asks to hold.
    const fresh = [...new Set(msg.data.tokens)].filter((t) => !client.tokens.has(t));
    if (client.tokens.size + fresh.length > STREAM_SUBSCRIPTION_LIMIT)
      return this.overLimit(client, client.tokens.size + fresh.length);
    const now = Date.now();
    const at = this.clock();
    for (const t of fresh) {
      client.tokens.add(t);
      // The current price at once, so a new subscriber never shows an empty quote.
      const i = this.market.instrument(t);
      if (i) this.sendTick(client, t, tickText(this.market, i, 'quote', at), now);
    }
  }

  /** Refuses a subscription past the limit: nothing of it is subscribed, and the client is told. */
  private overLimit(client: Client, wanted: number): void {
    this.error(
      client,
      'subscription_limit',
      `A stream socket may subscribe to at most ${STREAM_SUBSCRIPTION_LIMIT} instruments; this would make ${wanted}. ` +
        'Nothing of this subscription was applied; send fewer tokens or unsubscribe some first',
    );
  }

  private error(client: Client, code: string, message: string): void {
    this.send(client, JSON.stringify({ type: 'error', code, message }), Date.now());
  }

  /** A message that must not be dropped (order, heartbeat, error). */
  private send(c: Client, text: string, now: number): void {
    if (c.ws.readyState !== WebSocket.OPEN) return;
    c.ws.send(text);
    this.police(c, now);
  }

  /** A tick: sent now, or kept as the instrument's latest while the socket is behind. */
  private sendTick(c: Client, token: number, text: string, now: number): void {
    if (c.ws.readyState !== WebSocket.OPEN) return;
    if (c.pending.size > 0 || c.ws.bufferedAmount > this.limits.coalesceAboveBytes) {
      c.pending.set(token, text);
      c.behindSince ??= now;
      this.police(c, now);
      this.scheduleFlush(c);
      return;
    }
    c.ws.send(text);
  }

  /** While ticks are kept back, looks again shortly: a socket that drains gets them without waiting for a heartbeat. */
  private scheduleFlush(c: Client): void {
    if (c.flushTimer !== null || !this.clients.has(c)) return;
    c.flushTimer = setTimeout(() => {
      c.flushTimer = null;
      if (!this.clients.has(c)) return;
      this.flush(c, Date.now());
      if (c.pending.size > 0) this.scheduleFlush(c);
    }, FLUSH_RETRY_MS);
    c.flushTimer.unref();
  }

  /** Sends the kept latest ticks while the socket has room; it has caught up when none are left. */
  private flush(c: Client, now: number): void {
    if (c.pending.size === 0 || c.ws.readyState !== WebSocket.OPEN) return;
    for (const [token, text] of c.pending) {
      if (c.ws.bufferedAmount > this.limits.coalesceAboveBytes) break;
      c.ws.send(text);
      c.pending.delete(token);
    }
    if (c.pending.size === 0) c.behindSince = null;
    else this.police(c, now);
  }

  /** Closes a socket that is too far behind, or has been behind for too long. */
  private police(c: Client, now: number): void {
    const tooFar = c.ws.bufferedAmount >= this.limits.closeAboveBytes;
    const tooLong = c.behindSince !== null && now - c.behindSince >= this.limits.slowCloseMs;
    if (!tooFar && !tooLong) return;
    const why = tooFar
      ? `${c.ws.bufferedAmount} bytes unread`
      : `behind for ${Math.round((now - c.behindSince!) / 1000)} s`;
    this.clients.delete(c);
    c.pending.clear();
    c.ws.close(CLOSE_TOO_SLOW, `too slow: ${why}; reconnect and read faster`);
    const { ws } = c;
    setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  ticks(moves: readonly PriceMove[]): void {
    if (this.clients.size === 0) return;
    const now = Date.now();
    for (const c of this.clients) this.flush(c, now);
    for (const m of moves) {
      const i = this.market.instrument(m.token);
      if (!i) continue;
      // Serialised once per mode that some socket wants, not once per socket.
      const texts = new Map<StreamMode, string>();
      for (const c of this.clients) {
        if (!c.tokens.has(m.token)) continue;
        const mode = c.modes.get(m.token) ?? 'quote';
        let text = texts.get(mode);
        if (text === undefined) texts.set(mode, (text = tickText(this.market, i, mode, m.at)));
        this.sendTick(c, m.token, text, now);
      }
    }
  }

  /**
   * The account's fills changed `token`'s book without moving its price: a `quote` or `full`
   * tick to the sockets that carry bid/ask (docs/api.md §Stream, modes).
   */
  book(token: number, at: number): void {
    if (this.clients.size === 0) return;
    const i = this.market.instrument(token);
    if (!i) return;
    const now = Date.now();
    const texts = new Map<StreamMode, string>();
    for (const c of this.clients) {
      if (!c.tokens.has(token)) continue;
      const mode = c.modes.get(token) ?? 'quote';
      if (mode === 'ltp') continue;
      let text = texts.get(mode);
      if (text === undefined) texts.set(mode, (text = tickText(this.market, i, mode, at)));
      this.sendTick(c, token, text, now);
    }
  }

  order(o: PaperOrder): void {
    if (this.clients.size === 0) return;
    const text = JSON.stringify({ type: 'order', order: wireOrder(o) });
    const now = Date.now();
    for (const c of this.clients) this.send(c, text, now);
  }

  private beat(): void {
    // Liveness and slowness are wall-clock matters; what the broker stamps follows its clock.
    const now = Date.now();
    const text = JSON.stringify({ type: 'heartbeat', ts: toIstIso(this.clock()) });
    const real = this.realClock();
    for (const c of this.clients) {
      if (c.session.revoked || c.session.expiresAt <= real) {
        c.ws.close(4001, 'token expired or revoked');
        continue;
      }
      if (now - c.lastPong >= this.limits.deadAfterMs) {
        // No pong for that long: the peer is gone (or not reading at all). Nothing more to say.
        this.clients.delete(c);
        c.ws.terminate();
        continue;
      }
      this.flush(c, now);
      this.send(c, text, now);
      if (c.ws.readyState === WebSocket.OPEN) c.ws.ping();
    }
  }

  /**
   * Switches the stream off (every socket is cut, as a lost network would, and every upgrade is
   * refused with 503) or back on. Returns how many sockets were cut.
   */
  setAccepting(on: boolean): number {
    this.accepting = on;
    if (on) return 0;
    const cut = this.clients.size;
    for (const c of this.clients) c.ws.terminate();
    return cut;
  }

  /** Each connected client's unsent bytes (tests and the soak watch these stay bounded). */
  stats(): Array<{ bufferedBytes: number; subscribed: number }> {
    return [...this.clients].map((c) => ({ bufferedBytes: c.ws.bufferedAmount, subscribed: c.tokens.size }));
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const c of this.clients) c.ws.terminate();
    this.clients.clear();
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
  }
}

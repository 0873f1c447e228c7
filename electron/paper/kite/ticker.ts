import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';
import type { AuthGuard } from '../auth-guard';
import type { Market, PriceMove } from '../market';
import { Problem } from '../problem';
import type { Session, Sessions } from '../sessions';
import { DEFAULT_STREAM_LIMITS, type StreamLimits } from '../stream';
import type { PaperOrder } from '../types';
import type { KitePlan } from './app-settings';
import { KiteError, fromProblem } from './errors';
import { HEARTBEAT, type PacketMode, encodePacket, frame } from './packets';
import { kiteAuthenticate } from './session';
import { type KiteOrderExtras, kiteOrder, tickFields } from './views';

/**
 * The Kite ticker at `/kite/ws` (docs/kite.md §Ticker): binary tick packets in `ltp`, `quote` or
 * `full` mode for subscribed tokens, 1-byte heartbeats, and text order updates on every change
 * of the account's orders.
 *
 * Bounded like `/v1/stream` (docs/api.md §Stream: GET /v1/stream): a socket that is behind gets
 * only the latest packet of each instrument until it catches up (order updates are never
 * dropped); one too far behind, or behind too long, is closed with 1013; one that stops answering
 * pings is dropped. Nothing a peer sends (frames, JSON, numbers) can throw out of a handler.
 */

/** Tokens one socket may subscribe to (Kite's limit per connection). */
export const KITE_SUBSCRIPTION_LIMIT = 3000;

/** Close code for a socket whose token expired or was revoked (policy violation). */
export const CLOSE_TOKEN = 1008;
/** Close code for a socket that reads too slowly (try again later). */
export const CLOSE_SLOW = 1013;

const Tokens = z.array(z.number().int().nonnegative().max(0xffffffff));
const ClientMessage = z.discriminatedUnion('a', [
  z.object({ a: z.literal('subscribe'), v: Tokens }),
  z.object({ a: z.literal('unsubscribe'), v: Tokens }),
  z.object({ a: z.literal('mode'), v: z.tuple([z.enum(['ltp', 'quote', 'full']), Tokens]) }),
]);

/** How soon a socket that is behind is offered its kept packets again. */
const FLUSH_RETRY_MS = 25;

interface Client {
  readonly ws: WebSocket;
  readonly session: Session;
  /** Subscribed tokens and their mode. */
  readonly modes: Map<number, PacketMode>;
  /** The latest unsent packet per token while the socket is behind. */
  readonly pending: Map<number, Buffer>;
  behindSince: number | null;
  flushTimer: NodeJS.Timeout | null;
  /** Whether anything went out since the last heartbeat (a quiet socket gets the 1-byte beat). */
  sentSinceBeat: boolean;
  lastPong: number;
}

/** What the ticker reads: the one market and sessions, the dialect's order extras, the clocks and bounds. */
export interface KiteTickerDeps {
  readonly market: Market;
  readonly sessions: Sessions;
  readonly auth: AuthGuard;
  readonly extras: ReadonlyMap<string, KiteOrderExtras>;
  /** Market time (what packets are stamped with). */
  readonly clock: () => number;
  /** Real time (token lifetimes). */
  readonly realClock: () => number;
  readonly heartbeatMs: number;
  readonly limits?: Partial<StreamLimits>;
  /** `personal`: the app has no market data, so no ticker (docs/kite.md §The plan). */
  readonly plan?: KitePlan;
}

/** The ticker server: one per broker, fed by the market's moves and the engine's order changes. */
export class KiteTicker {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly clients = new Set<Client>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly limits: StreamLimits;
  private accepting = true;

  constructor(private readonly d: KiteTickerDeps) {
    this.limits = { ...DEFAULT_STREAM_LIMITS, ...d.limits };
    this.heartbeat = setInterval(() => this.beat(), d.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Takes over an upgrade of `/kite/ws` (the `/v1` stream hands it over). */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const refuse = (e: KiteError): void => {
      const body = JSON.stringify(e.body());
      socket.end(
        `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status] ?? 'Error'}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    };
    if (!this.accepting)
      return refuse(new KiteError(503, 'NetworkException', 'The ticker is switched off (control interface)'));
    const q = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    const address = req.socket.remoteAddress ?? '';
    let session: Session;
    try {
      const header = `token ${q.get('api_key') ?? ''}:${q.get('access_token') ?? ''}`;
      session = kiteAuthenticate(this.d.sessions, header, this.d.realClock());
    } catch (e) {
      if (!(e instanceof KiteError)) return refuse(new KiteError(500, 'GeneralException', 'Unexpected error'));
      try {
        if (!/expired/.test(e.message)) this.d.auth.failed(address, this.d.realClock());
      } catch (limited) {
        if (limited instanceof Problem) return refuse(fromProblem(limited));
      }
      return refuse(e);
    }
    // What Kite's ticker answers an app without market data: a bare 403 "Authentication failed.",
    // which a client cannot tell from a refused token (docs/kite.md §The plan).
    if (this.d.plan === 'personal') {
      const body = JSON.stringify({ status: 'error', message: 'Authentication failed.' });
      socket.end(
        `HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Connection: close\r\n\r\n${body}`,
      );
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.attach(ws, session));
  }

  private attach(ws: WebSocket, session: Session): void {
    const c: Client = {
      ws,
      session,
      modes: new Map(),
      pending: new Map(),
      behindSince: null,
      flushTimer: null,
      sentSinceBeat: false,
      lastPong: Date.now(),
    };
    this.clients.add(c);
    const release = (): void => {
      this.clients.delete(c);
      c.modes.clear();
      c.pending.clear();
      if (c.flushTimer !== null) clearTimeout(c.flushTimer);
      c.flushTimer = null;
    };
    ws.on('close', release);
    ws.on('error', release);
    ws.on('pong', () => {
      c.lastPong = Date.now();
    });
    ws.on('message', (data, isBinary) => this.onMessage(c, data, isBinary));
  }

  private onMessage(c: Client, data: RawData, isBinary: boolean): void {
    if (isBinary) return this.error(c, 'Send text JSON: {"a":"subscribe"|"unsubscribe"|"mode","v":…}');
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(data));
    } catch {
      return this.error(c, 'Send JSON: {"a":"subscribe"|"unsubscribe"|"mode","v":…}');
    }
    const m = ClientMessage.safeParse(parsed);
    if (!m.success) {
      const issue = m.error.issues[0];
      const where = issue?.path.length ? issue.path.map(String).join('.') : 'message';
      return this.error(c, `${where}: ${issue?.message ?? 'invalid'}`);
    }
    const msg = m.data;
    const at = this.d.clock();
    if (msg.a === 'unsubscribe') {
      for (const t of msg.v) {
        c.modes.delete(t);
        c.pending.delete(t);
      }
      return;
    }
    if (msg.a === 'mode') {
      const [mode, tokens] = msg.v;
      const now: Buffer[] = [];
      for (const t of new Set(tokens)) {
        if (!c.modes.has(t)) continue;
        c.modes.set(t, mode);
        const p = this.packet(t, mode, at);
        if (p) now.push(p);
      }
      return this.sendPackets(c, now);
    }
    // Every token asked for counts against the limit, known or not: the limit is on what a socket asks.
    const asked = [...new Set(msg.v)].filter((t) => !c.modes.has(t));
    if (c.modes.size + asked.length > KITE_SUBSCRIPTION_LIMIT) {
      return this.error(
        c,
        `A ticker connection may subscribe to at most ${KITE_SUBSCRIPTION_LIMIT} instruments; this would make ` +
          `${c.modes.size + asked.length}. Nothing of this subscription was applied`,
      );
    }
    const now: Buffer[] = [];
    for (const t of asked.filter((k) => this.d.market.instrument(k))) {
      c.modes.set(t, 'quote');
      const p = this.packet(t, 'quote', at);
      if (p) now.push(p);
    }
    this.sendPackets(c, now);
  }

  private packet(token: number, mode: PacketMode, at: number): Buffer | null {
    const i = this.d.market.instrument(token);
    return i ? encodePacket(mode, tickFields(this.d.market, i, at, mode)) : null;
  }

  /** A text message that must not be dropped (order updates, errors). */
  private sendText(c: Client, text: string): void {
    if (c.ws.readyState !== WebSocket.OPEN) return;
    c.ws.send(text);
    c.sentSinceBeat = true;
    this.police(c, Date.now());
  }

  private error(c: Client, message: string): void {
    this.sendText(c, JSON.stringify({ type: 'error', data: message }));
  }

  /** Packets: sent now in one message, or kept as each token's latest while the socket is behind. */
  private sendPackets(c: Client, packets: Array<Buffer | [number, Buffer]>): void {
    if (packets.length === 0 || c.ws.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    const keyed = packets.map((p): [number, Buffer] => (Array.isArray(p) ? p : [p.readUInt32BE(0), p]));
    if (c.pending.size > 0 || c.ws.bufferedAmount > this.limits.coalesceAboveBytes) {
      for (const [t, p] of keyed) c.pending.set(t, p);
      c.behindSince ??= now;
      this.police(c, now);
      this.scheduleFlush(c);
      return;
    }
    c.ws.send(frame(keyed.map(([, p]) => p)));
    c.sentSinceBeat = true;
  }

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

  private flush(c: Client, now: number): void {
    if (c.pending.size === 0 || c.ws.readyState !== WebSocket.OPEN) return;
    if (c.ws.bufferedAmount > this.limits.coalesceAboveBytes) return this.police(c, now);
    c.ws.send(frame([...c.pending.values()]));
    c.sentSinceBeat = true;
    c.pending.clear();
    c.behindSince = null;
  }

  private police(c: Client, now: number): void {
    const tooFar = c.ws.bufferedAmount >= this.limits.closeAboveBytes;
    const tooLong = c.behindSince !== null && now - c.behindSince >= this.limits.slowCloseMs;
    if (!tooFar && !tooLong) return;
    this.clients.delete(c);
    c.pending.clear();
    c.ws.close(CLOSE_SLOW, 'too slow; reconnect and read faster');
    const { ws } = c;
    setTimeout(() => ws.terminate(), 2_000).unref();
  }

  /** Price moves: one message per socket with a packet per subscribed token that moved, in its mode. */
  ticks(moves: readonly PriceMove[]): void {
    if (this.clients.size === 0) return;
    const now = Date.now();
    const cache = new Map<string, Buffer | null>();
    for (const c of this.clients) {
      this.flush(c, now);
      const out: Array<[number, Buffer]> = [];
      for (const m of moves) {
        const mode = c.modes.get(m.token);
        if (mode === undefined) continue;
        const key = `${m.token}:${mode}`;
        let p = cache.get(key);
        if (p === undefined) cache.set(key, (p = this.packet(m.token, mode, m.at)));
        if (p) out.push([m.token, p]);
      }
      this.sendPackets(c, out);
    }
  }

  /** The account's fills changed a book without moving its price: `quote`/`full` subscribers see it. */
  book(token: number, at: number): void {
    for (const c of this.clients) {
      const mode = c.modes.get(token);
      if (mode === undefined || mode === 'ltp') continue;
      const p = this.packet(token, mode, at);
      if (p) this.sendPackets(c, [[token, p]]);
    }
  }

  /** An order changed: its Kite view to every socket of the account, as text (never dropped). */
  order(o: PaperOrder): void {
    if (this.clients.size === 0) return;
    const view = kiteOrder(o, this.d.extras.get(o.orderId));
    const text = JSON.stringify({
      type: 'order',
      id: '',
      data: {
        ...view,
        user_id: view.placed_by,
        unfilled_quantity: view.pending_quantity,
        app_id: 0,
        checksum: '',
      },
    });
    for (const c of this.clients) this.sendText(c, text);
  }

  private beat(): void {
    const now = Date.now();
    const real = this.d.realClock();
    for (const c of this.clients) {
      if (c.session.revoked || c.session.expiresAt <= real) {
        this.clients.delete(c);
        c.ws.close(CLOSE_TOKEN, 'token expired or revoked');
        continue;
      }
      if (now - c.lastPong >= this.limits.deadAfterMs) {
        this.clients.delete(c);
        c.ws.terminate();
        continue;
      }
      this.flush(c, now);
      if (!c.sentSinceBeat && c.ws.readyState === WebSocket.OPEN) c.ws.send(HEARTBEAT);
      c.sentSinceBeat = false;
      if (c.ws.readyState === WebSocket.OPEN) c.ws.ping();
    }
  }

  /** Off cuts every socket and refuses upgrades with 503 (the control interface's stream switch). */
  setAccepting(on: boolean): number {
    this.accepting = on;
    if (on) return 0;
    const cut = this.clients.size;
    for (const c of this.clients) c.ws.terminate();
    return cut;
  }

  /** Each socket's unsent bytes and subscriptions (tests). */
  stats(): Array<{ bufferedBytes: number; subscribed: number }> {
    return [...this.clients].map((c) => ({ bufferedBytes: c.ws.bufferedAmount, subscribed: c.modes.size }));
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const c of this.clients) c.ws.terminate();
    this.clients.clear();
    this.wss.close();
  }
}

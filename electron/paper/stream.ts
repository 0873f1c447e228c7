import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { toIstIso } from '@shared/lib/ist-time';
import { STREAM_SUBSCRIPTION_LIMIT, WireStreamClientMessage } from '../wire/rest-schemas';
import type { StreamMode } from '@shared/domain/market';
import type { Market, PriceMove } from './market';
import { tickText } from './quote-view';
import { rawProblem, requestUrl } from './http-io';
import { Problem } from './problem';
import type { AuthGuard } from './auth-guard';
import type { Session } from './sessions';
import type { PaperOrder } from './types';
import { wireOrder } from './wire-views';
import { assertLoopbackHost } from './host-check';
import { DEFAULT_FAN_OUT_LIMITS, FanOut, type FanOutLimits, type Peer as FanOutPeer } from '../wire/fan-out';

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
export type StreamLimits = FanOutLimits;

export const DEFAULT_STREAM_LIMITS: StreamLimits = DEFAULT_FAN_OUT_LIMITS;

/** The stream's knobs: its bounds, and (tests) whether it answers client pings. */
export type StreamOptions = Partial<StreamLimits> & {
  /** False makes every socket look half-open to a client that pings (tests of its watchdog). */
  readonly answerPings?: boolean;
};

/** Close code for a socket that reads too slowly (an application code, like 4001). */
export const CLOSE_TOO_SLOW = 4008;

/** What the stream keeps of one socket. */
interface Client {
  readonly session: Session;
  readonly tokens: Set<number>;
  /** Tokens in a mode other than the default `quote` (docs/api.md §Stream, modes). */
  readonly modes: Map<number, StreamMode>;
}

/** A stream socket: its subscriptions, and its outbound side (one serialised tick per message). */
type Peer = FanOutPeer<Client, string>;

export class Stream {
  private readonly wss: WebSocketServer;
  private readonly fan: FanOut<Client, string>;
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
    /** Host names accepted beside the loopback ones (docs/paper-broker.md §Loopback only). */
    private readonly extraHostNames: ReadonlySet<string> = new Set(),
  ) {
    this.wss = new WebSocketServer({ noServer: true, maxPayload: 256 * 1024, autoPong: answerPings });
    this.fan = new FanOut<Client, string>({
      limits,
      beatMs: heartbeatMs,
      tooSlow: { code: CLOSE_TOO_SLOW, advice: 'reconnect and read faster' },
      // Each tick is its own message on this wire.
      pack: (kept) => kept,
      revoked: ({ session }) =>
        session.revoked || session.expiresAt <= this.realClock()
          ? { code: 4001, reason: 'token expired or revoked' }
          : null,
      heartbeat: () => JSON.stringify({ type: 'heartbeat', ts: toIstIso(this.clock()) }),
    });
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head));
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
      assertLoopbackHost(req, this.extraHostNames);
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
    const peer = this.fan.attach(ws, { session, tokens: new Set(), modes: new Map() });
    ws.on('message', (data) => this.onMessage(peer, data));
  }

  private onMessage(peer: Peer, data: RawData): void {
    const client = peer.state;
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(data));
    } catch {
      return this.error(peer, 'invalid_message', 'Send JSON: {"action":"subscribe"|"unsubscribe","tokens":[…]}');
    }
    const asked = (parsed as { tokens?: unknown } | null)?.tokens;
    if (Array.isArray(asked) && asked.length > STREAM_SUBSCRIPTION_LIMIT) return this.overLimit(peer, asked.length);
    const msg = WireStreamClientMessage.safeParse(parsed);
    if (!msg.success) {
      const issue = msg.error.issues[0];
      const where = issue?.path.length ? issue.path.map(String).join('.') : 'message';
      return this.error(peer, 'invalid_message', `${where}: ${issue?.message ?? 'invalid'}`);
    }
    if (msg.data.action === 'mode') {
      const { mode } = msg.data;
      const at = this.clock();
      for (const t of new Set(msg.data.tokens)) {
        if (!client.tokens.has(t)) continue;
        if (mode === 'quote') client.modes.delete(t);
        else client.modes.set(t, mode);
        // One tick in the new mode at once, so a depth ladder fills without waiting for a move.
        const i = this.market.instrument(t);
        if (i) this.sendTick(peer, t, tickText(this.market, i, mode, at));
      }
      return;
    }
    if (msg.data.action === 'unsubscribe') {
      for (const t of msg.data.tokens) {
        client.tokens.delete(t);
        client.modes.delete(t);
        peer.forget(t);
      }
      return;
    }
    // Every token asked for counts, listed or not: the limit is on what a socket asks to hold.
    const fresh = [...new Set(msg.data.tokens)].filter((t) => !client.tokens.has(t));
    if (client.tokens.size + fresh.length > STREAM_SUBSCRIPTION_LIMIT)
      return this.overLimit(peer, client.tokens.size + fresh.length);
    const at = this.clock();
    for (const t of fresh) {
      client.tokens.add(t);
      // The current price at once, so a new subscriber never shows an empty quote.
      const i = this.market.instrument(t);
      if (i) this.sendTick(peer, t, tickText(this.market, i, 'quote', at));
    }
  }

  /** Refuses a subscription past the limit: nothing of it is subscribed, and the client is told. */
  private overLimit(peer: Peer, wanted: number): void {
    this.error(
      peer,
      'subscription_limit',
      `A stream socket may subscribe to at most ${STREAM_SUBSCRIPTION_LIMIT} instruments; this would make ${wanted}. ` +
        'Nothing of this subscription was applied; send fewer tokens or unsubscribe some first',
    );
  }

  private error(peer: Peer, code: string, message: string): void {
    peer.send(JSON.stringify({ type: 'error', code, message }));
  }

  /** A tick: sent now, or kept as the instrument's latest while the socket is behind. */
  private sendTick(peer: Peer, token: number, text: string): void {
    peer.offer([[token, text]], text);
  }

  ticks(moves: readonly PriceMove[]): void {
    if (this.fan.size === 0) return;
    for (const p of this.fan.peers()) p.flush();
    for (const m of moves) {
      const i = this.market.instrument(m.token);
      if (!i) continue;
      // Serialised once per mode that some socket wants, not once per socket.
      const texts = new Map<StreamMode, string>();
      for (const p of this.fan.peers()) {
        if (!p.state.tokens.has(m.token)) continue;
        const mode = p.state.modes.get(m.token) ?? 'quote';
        let text = texts.get(mode);
        if (text === undefined) texts.set(mode, (text = tickText(this.market, i, mode, m.at)));
        this.sendTick(p, m.token, text);
      }
    }
  }

  /**
   * The account's fills changed `token`'s book without moving its price: a `quote` or `full`
   * tick to the sockets that carry bid/ask (docs/api.md §Stream, modes).
   */
  book(token: number, at: number): void {
    if (this.fan.size === 0) return;
    const i = this.market.instrument(token);
    if (!i) return;
    const texts = new Map<StreamMode, string>();
    for (const p of this.fan.peers()) {
      if (!p.state.tokens.has(token)) continue;
      const mode = p.state.modes.get(token) ?? 'quote';
      if (mode === 'ltp') continue;
      let text = texts.get(mode);
      if (text === undefined) texts.set(mode, (text = tickText(this.market, i, mode, at)));
      this.sendTick(p, token, text);
    }
  }

  order(o: PaperOrder): void {
    if (this.fan.size === 0) return;
    const text = JSON.stringify({ type: 'order', order: wireOrder(o) });
    for (const p of [...this.fan.peers()]) p.send(text);
  }

  /**
   * Switches the stream off (every socket is cut, as a lost network would, and every upgrade is
   * refused with 503) or back on. Returns how many sockets were cut.
   */
  setAccepting(on: boolean): number {
    this.accepting = on;
    return on ? 0 : this.fan.cut();
  }

  /** Each connected client's unsent bytes (tests and the soak watch these stay bounded). */
  stats(): Array<{ bufferedBytes: number; subscribed: number }> {
    return [...this.fan.peers()].map((p) => ({ bufferedBytes: p.bufferedBytes, subscribed: p.state.tokens.size }));
  }

  close(): void {
    this.fan.close();
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
  }
}

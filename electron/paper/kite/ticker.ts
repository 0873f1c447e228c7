import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';
import type { AuthGuard } from '../auth-guard';
import type { Market, PriceMove } from '../market';
import { Problem } from '../problem';
import type { Session, Sessions } from '../sessions';
import type { StreamOptions } from '../stream';
import { FanOut, type Peer as FanOutPeer } from '../../wire/fan-out';
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

/** What the ticker keeps of one socket: its subscribed tokens and their mode. */
interface Client {
  readonly session: Session;
  readonly modes: Map<number, PacketMode>;
}

/** A ticker socket: its subscriptions, and its outbound side (packets kept latest per token, sent as one frame). */
type Peer = FanOutPeer<Client, Buffer>;

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
  /** The `/v1` stream's bounds and ping answering (docs/api.md §Stream) apply here too. */
  readonly limits?: StreamOptions;
  /** `personal`: the app has no market data, so no ticker (docs/kite.md §The plan). */
  readonly plan?: KitePlan;
}

/** The ticker server: one per broker, fed by the market's moves and the engine's order changes. */
export class KiteTicker {
  private readonly wss: WebSocketServer;
  private readonly fan: FanOut<Client, Buffer>;
  private accepting = true;

  constructor(private readonly d: KiteTickerDeps) {
    const { answerPings = true, ...limits } = d.limits ?? {};
    this.wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, autoPong: answerPings });
    this.fan = new FanOut<Client, Buffer>({
      limits,
      beatMs: d.heartbeatMs,
      tooSlow: { code: CLOSE_SLOW, advice: 'reconnect and read faster' },
      pack: (kept) => [frame(kept)],
      revoked: ({ session }) =>
        session.revoked || session.expiresAt <= this.d.realClock()
          ? { code: CLOSE_TOKEN, reason: 'token expired or revoked' }
          : null,
      // Kite beats with one byte only when it has had nothing else to say.
      heartbeat: (peer) => (peer.sentSinceBeat ? null : HEARTBEAT),
    });
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
    const peer = this.fan.attach(ws, { session, modes: new Map() });
    ws.on('message', (data, isBinary) => this.onMessage(peer, data, isBinary));
  }

  private onMessage(p: Peer, data: RawData, isBinary: boolean): void {
    const c = p.state;
    if (isBinary) return this.error(p, 'Send text JSON: {"a":"subscribe"|"unsubscribe"|"mode","v":…}');
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(data));
    } catch {
      return this.error(p, 'Send JSON: {"a":"subscribe"|"unsubscribe"|"mode","v":…}');
    }
    const m = ClientMessage.safeParse(parsed);
    if (!m.success) {
      const issue = m.error.issues[0];
      const where = issue?.path.length ? issue.path.map(String).join('.') : 'message';
      return this.error(p, `${where}: ${issue?.message ?? 'invalid'}`);
    }
    const msg = m.data;
    const at = this.d.clock();
    if (msg.a === 'unsubscribe') {
      for (const t of msg.v) {
        c.modes.delete(t);
        p.forget(t);
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
      return this.sendPackets(p, now);
    }
    // Every token asked for counts against the limit, known or not: the limit is on what a socket asks.
    const asked = [...new Set(msg.v)].filter((t) => !c.modes.has(t));
    if (c.modes.size + asked.length > KITE_SUBSCRIPTION_LIMIT) {
      return this.error(
        p,
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
    this.sendPackets(p, now);
  }

  private packet(token: number, mode: PacketMode, at: number): Buffer | null {
    const i = this.d.market.instrument(token);
    return i ? encodePacket(mode, tickFields(this.d.market, i, at, mode)) : null;
  }

  private error(p: Peer, message: string): void {
    p.send(JSON.stringify({ type: 'error', data: message }));
  }

  /** Packets: sent now in one message, or kept as each token's latest while the socket is behind. */
  private sendPackets(p: Peer, packets: Array<Buffer | [number, Buffer]>): void {
    if (packets.length === 0) return;
    const keyed = packets.map((k): [number, Buffer] => (Array.isArray(k) ? k : [k.readUInt32BE(0), k]));
    p.offer(keyed, () => frame(keyed.map(([, b]) => b)));
  }

  /** Price moves: one message per socket with a packet per subscribed token that moved, in its mode. */
  ticks(moves: readonly PriceMove[]): void {
    if (this.fan.size === 0) return;
    const cache = new Map<string, Buffer | null>();
    for (const p of this.fan.peers()) {
      p.flush();
      const out: Array<[number, Buffer]> = [];
      for (const m of moves) {
        const mode = p.state.modes.get(m.token);
        if (mode === undefined) continue;
        const key = `${m.token}:${mode}`;
        let packet = cache.get(key);
        if (packet === undefined) cache.set(key, (packet = this.packet(m.token, mode, m.at)));
        if (packet) out.push([m.token, packet]);
      }
      this.sendPackets(p, out);
    }
  }

  /** The account's fills changed a book without moving its price: `quote`/`full` subscribers see it. */
  book(token: number, at: number): void {
    for (const p of this.fan.peers()) {
      const mode = p.state.modes.get(token);
      if (mode === undefined || mode === 'ltp') continue;
      const packet = this.packet(token, mode, at);
      if (packet) this.sendPackets(p, [[token, packet]]);
    }
  }

  /** An order changed: its Kite view to every socket of the account, as text (never dropped). */
  order(o: PaperOrder): void {
    if (this.fan.size === 0) return;
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
    for (const p of [...this.fan.peers()]) p.send(text);
  }

  /** Off cuts every socket and refuses upgrades with 503 (the control interface's stream switch). */
  setAccepting(on: boolean): number {
    this.accepting = on;
    return on ? 0 : this.fan.cut();
  }

  /** Each socket's unsent bytes and subscriptions (tests). */
  stats(): Array<{ bufferedBytes: number; subscribed: number }> {
    return [...this.fan.peers()].map((p) => ({ bufferedBytes: p.bufferedBytes, subscribed: p.state.modes.size }));
  }

  close(): void {
    this.fan.close();
    this.wss.close();
  }
}

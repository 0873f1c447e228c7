import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { toIstIso } from '../../shared/lib/ist-time';
import { fromUnits } from '../../shared/trading/money';
import { WireStreamClientMessage } from '../../shared/wire/schemas';
import type { Market, PriceMove } from './market';
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
 * Malformed client messages are ignored (documented): the server message union stays closed.
 */

interface Client {
  readonly ws: WebSocket;
  readonly session: Session;
  readonly tokens: Set<number>;
}

export class Stream {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 256 * 1024 });
  private readonly clients = new Set<Client>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    server: Server,
    private readonly auth: AuthGuard,
    private readonly market: Market,
    heartbeatMs: number,
  ) {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head));
    this.heartbeat = setInterval(() => this.beat(), heartbeatMs);
    this.heartbeat.unref();
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
    if (path !== '/v1/stream') return refuse(new Problem(404, 'not_found', `No WebSocket at ${path}; use /v1/stream`));
    let session: Session;
    try {
      session = this.auth.authenticate(req.headers.authorization, req.socket.remoteAddress ?? '', Date.now());
    } catch (e) {
      return refuse(e instanceof Problem ? e : new Problem(401, 'token_invalid', 'Unauthorized'));
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.attach(ws, session));
  }

  private attach(ws: WebSocket, session: Session): void {
    const client: Client = { ws, session, tokens: new Set() };
    this.clients.add(client);
    ws.on('close', () => this.clients.delete(client));
    ws.on('error', () => this.clients.delete(client));
    ws.on('message', (data) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(String(data));
      } catch {
        return;
      }
      const msg = WireStreamClientMessage.safeParse(parsed);
      if (!msg.success) return;
      if (msg.data.action === 'unsubscribe') {
        for (const t of msg.data.tokens) client.tokens.delete(t);
        return;
      }
      const now = Date.now();
      for (const t of msg.data.tokens) {
        if (client.tokens.has(t) || !this.market.instrument(t)) continue;
        client.tokens.add(t);
        // The current price at once, so a new subscriber never shows an empty quote.
        this.sendTo(client, {
          type: 'tick',
          instrument_token: t,
          last_price: fromUnits(this.market.ltp(t)),
          volume: this.market.volume(t),
          ts: toIstIso(now),
        });
      }
    });
  }

  private sendTo(c: Client, msg: unknown): void {
    if (c.ws.readyState === WebSocket.OPEN) c.ws.send(JSON.stringify(msg));
  }

  ticks(moves: readonly PriceMove[]): void {
    if (this.clients.size === 0) return;
    for (const m of moves) {
      let text: string | null = null;
      for (const c of this.clients) {
        if (!c.tokens.has(m.token) || c.ws.readyState !== WebSocket.OPEN) continue;
        text ??= JSON.stringify({
          type: 'tick',
          instrument_token: m.token,
          last_price: fromUnits(m.ltpUnits),
          volume: m.volume,
          ts: toIstIso(m.at),
        });
        c.ws.send(text);
      }
    }
  }

  order(o: PaperOrder): void {
    if (this.clients.size === 0) return;
    const text = JSON.stringify({ type: 'order', order: wireOrder(o) });
    for (const c of this.clients) if (c.ws.readyState === WebSocket.OPEN) c.ws.send(text);
  }

  private beat(): void {
    const now = Date.now();
    const text = JSON.stringify({ type: 'heartbeat', ts: toIstIso(now) });
    for (const c of this.clients) {
      if (c.session.revoked || c.session.expiresAt <= now) {
        c.ws.close(4001, 'token expired or revoked');
        continue;
      }
      if (c.ws.readyState === WebSocket.OPEN) c.ws.send(text);
    }
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const c of this.clients) c.ws.terminate();
    this.clients.clear();
    this.wss.close();
  }
}

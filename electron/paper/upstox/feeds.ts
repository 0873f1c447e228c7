import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';
import { Exchange } from '@shared/domain/instrument';
import { FanOut, type Peer as FanOutPeer } from '../../wire/fan-out';
import { sessionAt } from '../calendar';
import type { Market, PriceMove } from '../market';
import type { PaperInstrument } from '../instruments';
import type { Session, Sessions } from '../sessions';
import type { StreamOptions } from '../stream';
import type { PaperOrder, PaperPosition } from '../types';
import { tickFields } from '../kite/views';
import type { FeedGrant, UpstoxState } from './context';
import { UPSTOX_CODES, UpstoxError, tokenError } from './errors';
import { SEGMENT_OF, byKey, instrumentKey } from './keys';
import { type FeedValue, encodeFeedResponse } from './proto';
import { upstoxOrder, upstoxPositions } from './views';

/**
 * The two Upstox feeds (docs/upstox.md §Feeds), each opened with a single-use URL from its
 * `…/authorize` endpoint:
 *
 * - the **market data feed v3** at `/upstox/feed/market-data-feed/v3`: binary protobuf
 *   `FeedResponse`s — `market_info` on connect, `initial_feed` for what a `sub` asks, `live_feed`
 *   on every move — in `ltpc`, `full`, `option_greeks` or `full_d30` mode; requests are JSON sent
 *   as binary frames (`{guid, method: sub|change_mode|unsub, data: {mode, instrumentKeys}}`);
 * - the **portfolio stream** at `/upstox/feed/portfolio-stream-feed`: JSON text, one message per
 *   order change (`update_type: order`) and, after a fill, the position it changed
 *   (`update_type: position`), for the `update_types` the authorize call named.
 *
 * Bounded like every socket the broker serves (docs/api.md §Stream): a market feed socket that is
 * behind gets only the latest feed of each instrument; portfolio messages are never dropped.
 */

export const MARKET_FEED_PATH = '/upstox/feed/market-data-feed/v3';
export const PORTFOLIO_FEED_PATH = '/upstox/feed/portfolio-stream-feed';

/** Instruments one market feed socket may subscribe to (Upstox's cap for `ltpc`). */
export const FEED_SUBSCRIPTION_LIMIT = 5000;

const CLOSE_TOKEN = 1008;
const CLOSE_SLOW = 1013;

type Mode = 'ltpc' | 'full' | 'option_greeks' | 'full_d30';
const Request = z.object({
  guid: z.string().max(100).optional(),
  method: z.enum(['sub', 'change_mode', 'unsub']),
  data: z.object({
    mode: z.enum(['ltpc', 'full', 'option_greeks', 'full_d30']).optional(),
    instrumentKeys: z.array(z.string().max(64)).max(FEED_SUBSCRIPTION_LIMIT),
  }),
});

interface MarketClient {
  readonly session: Session;
  /** Subscribed tokens and their mode. */
  readonly modes: Map<number, Mode>;
}
interface PortfolioClient {
  readonly session: Session;
  readonly types: ReadonlySet<string>;
}

export interface UpstoxFeedDeps {
  readonly market: Market;
  readonly sessions: Sessions;
  readonly upstox: UpstoxState;
  readonly clock: () => number;
  readonly realClock: () => number;
  readonly heartbeatMs: number;
  readonly limits?: StreamOptions;
  /** The account's positions (sent after a fill). */
  readonly positions: () => Iterable<PaperPosition>;
}

/** A feed's status map: each segment open, in its pre-open or closed, as `market_info` carries it. */
function segmentStatus(at: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const ex of Exchange.options) {
    const phase = sessionAt(ex, at).phase;
    out[SEGMENT_OF[ex]] = phase === 'open' ? 'NORMAL_OPEN' : phase === 'closed' ? 'NORMAL_CLOSE' : 'PRE_OPEN_START';
  }
  return out;
}

/** One instrument's feed in `mode`, from the same market as every dialect's quotes. */
export function feedOf(market: Market, i: PaperInstrument, mode: Mode, at: number): FeedValue {
  const f = tickFields(market, i, at, mode === 'ltpc' ? 'ltp' : 'full');
  const ltpc = { ltp: f.lastPrice, ltt: f.lastTradeTime * 1000, ltq: f.lastQuantity, cp: f.close };
  if (mode === 'ltpc') return { ltpc, requestMode: 'ltpc' };
  const quotes = Array.from({ length: Math.max(f.depth.buy.length, f.depth.sell.length) }, (_, n) => ({
    bidQ: f.depth.buy[n]?.quantity ?? 0,
    bidP: f.depth.buy[n]?.price ?? 0,
    askQ: f.depth.sell[n]?.quantity ?? 0,
    askP: f.depth.sell[n]?.price ?? 0,
  }));
  if (mode === 'option_greeks')
    return {
      firstLevelWithGreeks: { ltpc, firstDepth: quotes[0] ?? {}, optionGreeks: {}, vtt: f.volume, oi: f.oi, iv: 0 },
      requestMode: 'option_greeks',
    };
  return {
    fullFeed: {
      marketFF: {
        ltpc,
        marketLevel: { bidAskQuote: quotes },
        optionGreeks: {},
        marketOHLC: {
          ohlc: [{ interval: '1d', open: f.open, high: f.high, low: f.low, close: f.lastPrice, vol: f.volume, ts: at }],
        },
        atp: f.averagePrice,
        vtt: f.volume,
        oi: f.oi,
        iv: 0,
        tbq: f.buyQuantity,
        tsq: f.sellQuantity,
      },
    },
    requestMode: mode === 'full_d30' ? 'full_d30' : 'full_d5',
  };
}

/** Both feeds of one broker, fed by the market's moves and the engine's order changes. */
export class UpstoxFeeds {
  private readonly wss: WebSocketServer;
  private readonly marketFan: FanOut<MarketClient, [string, FeedValue]>;
  private readonly portfolioFan: FanOut<PortfolioClient, never>;
  private accepting = true;

  constructor(private readonly d: UpstoxFeedDeps) {
    const { answerPings = true, ...limits } = d.limits ?? {};
    this.wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, autoPong: answerPings });
    const revoked = ({ session }: { session: Session }) =>
      session.revoked || session.expiresAt <= d.realClock()
        ? { code: CLOSE_TOKEN, reason: 'token expired or revoked' }
        : null;
    this.marketFan = new FanOut<MarketClient, [string, FeedValue]>({
      limits,
      beatMs: d.heartbeatMs,
      tooSlow: { code: CLOSE_SLOW, advice: 'reconnect and read faster' },
      pack: (kept) => [this.live(kept)],
      revoked,
    });
    this.portfolioFan = new FanOut<PortfolioClient, never>({
      limits,
      beatMs: d.heartbeatMs,
      tooSlow: { code: CLOSE_SLOW, advice: 'reconnect and read faster' },
      pack: () => [],
      revoked,
    });
  }

  private live(kept: ReadonlyArray<[string, FeedValue]>): Buffer {
    return encodeFeedResponse({ type: 'live_feed', feeds: Object.fromEntries(kept), currentTs: this.d.clock() });
  }

  /** Takes over an upgrade of either feed's path: its single-use code names the session. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const refuse = (e: UpstoxError): void => {
      const body = JSON.stringify(e.body());
      socket.end(
        `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status] ?? 'Error'}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    };
    if (!this.accepting) return refuse(new UpstoxError(503, UPSTOX_CODES.serverError, 'The feeds are switched off'));
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const grant: FeedGrant | undefined = this.d.upstox.feedCodes.spend(
      url.searchParams.get('code') ?? '',
      this.d.realClock(),
    );
    const feed = url.pathname === MARKET_FEED_PATH ? 'market' : 'portfolio';
    if (!grant || grant.feed !== feed)
      return refuse(tokenError('The feed URL is invalid, spent or expired; authorize again'));
    const session = this.d.sessions.get(grant.token);
    if (!session || session.revoked || session.expiresAt <= this.d.realClock()) return refuse(tokenError());
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      if (feed === 'portfolio') {
        this.portfolioFan.attach(ws, { session, types: new Set(grant.updateTypes) });
        return;
      }
      const peer = this.marketFan.attach(ws, { session, modes: new Map() });
      peer.send(
        encodeFeedResponse({
          type: 'market_info',
          currentTs: this.d.clock(),
          marketInfo: { segmentStatus: segmentStatus(this.d.clock()) },
        }),
      );
      ws.on('message', (data, isBinary) => this.onRequest(peer, ws, data, isBinary));
    });
  }

  private onRequest(
    p: FanOutPeer<MarketClient, [string, FeedValue]>,
    _ws: WebSocket,
    data: RawData,
    _binary: boolean,
  ): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : String(data));
    } catch {
      return;
    }
    const r = Request.safeParse(parsed);
    // The feed has no error message: a request that does not parse is ignored, as Upstox's is.
    if (!r.success) return;
    const { method, data: body } = r.data;
    const modes = p.state.modes;
    const instruments = body.instrumentKeys
      .map((k) => byKey(this.d.market, k))
      .filter((i): i is PaperInstrument => i !== undefined);
    if (method === 'unsub') {
      for (const i of instruments) {
        modes.delete(i.token);
        p.forget(i.token);
      }
      return;
    }
    const mode: Mode = body.mode ?? 'ltpc';
    const fresh = instruments.filter((i) => method === 'sub' || modes.has(i.token));
    const room = FEED_SUBSCRIPTION_LIMIT - modes.size;
    const taken = fresh
      .filter((i) => modes.has(i.token))
      .concat(fresh.filter((i) => !modes.has(i.token)).slice(0, Math.max(0, room)));
    for (const i of taken) modes.set(i.token, mode);
    if (taken.length === 0) return;
    const at = this.d.clock();
    const feeds = Object.fromEntries(taken.map((i) => [instrumentKey(i), feedOf(this.d.market, i, mode, at)]));
    p.send(encodeFeedResponse({ type: 'initial_feed', feeds, currentTs: at }));
  }

  /** Price moves: one `live_feed` per socket with every subscribed instrument that moved. */
  ticks(moves: readonly PriceMove[]): void {
    if (this.marketFan.size === 0) return;
    for (const p of this.marketFan.peers()) {
      p.flush();
      const out: Array<[number, [string, FeedValue]]> = [];
      for (const m of moves) {
        const mode = p.state.modes.get(m.token);
        const i = mode === undefined ? undefined : this.d.market.instrument(m.token);
        if (!i || mode === undefined) continue;
        out.push([m.token, [instrumentKey(i), feedOf(this.d.market, i, mode, m.at)]]);
      }
      if (out.length) p.offer(out, () => this.live(out.map(([, v]) => v)));
    }
  }

  /** An order changed: its Upstox view to every portfolio socket that asked for orders, and the position after a fill. */
  order(o: PaperOrder): void {
    if (this.portfolioFan.size === 0) return;
    const view = upstoxOrder(this.d.market, o, this.d.upstox.extras.get(o.orderId));
    const orderText = JSON.stringify({ update_type: 'order', user_id: view.placed_by, ...view });
    let positionText: string | null = null;
    if (o.filled > 0) {
      const all = [...this.d.positions()].filter((p) => p.token === o.token);
      const views = upstoxPositions(all, this.d.market, this.d.clock());
      positionText = views.length ? JSON.stringify({ update_type: 'position', ...views[0] }) : null;
    }
    for (const p of [...this.portfolioFan.peers()]) {
      if (p.state.types.has('order')) p.send(orderText);
      if (positionText && p.state.types.has('position')) p.send(positionText);
    }
  }

  /** Off cuts every socket and refuses upgrades with 503 (the control interface's stream switch). */
  setAccepting(on: boolean): number {
    this.accepting = on;
    return on ? 0 : this.marketFan.cut() + this.portfolioFan.cut();
  }

  close(): void {
    this.marketFan.close();
    this.portfolioFan.close();
    this.wss.close();
  }
}

/** The socket URL an `…/authorize` call hands out. */
export function feedUrl(upstox: UpstoxState, grant: FeedGrant, now: number): string {
  const path = grant.feed === 'market' ? MARKET_FEED_PATH : PORTFOLIO_FEED_PATH;
  return `${upstox.socketUrl(path)}?code=${upstox.feedCodes.issue(grant, now)}`;
}

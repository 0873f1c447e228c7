import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import type { DepthLevel, StreamMode, Tick } from '@shared/domain/market';
import type { Order } from '@shared/domain/order';
import type { ConnectionState } from '@shared/domain/session';
import { toIstIso } from '@shared/lib/ist-time';
import { FeedResponse } from '../../wire/upstox-feed-proto';
import type { AuthSource } from '../auth-source';
import type { BrokerStream, StreamListener } from '../broker';
import type { RestTransport } from '../rest/rest-transport';
import { StreamSocket, type StreamDialect, type StreamSocketOptions } from '../stream/stream-socket';
import { UpstoxFeedAuthorize, UpstoxOrder } from './upstox-wire';

/** Instruments one market data feed socket may subscribe to (docs/upstox.md §Market data feed). */
export const UPSTOX_FEED_LIMIT = 5000;

/** Silence after which an open socket is taken for dead (the policy pings half-way through). */
const SILENCE_MS = 10_000;

/** What the ticker needs from the adapter: instrument keys ↔ tokens, and its order mapping. */
export interface UpstoxTickerDeps {
  readonly toOrder: (w: UpstoxOrder) => Order | null;
  readonly key: (token: number) => string | undefined;
  readonly token: (key: string) => number | undefined;
  /** Resolves once the instrument master is read (keys are known). */
  readonly ready: () => Promise<void>;
  readonly now?: () => number;
}

/** The market data feed's mode of ours: `ltp` is `ltpc`; `quote` and `full` are `full` (five levels). */
const FEED_MODE: Readonly<Record<StreamMode, string>> = { ltp: 'ltpc', quote: 'full', full: 'full' };

interface Decoded {
  type?: string;
  feeds?: Record<string, DecodedFeed>;
}
interface Ltpc {
  ltp?: number;
  ltt?: string | number;
  cp?: number;
}
interface DecodedFeed {
  ltpc?: Ltpc;
  fullFeed?: {
    marketFF?: {
      ltpc?: Ltpc;
      marketLevel?: {
        bidAskQuote?: Array<{ bidQ?: string | number; bidP?: number; askQ?: string | number; askP?: number }>;
      };
      vtt?: string | number;
      oi?: number;
      tbq?: number;
      tsq?: number;
    };
  };
  firstLevelWithGreeks?: { ltpc?: Ltpc; vtt?: string | number; oi?: number };
}

const num = (v: string | number | undefined): number => (v === undefined ? 0 : Number(v));

/** One instrument's feed → the app's tick (null: a feed without a price). */
export function feedTick(token: number, f: DecodedFeed, now: number, equity: boolean): Tick | null {
  const ff = f.fullFeed?.marketFF;
  const ltpc = f.ltpc ?? ff?.ltpc ?? f.firstLevelWithGreeks?.ltpc;
  if (ltpc?.ltp === undefined) return null;
  const last = ltpc.ltp;
  const ltt = num(ltpc.ltt);
  const tick: Tick = {
    instrumentToken: token,
    lastPrice: last,
    volume: Math.max(0, num(ff?.vtt ?? f.firstLevelWithGreeks?.vtt)),
    ts: toIstIso(ltt > 0 ? ltt : now),
    ...(ltpc.cp !== undefined && ltpc.cp > 0 ? { change: last - ltpc.cp } : {}),
  };
  if (!ff) return tick;
  const quotes = ff.marketLevel?.bidAskQuote ?? [];
  const side = (price: 'bidP' | 'askP', qty: 'bidQ' | 'askQ'): DepthLevel[] =>
    quotes
      .slice(0, 5)
      .map((q) => ({ price: q[price] ?? 0, quantity: num(q[qty]), orders: null }))
      .filter((l) => l.price > 0 || l.quantity > 0);
  const buy = side('bidP', 'bidQ');
  const sell = side('askP', 'askQ');
  return {
    ...tick,
    bid: buy[0]?.price ?? null,
    ask: sell[0]?.price ?? null,
    depth: { buy, sell },
    totalBuyQuantity: Math.max(0, Math.round(ff.tbq ?? 0)),
    totalSellQuantity: Math.max(0, Math.round(ff.tsq ?? 0)),
    oi: equity ? null : Math.max(0, Math.round(ff.oi ?? 0)),
  };
}

/**
 * Upstox's two sockets as one stream (docs/upstox.md §The adapter, "Ticker"): the market data
 * feed v3 (protobuf `FeedResponse`, decoded with the schema Upstox publishes) for ticks, and the
 * portfolio stream (JSON) for order updates. Each is the one client-side socket policy
 * (`StreamSocket`: reconnect, watchdog, subscription limit) with its dialect, and each connects
 * with the URL its `…/authorize` endpoint hands out for the session — asked through the REST
 * transport, so a refused token gets the transport's one re-login, then ends the session once.
 * The stream is open when both sockets are.
 */
export class UpstoxTicker implements BrokerStream {
  readonly #market: StreamSocket;
  readonly #portfolio: StreamSocket;
  readonly #states: { market: ConnectionState['stream']; portfolio: ConnectionState['stream'] } = {
    market: 'closed',
    portfolio: 'closed',
  };
  readonly #details: { market: string | null; portfolio: string | null } = { market: null, portfolio: null };
  readonly #listener: StreamListener;

  public constructor(
    transport: RestTransport,
    auth: AuthSource,
    listener: StreamListener,
    deps: UpstoxTickerDeps,
    options: StreamSocketOptions = {},
  ) {
    this.#listener = listener;
    const now = deps.now ?? Date.now;
    const authorize = async (path: string, query: Record<string, string>): Promise<WebSocket> => {
      await deps.ready();
      const w = await transport.call({ method: 'GET', path, query, schema: UpstoxFeedAuthorize, retry: 'read' });
      const url = w.data.authorized_redirect_uri ?? w.data.authorizedRedirectUri;
      if (url === undefined) throw new Error('Upstox handed out no socket URL');
      return new WebSocket(url, { handshakeTimeout: 10_000 });
    };
    const part = (which: 'market' | 'portfolio'): StreamListener => ({
      onOrder: (o) => listener.onOrder(o),
      onTick: (t) => listener.onTick(t),
      onState: (state, detail) => this.#onState(which, state, detail),
    });
    const common = {
      name: 'Upstox',
      // A refused upgrade is a spent or ended code: authorize again (the REST call renews the token if it must).
      upgradeRefused: (): 'retry' => 'retry',
      closeEndsSession: (code: number) => code === 1008,
    } as const;
    const market: StreamDialect = {
      ...common,
      open: () => authorize('/v3/feed/market-data-feed/authorize', {}),
      subscription: (action, tokens) => request(action === 'subscribe' ? 'sub' : 'unsub', 'full', tokens, deps),
      mode: (mode, tokens) => request('change_mode', FEED_MODE[mode], tokens, deps),
      receive: (data, isBinary) => {
        if (!isBinary) return;
        let decoded: Decoded;
        try {
          decoded = FeedResponse.toObject(FeedResponse.decode(data as Buffer), {
            enums: String,
            longs: String,
          }) as Decoded;
        } catch {
          return;
        }
        const at = now();
        for (const [key, feed] of Object.entries(decoded.feeds ?? {})) {
          const token = deps.token(key);
          if (token === undefined) continue;
          const tick = feedTick(token, feed, at, key.includes('_EQ|'));
          if (tick) listener.onTick(tick);
        }
      },
    };
    const portfolio: StreamDialect = {
      ...common,
      open: () => authorize('/v2/feed/portfolio-stream-feed/authorize', { update_types: 'order' }),
      // The portfolio stream takes no subscriptions: it carries the account's updates.
      subscription: () => '',
      mode: () => '',
      receive: (data, isBinary) => {
        if (isBinary) return;
        let json: unknown;
        try {
          json = JSON.parse(String(data));
        } catch {
          return;
        }
        if ((json as { update_type?: unknown }).update_type !== 'order') return;
        const parsed = UpstoxOrder.safeParse(json);
        if (!parsed.success) return;
        const order = deps.toOrder(parsed.data);
        if (order) listener.onOrder(order);
      },
    };
    this.#market = new StreamSocket(auth, part('market'), market, UPSTOX_FEED_LIMIT, SILENCE_MS, options);
    this.#portfolio = new StreamSocket(auth, part('portfolio'), portfolio, UPSTOX_FEED_LIMIT, SILENCE_MS, options);
  }

  public start(): void {
    this.#portfolio.start();
    this.#market.start();
  }

  public setSubscriptions(tokens: ReadonlySet<number>, modes?: ReadonlyMap<number, StreamMode>): void {
    this.#market.setSubscriptions(tokens, modes);
  }

  public async stop(): Promise<void> {
    await Promise.all([this.#market.stop(), this.#portfolio.stop()]);
  }

  /** Both sockets open: open; both closed: closed; else connecting — with the first detail given. */
  #onState(which: 'market' | 'portfolio', state: ConnectionState['stream'], detail: string | null): void {
    this.#states[which] = state;
    this.#details[which] = detail;
    const { market, portfolio } = this.#states;
    const joint: ConnectionState['stream'] =
      market === 'open' && portfolio === 'open'
        ? 'open'
        : market === 'closed' && portfolio === 'closed'
          ? 'closed'
          : 'connecting';
    const why = this.#details.portfolio ?? this.#details.market;
    this.#listener.onState(joint, why);
  }
}

/** One feed request, as Upstox's feed takes it: JSON in a binary frame. */
function request(method: string, mode: string, tokens: readonly number[], deps: UpstoxTickerDeps): Buffer {
  const instrumentKeys = tokens.map((t) => deps.key(t)).filter((k): k is string => k !== undefined);
  return Buffer.from(JSON.stringify({ guid: randomUUID(), method, data: { mode, instrumentKeys } }));
}

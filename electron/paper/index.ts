import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toIstIso } from '@shared/lib/ist-time';
import { toUnits } from '@shared/trading/money';
import { Account } from './account';
import { AUTH_FAILURES, AuthGuard } from './auth-guard';
import type { BookKind } from './book';
import type { BrokerState } from './context';
import { type FaultConfig, Faults } from './faults';
import { generateInstruments } from './instruments';
import { GttBook } from './gtt';
import { Journal, type JournalEvent } from './journal';
import { DEFAULT_ALLOWED_IPS, type KitePlan } from './kite/app-settings';
import { KITE_RATES, type KiteRates } from './kite/limits';
import { createKiteHandler } from './kite/server';
import { RequestTokens } from './kite/session';
import { KiteTicker } from './kite/ticker';
import { createUpstoxHandler } from './upstox/server';
import { MARKET_FEED_PATH, PORTFOLIO_FEED_PATH, UpstoxFeeds } from './upstox/feeds';
import { UPSTOX_RATES, type UpstoxWindows } from './upstox/limits';
import { OneTimeCodes } from './upstox/session';
import type { UpstoxState } from './upstox/context';
import type { UpstoxOrderExtras } from './upstox/views';
import type { KiteOrderExtras } from './kite/views';
import { Market } from './market';
import { MarketClock, type MarketClockSpec } from './market-clock';
import { Engine } from './matching';
import { LaggingOrderBook } from './order-book-lag';
import { SessionKeeper } from './session-keeper';
import { newControlSecret } from './control-secret';
import { createBrokerServer } from './server';
import { type HoldSpec, type HoldView, ReplyHolds } from './reply-holds';
import { Sessions } from './sessions';
import { Stream, type StreamOptions } from './stream';

/**
 * The embedded paper broker: a real HTTP + WebSocket server on 127.0.0.1 speaking the wire
 * contract documented in docs/api.md. The main process starts it when no
 * other broker is configured; `npm run paper` runs it alone; tests start one per suite.
 */

export type { FaultConfig } from './faults';
/** Thrown by `startPaperBroker` when its journal is damaged or too new: the message says what to do. */
export { JournalError } from './journal';

export interface PaperBrokerOptions {
  /** 0 or undefined = a random free port; the host is always 127.0.0.1. */
  port?: number;
  /** Deterministic universe and price paths (default 1). */
  seed?: number;
  /** Journal directory; absent = in memory only. */
  dataDir?: string;
  /**
   * Enable /v1/_control/* (default false), behind a per-launch secret sent in `X-Paper-Control`
   * (the handle's `controlSecret`; docs/api.md §Control interface).
   */
  control?: boolean;
  /** e.g. "drop_reply=0.2,server_error=0.1,rate_limit=0.1,latency_ms=30,shape_change=0.05". */
  faults?: string | FaultConfig;
  /** Per-token limit (default 10/s, burst 20); POST /orders additionally perSecond/s. */
  rate?: { perSecond: number; burst: number };
  /** Session token lifetime (default 8 h). */
  tokenTtlMs?: number;
  /** The account's api_secret on /v1 and /kite (default "paper"); tests give a canary to search for. */
  apiSecret?: string;
  /** Market tick period (default 250 ms); 0 = no automatic ticks (tests drive prices). */
  tickIntervalMs?: number;
  /** Opening cash in rupees (default ₹10,00,000). */
  startingCash?: number;
  /** Stream heartbeat period (default 3 s). An addition to the agreed options, for tests. */
  heartbeatMs?: number;
  /** Bounds of each stream socket (send buffer, slow and dead peers); defaults in stream.ts. */
  stream?: StreamOptions;
  /**
   * Start on a damaged journal by moving the damaged line and everything after it to a side
   * file (`--repair`); without it a damaged journal stops the start (docs/api.md §Persistence).
   */
  repair?: boolean;
  /** Failed authentications allowed per address (default burst 20, then 1/s); over it: 429. */
  authFailures?: { perSecond: number; burst: number };
  /**
   * Real epoch ms now (default `Date.now`): token lifetimes and rate limits keep it, and the
   * market clock runs off it, so a test can cross an IST midnight without waiting for one.
   */
  clock?: () => number;
  /**
   * The market clock (docs/api.md §Sessions and the calendar): absent = a simulated session that
   * starts inside an open market whatever the hour (when `clock` is already inside NSE hours,
   * exactly `clock`); `{at, speed}` = a chosen start and speed (`--clock ISO[,SPEED]`); `'wall'`
   * = the real calendar (`--clock wall`).
   */
  marketClock?: MarketClockSpec;
  /**
   * `depth` (default): the order book of docs/api.md §The order book. `flat`: the matcher before
   * it (fills at the last price up to a touch quantity), kept only as the benchmark's baseline.
   */
  book?: BookKind;
  /**
   * Refuse a reused `client_order_id` with 409 (default true). False (`--no-idempotency`)
   * accepts the reuse as a new order, like brokers whose order tag is not unique, so tests can
   * prove exactly-once placement where the broker does not help.
   */
  idempotency?: boolean;
  /**
   * Real milliseconds (of `clock`) an order change waits before order reads show it (default 0:
   * at once), on /v1 and /kite alike (`--orderbook-lag-ms`): a real broker's order book trails
   * its order system. The POST reply, the streams, the duplicate check and modify/cancel do not
   * wait (docs/api.md §A lagging order book).
   */
  orderbookLagMs?: number;
  /**
   * Where the Kite login page (docs/kite.md §Login) redirects with the request token
   * (`--kite-redirect-url`); default the broker's own page that shows it.
   */
  kiteRedirectUrl?: string;
  /** Kite's request limits (docs/kite.md §Limits); default Kite's documented ones. Tests raise them. */
  kiteRates?: Partial<KiteRates>;
  /** Kite ticker heartbeat period (default 1 s, docs/kite.md §Ticker). */
  kiteHeartbeatMs?: number;
  /**
   * The addresses /kite order writes may come from (`--kite-allowed-ips`; default 127.0.0.1;
   * empty: the app has none registered). docs/kite.md §Static IP.
   */
  kiteAllowedIps?: readonly string[];
  /** The Kite app's plan (`--kite-plan`): `personal` has no quotes, candles or ticker (docs/kite.md §The plan). */
  kitePlan?: KitePlan;
  /**
   * The addresses /upstox order writes may come from (`--upstox-allowed-ips`; default
   * 127.0.0.1; empty: none registered). docs/upstox.md §Static IP.
   */
  upstoxAllowedIps?: readonly string[];
  /** Upstox's request limits (docs/upstox.md §Limits); default Upstox's published ones. Tests change them. */
  upstoxRates?: { readonly orders?: Partial<UpstoxWindows>; readonly standard?: Partial<UpstoxWindows> };
  /** The address to listen on (default 127.0.0.1; tests of a dual-stack machine use `::`). */
  listenHost?: string;
  /**
   * Host names answered beside the loopback ones (docs/paper-broker.md §Loopback only): a test
   * whose resolver maps a name of its own to loopback.
   */
  extraHostNames?: readonly string[];
}

export interface PaperBroker {
  /** "http://127.0.0.1:PORT/v1" */
  readonly url: string;
  readonly port: number;
  /** The secret every /v1/_control request sends in `X-Paper-Control`; null without `control`. */
  readonly controlSecret: string | null;
  /** Same as POST /_control/price (runs matching). */
  setPrice(instrumentToken: number, lastPrice: number): void;
  /** The market clock's epoch ms now. */
  marketNow(): number;
  /** Same as POST /_control/faults ({} clears). */
  setFaults(f: string | FaultConfig): void;
  sessions(): Array<{ token: string; userId: string; scope: 'trade' | 'read'; expiresAt: string }>;
  /** Total orders held (for exactly-once tests). */
  orderCount(): number;
  /** Total GTTs held, whatever their status (for exactly-once tests). */
  gttCount(): number;
  /** fdatasync calls the journal has made (0 without a data dir): what group commit saves. */
  journalSyncs(): number;
  /** Each stream client's unsent bytes and subscription count (tests, the soak). */
  streamStats(): Array<{ bufferedBytes: number; subscribed: number }>;
  /** Each Kite ticker socket's unsent bytes and subscription count (tests). */
  kiteTickerStats(): Array<{ bufferedBytes: number; subscribed: number }>;
  /** Same as POST /_control/stream: off cuts every stream socket and refuses upgrades; returns the sockets cut. */
  setStreamAccepting(on: boolean): number;
  /** Same as POST /_control/hold: holds matching requests until released; returns the hold's id. */
  hold(spec: HoldSpec): string;
  /** Same as POST /_control/release: lets hold `id` (every hold when absent) through; returns the requests let through. */
  release(id?: string): number;
  /** Same as GET /_control/holds. */
  holds(): HoldView[];
  /** Stops timers, closes sockets, flushes the journal. */
  close(): Promise<void>;
}

const DEFAULTS = {
  seed: 1,
  rate: { perSecond: 10, burst: 20 },
  tokenTtlMs: 8 * 60 * 60 * 1000,
  tickIntervalMs: 250,
  startingCash: 1_000_000,
  heartbeatMs: 3000,
};

/** The longest order book lag accepted (10 minutes): longer is a mistake, not a broker. */
export const MAX_ORDERBOOK_LAG_MS = 600_000;

/** Ids handed out ahead of use, journaled and fsynced before the first of them leaves the broker. */
const ID_BLOCK = 100;

/** The highest order and trade ids that may have been seen outside the broker. */
interface IdMark {
  order: number;
  trade: number;
}

/** The latest market time a journal recorded (orders, trades, marks), or 0. */
function latestTime(events: readonly JournalEvent[]): number {
  let t = 0;
  for (const ev of events) {
    if (ev.e === 'order') t = Math.max(t, ev.o.updatedAt);
    else if (ev.e === 'trade') t = Math.max(t, ev.t.at);
    else if (ev.e === 'gtt') t = Math.max(t, ev.g.updatedAt);
    else if (ev.e === 'marks' && ev.at !== undefined) t = Math.max(t, ev.at);
  }
  return t;
}

/** Re-applies journaled events; positions and cash follow from the trades. Returns the id high-water mark. */
function replay(events: readonly JournalEvent[], state: BrokerState): IdMark {
  const now = state.clock();
  const mark: IdMark = { order: 0, trade: 0 };
  for (const ev of events) {
    switch (ev.e) {
      case 'session':
        state.sessions.restore({ ...ev.s });
        break;
      case 'session_end':
        state.sessions.revoke(ev.token);
        break;
      case 'order':
        state.engine.restoreOrder(ev.o);
        mark.order = Math.max(mark.order, Number(ev.o.orderId));
        break;
      case 'trade':
        state.engine.restoreTrade(ev.t);
        mark.trade = Math.max(mark.trade, Number(ev.t.tradeId));
        break;
      case 'gtt':
        state.gtt.restore(ev.g);
        break;
      case 'marks':
        for (const [token, units] of Object.entries(ev.prices))
          state.market.restoreMark(Number(token), units, ev.at, now);
        break;
      case 'ids':
        mark.order = Math.max(mark.order, ev.order);
        mark.trade = Math.max(mark.trade, ev.trade);
        break;
    }
  }
  state.engine.continueAbove(mark.order, mark.trade);
  return mark;
}

/** The prices worth keeping across a restart: what the account holds or works orders in. */
function marks(state: BrokerState): Record<string, number> {
  const tokens = new Set<number>();
  for (const p of state.engine.account.positions.values()) tokens.add(p.token);
  for (const h of state.engine.account.holdings.values()) tokens.add(h.token);
  for (const o of state.engine.allOrders())
    if (o.status === 'OPEN' || o.status === 'TRIGGER PENDING') tokens.add(o.token);
  for (const g of state.gtt.all()) if (g.status === 'active') tokens.add(g.token);
  const out: Record<string, number> = {};
  for (const t of tokens) {
    const ltp = state.market.ltp(t);
    if (ltp > 0) out[String(t)] = ltp;
  }
  return out;
}

/** The broker's push channels; made once the server exists, told of every order and tick from then on. */
interface Sockets {
  stream: Stream | null;
  kiteTicker: KiteTicker | null;
  upstoxFeeds: UpstoxFeeds | null;
}

/**
 * Order and trade ids in blocks: before a new id goes anywhere (journal line, stream, reply), a
 * block of ids above it is journaled and fsynced, so a restart never hands it out again
 * (docs/api.md §Persistence).
 */
function idBlocks(journal: Journal): {
  reserve: (kind: keyof IdMark, id: number) => void;
  raiseTo: (m: IdMark) => void;
} {
  let ids: IdMark = { order: 0, trade: 0 };
  return {
    reserve(kind, id) {
      if (id <= ids[kind]) return;
      ids = { ...ids, [kind]: id + ID_BLOCK - 1 };
      journal.append({ e: 'ids', ...ids });
      journal.commit();
    },
    raiseTo(m) {
      ids = { order: Math.max(ids.order, m.order), trade: Math.max(ids.trade, m.trade) };
    },
  };
}

/**
 * The broker's state, read back from its journal and caught up to now: the market on the
 * journal's clock, the matching engine and GTT book journaling every change, and the sessions.
 */
function openBrokerState(options: PaperBrokerOptions, seed: number, sockets: Sockets): BrokerState {
  const realClock = options.clock ?? Date.now;
  const opened = options.dataDir
    ? Journal.open(options.dataDir, { repair: options.repair ?? false })
    : { journal: Journal.memory(), replay: { events: [], torn: null, repaired: null } };
  const { journal } = opened;
  const { torn, repaired } = opened.replay;
  if (torn !== null)
    console.warn(
      `[paper] journal: cut off a torn last line (line ${torn}): a write a crash interrupted, never acknowledged`,
    );
  if (repaired) console.warn(`[paper] ${repaired.summary}`);
  // After a restart the market clock never starts before what the journal already recorded.
  const journaledUntil = latestTime(opened.replay.events);
  const marketClock = new MarketClock(realClock, options.marketClock, journaledUntil);
  const clock = (): number => marketClock.now();
  const startedAt = clock();
  const market = new Market(generateInstruments(seed, startedAt), seed, startedAt, options.book ?? 'depth');
  const ids = idBlocks(journal);
  const engine = new Engine(market, new Account(toUnits(options.startingCash ?? DEFAULTS.startingCash)), {
    order(o) {
      ids.reserve('order', Number(o.orderId));
      journal.append({ e: 'order', o });
      // Pushed once on disk: the stream never shows a change a crash could take back. The engine
      // changes its order in place, so what is pushed is this transition's copy.
      const at = { ...o, history: [...o.history] };
      journal.whenDurable(() => {
        sockets.stream?.order(at);
        sockets.kiteTicker?.order(at);
        sockets.upstoxFeeds?.order(at);
      });
    },
    trade(t) {
      ids.reserve('trade', Number(t.tradeId));
      journal.append({ e: 'trade', t });
    },
  });
  const gtt = new GttBook(engine, market, (g) => journal.append({ e: 'gtt', g }));
  const lagMs = options.orderbookLagMs ?? 0;
  if (!Number.isInteger(lagMs) || lagMs < 0 || lagMs > MAX_ORDERBOOK_LAG_MS)
    throw new Error(`orderbookLagMs must be a whole number of ms from 0 to ${MAX_ORDERBOOK_LAG_MS}, not ${lagMs}`);
  // No lag: the reads are the engine's own, and nothing watches its changes.
  const lagging = lagMs > 0 ? new LaggingOrderBook(engine, lagMs, realClock) : null;
  const state: BrokerState = {
    market,
    engine,
    orderReads: lagging ? (realNow) => lagging.at(realNow) : () => engine,
    gtt,
    sessions: new Sessions(options.tokenTtlMs ?? DEFAULTS.tokenTtlMs, options.apiSecret),
    faults: new Faults(seed, options.faults),
    journal,
    startingCashUnits: engine.account.openingUnits,
    clock,
    realClock,
    marketClock,
    // Boundaries passed while the broker was down (a DAY order journaled yesterday) run at start.
    keeper: new SessionKeeper(market, engine, journaledUntil || startedAt, (at) => generateInstruments(seed, at)),
    uniqueClientIds: options.idempotency ?? true,
    setStreamAccepting: (on) =>
      (sockets.stream?.setAccepting(on) ?? 0) +
      (sockets.kiteTicker?.setAccepting(on) ?? 0) +
      (sockets.upstoxFeeds?.setAccepting(on) ?? 0),
    holds: new ReplyHolds(),
  };
  ids.raiseTo(replay(opened.replay.events, state));
  // What happened while the broker was down happens now, in order: closes (DAY orders cancelled,
  // MIS squared off), new days (positions carried into today's, T+1 delivery), opens.
  state.keeper.advance(clock());
  state.engine.account.rollTo(clock());
  gtt.sweep(clock());
  journal.commit();
  if (repaired) {
    // Ids the removed lines mention may have been seen outside: never hand them out again.
    engine.continueAbove(repaired.highestIds.order, repaired.highestIds.trade);
    gtt.continueAbove(repaired.highestIds.gtt);
    ids.raiseTo(repaired.highestIds);
  }
  // What the journal restored and the start caught up on shows at once; what happens from now on lags.
  lagging?.start();
  return state;
}

/** Every price move reaches the engine, then the GTTs, then the journal, then the sockets. */
function followMarket(state: BrokerState, sockets: Sockets): void {
  const { market, engine, gtt, journal, clock } = state;
  market.onMoves((moves) => {
    engine.onMoves(moves);
    // After the engine: a GTT's order then meets the book as it stands after this move.
    gtt.onMoves(moves);
    journal.commit();
    sockets.stream?.ticks(moves);
    sockets.kiteTicker?.ticks(moves);
    sockets.upstoxFeeds?.ticks(moves);
  });
  // The account's own fills change a book without moving its price: quote/full subscribers see it.
  market.onBookChange((token) => {
    sockets.stream?.book(token, clock());
    sockets.kiteTicker?.book(token, clock());
  });
}

/** The Kite and Upstox dialects' HTTP handlers and what their sockets share with them. */
function createDialects(state: BrokerState, options: PaperBrokerOptions, auth: AuthGuard, port: () => number) {
  const kiteExtras = new Map<string, KiteOrderExtras>();
  const kite = createKiteHandler(state, {
    auth,
    kite: {
      requestTokens: new RequestTokens(),
      extras: kiteExtras,
      redirectUrl: () => options.kiteRedirectUrl ?? `http://127.0.0.1:${port()}/kite/connect/done`,
      allowedIps: options.kiteAllowedIps ?? DEFAULT_ALLOWED_IPS,
      plan: options.kitePlan ?? 'connect',
    },
    rates: { ...KITE_RATES, ...options.kiteRates },
  });
  const upstoxState: UpstoxState = {
    codes: new OneTimeCodes<string>(),
    feedCodes: new OneTimeCodes(),
    extras: new Map<string, UpstoxOrderExtras>(),
    allowedIps: options.upstoxAllowedIps ?? DEFAULT_ALLOWED_IPS,
    socketUrl: (path) => `ws://127.0.0.1:${port()}${path}`,
  };
  const upstox = createUpstoxHandler(state, {
    auth,
    upstox: upstoxState,
    rates: {
      orders: { ...UPSTOX_RATES.orders, ...options.upstoxRates?.orders },
      standard: { ...UPSTOX_RATES.standard, ...options.upstoxRates?.standard },
    },
  });
  return { kite, kiteExtras, upstox, upstoxState };
}

/** The WebSockets on the server: the broker's own stream, which hands /kite/ws and Upstox's feeds to theirs. */
function openSockets(
  server: Server,
  state: BrokerState,
  options: PaperBrokerOptions,
  shared: { auth: AuthGuard; extraHostNames: ReadonlySet<string> } & ReturnType<typeof createDialects>,
  sockets: Sockets,
): void {
  const { market, sessions, clock, realClock, engine } = state;
  const stream = new Stream(
    server,
    shared.auth,
    market,
    options.heartbeatMs ?? DEFAULTS.heartbeatMs,
    options.stream,
    clock,
    realClock,
    shared.extraHostNames,
  );
  const ticker = new KiteTicker({
    market,
    sessions,
    auth: shared.auth,
    extras: shared.kiteExtras,
    clock,
    realClock,
    heartbeatMs: options.kiteHeartbeatMs ?? 1000,
    limits: options.stream,
    plan: options.kitePlan ?? 'connect',
  });
  stream.delegate('/kite/ws', (req, socket, head) => ticker.upgrade(req, socket, head));
  const feeds = new UpstoxFeeds({
    market,
    sessions,
    upstox: shared.upstoxState,
    clock,
    realClock,
    // How often each feed socket's login is checked (the feeds send no heartbeat of their own).
    heartbeatMs: options.heartbeatMs ?? DEFAULTS.heartbeatMs,
    limits: options.stream,
    positions: () => engine.account.positions.values(),
  });
  stream.delegate(MARKET_FEED_PATH, (req, socket, head) => feeds.upgrade(req, socket, head));
  stream.delegate(PORTFOLIO_FEED_PATH, (req, socket, head) => feeds.upgrade(req, socket, head));
  Object.assign(sockets, { stream, kiteTicker: ticker, upstoxFeeds: feeds });
}

/** Listens on the options' host and port (an ephemeral port by default); the port it got. */
async function listen(server: Server, options: PaperBrokerOptions): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.listenHost ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** The market moves on its own every `tickIntervalMs` (0: only when a test sets a price). */
function startTicking(state: BrokerState, options: PaperBrokerOptions): NodeJS.Timeout | null {
  const tickMs = options.tickIntervalMs ?? DEFAULTS.tickIntervalMs;
  const timer =
    tickMs > 0
      ? setInterval(() => {
          const now = state.clock();
          state.keeper.advance(now);
          state.market.step(now);
          state.journal.commit();
        }, tickMs)
      : null;
  timer?.unref();
  return timer;
}

/** What a test or the CLI holds: prices, faults, counts and holds, and a close that journals the marks. */
function controlSurface(
  state: BrokerState,
  running: {
    server: Server;
    port: number;
    controlSecret: string | null;
    timer: NodeJS.Timeout | null;
    sockets: Sockets;
  },
): PaperBroker {
  const { market, engine, gtt, journal, faults, sessions, clock } = state;
  const { server, port, timer, sockets } = running;
  let closed: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    controlSecret: running.controlSecret,
    setPrice(instrumentToken, lastPrice) {
      const i = market.instrument(instrumentToken);
      if (!i) throw new Error(`unknown instrument ${instrumentToken}`);
      const now = clock();
      state.keeper.advance(now);
      market.set(instrumentToken, toUnits(lastPrice), now);
      journal.commit();
    },
    marketNow() {
      return clock();
    },
    setFaults(f) {
      faults.set(f);
    },
    sessions() {
      return sessions
        .all()
        .map((s) => ({ token: s.token, userId: s.userId, scope: s.scope, expiresAt: toIstIso(s.expiresAt) }));
    },
    orderCount() {
      return engine.orderCount();
    },
    gttCount() {
      return gtt.count();
    },
    journalSyncs() {
      return journal.syncs;
    },
    streamStats() {
      return sockets.stream?.stats() ?? [];
    },
    kiteTickerStats() {
      return sockets.kiteTicker?.stats() ?? [];
    },
    setStreamAccepting(on) {
      return state.setStreamAccepting(on);
    },
    hold: (spec) => state.holds.add(spec),
    release: (id) => state.holds.release(id),
    holds: () => state.holds.list(),
    close() {
      closed ??= (async () => {
        if (timer) clearInterval(timer);
        sockets.stream?.close();
        sockets.kiteTicker?.close();
        sockets.upstoxFeeds?.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await journal.settle();
        journal.append({ e: 'marks', prices: marks(state), at: clock() });
        journal.close();
      })();
      return closed;
    },
  };
}

/**
 * Starts the paper broker (docs/paper-broker.md): its state read back from the journal, the HTTP
 * server with both dialects, the sockets, and the market's own ticking.
 */
export async function startPaperBroker(options: PaperBrokerOptions = {}): Promise<PaperBroker> {
  const sockets: Sockets = { stream: null, kiteTicker: null, upstoxFeeds: null };
  const state = openBrokerState(options, options.seed ?? DEFAULTS.seed, sockets);
  followMarket(state, sockets);
  const auth = new AuthGuard(state.sessions, options.authFailures ?? AUTH_FAILURES);
  let port = 0;
  const dialects = createDialects(state, options, auth, () => port);
  const extraHostNames = new Set((options.extraHostNames ?? []).map((n) => n.toLowerCase()));
  const controlSecret = options.control ? newControlSecret() : null;
  const server = createBrokerServer(state, {
    controlSecret,
    rate: options.rate ?? DEFAULTS.rate,
    auth,
    kite: dialects.kite,
    upstox: dialects.upstox,
    extraHostNames,
  });
  openSockets(server, state, options, { auth, extraHostNames, ...dialects }, sockets);
  port = await listen(server, options);
  const timer = startTicking(state, options);
  return controlSurface(state, { server, port, controlSecret, timer, sockets });
}

import type { Instrument, Exchange } from '@shared/domain/instrument';
import type {
  Candle,
  CandleInterval,
  MarketQuote,
  MarketStatus,
  OptionChain,
  StreamMode,
  Tick,
} from '@shared/domain/market';
import type { Order, OrderAck, OrderChanges, OrderEvent, OrderRequest, OrderStatus, Trade } from '@shared/domain/order';
import type { Gtt, GttAck, GttChanges, GttRequest } from '@shared/domain/gtt';
import type { BasketMargin, Funds, Holding, OrderMargin, Position } from '@shared/domain/portfolio';
import type { ConnectionState } from '@shared/domain/session';
import type { RateLimit } from './http/token-bucket';

/**
 * What logging in needs: the broker's API key and secret, and the scope asked for. A Kite
 * Connect login brings the `requestToken` its login page redirected with (exchanged with the
 * secret), or an `accessToken` the trader pasted for the day (then the secret may be empty)
 * (docs/kite.md §Login).
 */
export interface Credentials {
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly scope?: 'trade' | 'read';
  readonly requestToken?: string;
  readonly accessToken?: string;
  /** Where the broker's login page sent the code back to: an OAuth code is exchanged with it (Upstox, docs/upstox.md §The adapter). */
  readonly redirectUri?: string;
}

/**
 * What a login grants. `accessToken` is the secret: only the session manager may hold it.
 */
export interface SessionGrant {
  readonly accessToken: string;
  readonly expiresAt: string;
  readonly userId: string;
  readonly scope: 'trade' | 'read';
  /** `none` when the account's plan has no market data (Kite's personal plan, found at login: docs/kite.md §The plan). */
  readonly marketData?: 'live' | 'none';
}

/** An order to create, with the idempotency key the core assigned to its intent. */
export interface PlaceOrderCommand extends OrderRequest {
  readonly clientOrderId: string;
}

/** A GTT to create, with the idempotency key main assigned to it (docs/gtt.md §When the broker fails). */
export interface PlaceGttCommand extends GttRequest {
  readonly clientGttId: string;
  /** The last price main judged the triggers against (Kite's condition carries it). */
  readonly lastPrice: number;
}

/** How one order POST is watched. */
export interface PlaceOptions {
  readonly onSlow?: () => void;
  readonly signal?: AbortSignal;
  /**
   * Aborted when the intent's re-send window ends: a POST still waiting for the client's rate
   * limit then never leaves (it fails `not_sent`), so no order reaches the broker long after the
   * click (docs/money-path.md §One policy for every broker). Once sent, it is ignored.
   */
  readonly sendBy?: AbortSignal;
}

/** How a read is queued: `urgent` reads are an order action's own (a kill switch, the risk guard) and go ahead of polls. */
export interface ReadOptions {
  readonly urgent?: boolean;
}

/**
 * What a broker's client references and order list let the order service conclude
 * (docs/money-path.md §What each broker lets the policy conclude).
 */
export interface PlacementTraits {
  /**
   * The broker refuses a reused client reference, naming the order it already has (the REST
   * dialect's 409 `duplicate_client_order_id`): a re-send can never make a second order, so it
   * is its own lookup. False when the broker says nothing: the policy assumes no help.
   */
  readonly uniqueReferences: boolean;
  /**
   * The earliest moment (epoch ms) whose orders the broker's order list still shows at `now`,
   * or null when it shows every order. Kite shows only today's: an intent journaled before
   * then cannot be verified by a lookup.
   */
  ordersVisibleFrom(now: number): number | null;
  /** Says, for the trader, which orders the list shows ("Kite shows only today's orders"). */
  readonly ordersVisibleNote?: string;
}

/** Filters of the order list. */
export interface OrderFilter {
  readonly status?: OrderStatus;
  readonly clientOrderId?: string;
}

/**
 * One incremental read of the order book (docs/api.md §Incremental reads): the orders changed
 * since a cursor, and the cursor to ask from next time.
 */
export interface OrderChangesPage {
  readonly orders: readonly Order[];
  /** What to send as `since` next time; null when the broker gave none (then read in full). */
  readonly cursor: string | null;
  /** True when `orders` is the whole book (no cursor sent, or one the broker no longer knows): an order missing from it is gone. */
  readonly full: boolean;
}

/** A window of candles. */
export interface CandleQuery {
  readonly interval: CandleInterval;
  readonly from?: string;
  readonly to?: string;
}

/** Which option chain to read: an underlying, one expiry (the nearest when absent), strikes each side. */
export interface OptionChainQuery {
  readonly underlying: string;
  readonly expiry?: string;
  readonly strikes?: number;
}

/** What the live stream delivers to its owner. */
export interface StreamListener {
  onOrder(order: Order): void;
  onTick(tick: Tick): void;
  onState(state: ConnectionState['stream'], detail: string | null): void;
}

/** The live stream of one session: started once, resubscribed on every reconnect. */
export interface BrokerStream {
  start(): void;
  /**
   * Replaces the set of instruments whose ticks are wanted; `modes` says how much a token's
   * ticks carry where it is not the default `quote` (docs/api.md §Stream, modes).
   */
  setSubscriptions(tokens: ReadonlySet<number>, modes?: ReadonlyMap<number, StreamMode>): void;
  stop(): Promise<void>;
}

/** How a cancel is sent (the kill switch's own schedule: docs/contract.md §Kill switch). */
export interface CancelOptions {
  /**
   * `'wait'` (default): the transport waits out a 429 and tries again, a few times.
   * `'answer'`: a 429 is answered at once, with its Retry-After, for the caller to wait out and
   * say so; its lane of the client's limiter is paused all the same.
   */
  readonly rateLimits?: 'wait' | 'answer';
  /**
   * Aborted: a cancel still waiting for the client's limits is not sent (it fails `not_sent`,
   * `SendTimePassed`). One already sent is answered as usual.
   */
  readonly sendBy?: AbortSignal;
}

/**
 * The request limits a broker publishes for one access token (docs/api.md §Limits), from which
 * the client sizes its own pace and the usage meter its budget.
 */
export interface BrokerLimits {
  /**
   * Every request counts here — but the order writes of a broker that counts them apart (Kite:
   * its `orderWindows`; the transport is told so by the dialect's `orderWritesApart`).
   */
  readonly requests: RateLimit;
  /** Order placement, where the broker limits it on its own as well (null: it does not). */
  readonly placements: RateLimit | null;
  /**
   * Where the broker counts order writes (place, modify, cancel) in calendar windows instead —
   * Kite: 10 a second, 400 a minute, 5,000 an IST day (docs/kite.md §Limits) — the counts; the
   * client then paces every order write under them in sliding windows.
   */
  readonly orderWindows?: {
    readonly perSecond: number;
    readonly perMinute: number;
    /** Upstox also counts thirty minutes (docs/upstox.md §Limits). */
    readonly perHalfHour?: number;
    /** Absent where the broker counts no day. */
    readonly perDay?: number;
  };
  /**
   * `broker`: read from the broker's own replies (the REST dialect's `RateLimit-Policy`);
   * `documented`: the adapter's documented default, until (or unless) the broker says.
   */
  readonly source: 'broker' | 'documented';
}

/**
 * Everything the app does with a broker, in the app's own (domain) types.
 *
 * The REST adapter for the wire contract of docs/api.md is the first implementation; real broker adapters follow
 * behind this same interface, so nothing above it knows HTTP paths or field spellings. Every
 * method rejects with an `AppError` whose `kind` is one of the contract's error kinds; a reply
 * that does not parse is `unexpected_shape`, never a value.
 */
export interface Broker {
  /** Human label ("Paper broker", a host name) for the session panel. */
  readonly label: string;
  /** What its references and order list let the order service conclude (known after login). */
  placementTraits(): PlacementTraits;
  /** The request limits this broker publishes, as known now. */
  limits(): BrokerLimits;
  /** Tells `listener` whenever the published limits change; returns the unsubscribe. */
  onLimits(listener: (limits: BrokerLimits) => void): () => void;
  login(credentials: Credentials): Promise<SessionGrant>;
  /** Ends the broker session of the current token (best effort). */
  logout(): Promise<void>;

  /**
   * Creates an order. Sent once: an ambiguous failure is for the caller to resolve (a
   * `TransportFailure` says whether the request may have reached the broker). `onSlow` is
   * called when the reply is later than the adaptive timeout (the request keeps waiting);
   * `signal` abandons it.
   */
  placeOrder(command: PlaceOrderCommand, options?: PlaceOptions): Promise<OrderAck>;
  /**
   * Every order the broker holds under this client reference: one GET, urgent, short timeout,
   * never retried here (a placement's lookups are paced by the order service).
   */
  findOrders(clientOrderId: string): Promise<readonly Order[]>;
  /**
   * Sends exactly these changes once (never retried here). With `ifVersion`, a broker that
   * versions orders refuses (412, `conflict`) if the order was modified since that version.
   */
  modifyOrder(
    orderId: string,
    changes: OrderChanges,
    precondition?: { readonly ifVersion?: number },
  ): Promise<OrderAck>;
  /**
   * Cancels a working order; a 429 is waited out by the transport (Retry-After honoured) unless
   * `options.rateLimits` is `'answer'`.
   */
  cancelOrder(orderId: string, options?: CancelOptions): Promise<OrderAck>;
  listOrders(filter?: OrderFilter, options?: ReadOptions): Promise<readonly Order[]>;
  /**
   * The orders changed since `cursor` (null: every order, with a cursor to continue from).
   * Optional: a broker without change cursors (Kite) leaves it out, and main's order book then
   * reads the whole list at a slow pace and takes the stream's updates in between
   * (docs/live-data.md §The order book in main).
   */
  listOrdersSince?(cursor: string | null): Promise<OrderChangesPage>;
  /** One order; `urgent` for an order action's own read (it goes ahead of polls). */
  getOrder(orderId: string, options?: { readonly urgent?: boolean }): Promise<Order>;
  orderHistory(orderId: string): Promise<readonly OrderEvent[]>;
  listTrades(): Promise<readonly Trade[]>;

  /**
   * Creates a GTT (docs/gtt.md). Sent once, like `placeOrder`: an ambiguous failure is the
   * caller's to settle with `findGtts`.
   */
  placeGtt(command: PlaceGttCommand): Promise<GttAck>;
  /**
   * The GTTs that may be this command's creation: by its client reference where the broker
   * keeps one (docs/api.md §GTT), else by what it asks for (Kite keeps none: docs/kite.md §GTT).
   */
  findGtts(command: PlaceGttCommand): Promise<readonly Gtt[]>;
  /** Every GTT the broker holds, whatever its status. */
  listGtts(): Promise<readonly Gtt[]>;
  /**
   * New trigger values and orders for the active GTT `gtt` (as last read: Kite's modify names
   * its type and instrument again), judged against `lastPrice`; sent once.
   */
  modifyGtt(gtt: Gtt, changes: GttChanges, lastPrice: number): Promise<GttAck>;
  /** Deletes (cancels) a GTT; deleting a deleted one is not an error where the broker says so. */
  deleteGtt(gttId: string): Promise<GttAck>;

  listPositions(options?: ReadOptions): Promise<readonly Position[]>;
  listHoldings(options?: ReadOptions): Promise<readonly Holding[]>;
  getFunds(): Promise<Funds>;
  orderMargin(order: OrderRequest): Promise<OrderMargin>;
  /** The margin of several prospective orders together, hedging counted (docs/api.md §POST /margins/basket). */
  basketMargin(orders: readonly OrderRequest[]): Promise<BasketMargin>;

  listInstruments(exchange?: Exchange): Promise<readonly Instrument[]>;
  getCandles(instrumentToken: number, query: CandleQuery): Promise<readonly Candle[]>;
  /** Full quotes of these instruments (at most 500), in that order; unknown ones are left out. */
  getQuotes(instrumentTokens: readonly number[], options?: ReadOptions): Promise<readonly MarketQuote[]>;
  /** The market clock and each exchange's session. */
  marketStatus(): Promise<MarketStatus>;
  /** One underlying's option chain for one expiry. */
  optionChain(query: OptionChainQuery): Promise<OptionChain>;

  /** A stream for the current session; the caller starts and stops it. */
  openStream(listener: StreamListener): BrokerStream;
  /** Frees connections. */
  close(): Promise<void>;
}

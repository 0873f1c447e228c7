import { z } from 'zod';
import type { Exchange, Instrument } from '@shared/domain/instrument';
import type { Candle, CandleInterval, MarketQuote, MarketStatus, OptionChain } from '@shared/domain/market';
import {
  ClientOrderId,
  type Order,
  type OrderAck,
  type OrderChanges,
  type OrderEvent,
  type OrderRequest,
  type Trade,
} from '@shared/domain/order';
import type { Gtt, GttAck } from '@shared/domain/gtt';
import type { BasketMargin, Funds, Holding, OrderMargin, Position } from '@shared/domain/portfolio';
import { AppError } from '@shared/ipc/app-error';
import { nextIstTimeOfDay, toIstIso } from '@shared/lib/ist-time';
import type { AuthSource } from '../auth-source';
import { brokerError } from '../broker-error';
import type {
  Broker,
  BrokerLimits,
  BrokerStream,
  CancelOptions,
  CandleQuery,
  Credentials,
  OrderFilter,
  OptionChainQuery,
  PlaceOptions,
  PlaceOrderCommand,
  ReadOptions,
  SessionGrant,
  StreamListener,
} from '../broker';
import { cancelSpec, urgency } from '../read-options';
import * as base from '../adapter-base';
import { ReadUntilSent } from '../http/read-until-sent';
import type { RestTransport, TransportOptions } from '../rest/rest-transport';
import { kiteSession, regularHoursStatus } from '../kite/kite-calendar';
import { classifyUpstoxReply, upstoxTokenRefused } from './upstox-errors';
import { UpstoxTicker } from './upstox-ticker';
import {
  SEGMENT_OF,
  UpstoxIndex,
  toCandle,
  toFunds,
  toHolding,
  toInstrument,
  toMarketQuote,
  toOrder,
  toOrderEvent,
  toPosition,
  toTrade,
  upstoxProduct,
  upstoxTokens,
  type KeyedInstrument,
} from './upstox-to-domain';
import {
  UpstoxCandles,
  UpstoxFunds,
  UpstoxHoldings,
  UpstoxInstrument,
  UpstoxMaster,
  UpstoxOrderDetails,
  UpstoxOrderId,
  UpstoxOrderList,
  UpstoxPlaced,
  UpstoxPositions,
  UpstoxProfile,
  UpstoxQuotes,
  UpstoxToken,
  UpstoxTradeList,
  type UpstoxOrder,
} from './upstox-wire';

/**
 * Upstox's published limits (docs/upstox.md §Limits): order writes (place, modify, cancel) 10 a
 * second, 500 a minute and 2,000 in thirty minutes, every other API 50 a second and 500 a minute;
 * counted per user in fixed windows, and a 429 carries no Retry-After. The client paces order
 * writes under the windows (the core's window pacer), so a quick run of clicks waits instead of
 * being refused, and every request at most 8 a second (80% of 10): the other APIs' 500 a minute
 * is 8.3 a second, which a burst of 50 a second would spend in ten seconds.
 */
export const UPSTOX_LIMITS: BrokerLimits = {
  requests: { perSecond: 10, burst: 50 },
  placements: { perSecond: 10, burst: 10 },
  orderWindows: { perSecond: 10, perMinute: 500, perHalfHour: 2_000 },
  source: 'documented',
};

/** The transport's dialect knobs for Upstox: a bearer token, its `errors[]` body, its 401 for an ended token. */
export function upstoxTransportOptions(): Pick<
  TransportOptions,
  'authorize' | 'classify' | 'tokenRefused' | 'orderWritesApart'
> {
  return {
    authorize: (token) => ({ authorization: `Bearer ${token}` }),
    classify: classifyUpstoxReply,
    tokenRefused: upstoxTokenRefused,
    // Upstox counts order writes apart from every other API (docs/upstox.md §Limits): they wait
    // for the order windows alone, and their 429s pause only order writes, not the lookups.
    orderWritesApart: true,
  };
}

/** Knobs of the Upstox adapter. */
export interface UpstoxBrokerOptions {
  /** Wall clock (ms) for the token's 03:30 IST end and quotes' phase (default Date.now). */
  readonly now?: () => number;
  /** The `X-Algo-Name` order writes carry (docs/upstox.md §Static IP); absent: none. */
  readonly algoName?: string;
}

const HOUR = 3_600_000;
/** Upstox's v3 candle unit and interval of each of ours. */
const CANDLE_UNIT: Readonly<Record<CandleInterval, readonly [string, number]>> = {
  minute: ['minutes', 1],
  '5minute': ['minutes', 5],
  '15minute': ['minutes', 15],
  '60minute': ['hours', 1],
  day: ['days', 1],
};

/**
 * The `tag` an order of this intent carries: its client_order_id itself, which fits Upstox's 40
 * letters, digits, `_` or `-` (docs/upstox.md §The adapter).
 */
function upstoxTag(clientOrderId: string): string {
  if (!ClientOrderId.safeParse(clientOrderId).success) {
    throw brokerError('bad_request', 'A client order id is 1–36 letters, digits, "_" or "-"', {
      field: 'clientOrderId',
    });
  }
  return clientOrderId;
}

/** What a call Upstox has no counterpart for answers (docs/upstox.md §The adapter). */
const notOffered = (what: string): AppError =>
  brokerError('not_found', `Upstox's API as this desk speaks it offers no ${what}`);

/**
 * The Upstox adapter (docs/upstox.md §The adapter): the only code that knows Upstox's paths, its
 * JSON bodies, its `{status,data}` envelope, its instrument keys and its spellings, behind the
 * same `Broker` interface as the REST and Kite adapters.
 *
 * Exactly once: Upstox does not deduplicate, and its `tag` is a label, not a key. Every order
 * carries its intent's client_order_id as the tag (it fits Upstox's 40 characters), and
 * `findOrders` asks the order history by tag — every order carrying it, each named by its id —
 * the lookup the order service settles a lost reply or a 5xx with before anything is sent again.
 *
 * Upstox's limits are documented and its book is a day's, tags labels (docs/upstox.md §Orders).
 */
export class UpstoxBroker extends base.TodaysBookBroker implements Broker {
  public readonly label: string;
  readonly #transport: RestTransport;
  readonly #auth: AuthSource;
  readonly #options: UpstoxBrokerOptions;
  readonly #now: () => number;
  #index = new UpstoxIndex();
  readonly #instruments = new base.KeptUntilFailed(() => this.#loadInstruments());
  /** Each order as last seen: Upstox's modify names every field again. */
  readonly #lastSeen = new Map<string, UpstoxOrder>();
  /** Placements' lookups that have not left yet share one read per tag (`read-until-sent.ts`). */
  readonly #lookups = new Map<string, ReadUntilSent<z.output<typeof UpstoxOrderList>>>();

  public constructor(label: string, transport: RestTransport, auth: AuthSource, options: UpstoxBrokerOptions = {}) {
    super('Upstox', UPSTOX_LIMITS);
    this.label = label;
    this.#transport = transport;
    this.#auth = auth;
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Exchanges the authorization code the login page redirected with for an access token (with
   * the redirect URI the code was issued for), or checks a pasted access token by reading the
   * profile. The token ends at the next 03:30 IST (docs/upstox.md §Login).
   */
  public async login(c: Credentials): Promise<SessionGrant> {
    const expiresAt = toIstIso(nextIstTimeOfDay(this.#now(), 3.5 * HOUR));
    if (c.accessToken !== undefined && c.accessToken !== '') {
      const w = await base.readCall(this.#transport, '/v2/user/profile', UpstoxProfile, {
        headers: { authorization: `Bearer ${c.accessToken}` },
        auth: false,
      });
      return { accessToken: c.accessToken, expiresAt, userId: w.data.user_id, scope: 'trade' };
    }
    if (c.requestToken === undefined || c.requestToken === '') {
      throw brokerError('unauthorized', 'Log in to Upstox (or paste an access token) to start the session', {
        field: 'accessToken',
      });
    }
    if (c.redirectUri === undefined) {
      throw brokerError('bad_request', 'An Upstox login needs the redirect URL its code was issued for', {
        field: 'redirectUri',
      });
    }
    // Never repeated: a code works once, so a retry could only fail.
    const w = await this.#transport.call({
      method: 'POST',
      path: '/v2/login/authorization/token',
      body: {
        code: c.requestToken,
        client_id: c.apiKey,
        client_secret: c.apiSecret,
        redirect_uri: c.redirectUri,
        grant_type: 'authorization_code',
      },
      form: true,
      schema: UpstoxToken,
      retry: 'once',
      auth: false,
    });
    this.#transport.resetCache();
    return { accessToken: w.access_token, expiresAt, userId: w.user_id, scope: 'trade' };
  }

  public async logout(): Promise<void> {
    await base.endSession(this.#transport, () =>
      this.#transport.call({ method: 'DELETE', path: '/v2/logout', schema: null, retry: 'once' }),
    );
  }

  public async placeOrder(cmd: PlaceOrderCommand, options: PlaceOptions = {}): Promise<OrderAck> {
    const tag = upstoxTag(cmd.clientOrderId);
    const where = await this.#instrumentOf(cmd.exchange, cmd.tradingsymbol);
    const w = await this.#transport.call({
      method: 'POST',
      path: '/v3/order/place',
      body: { ...this.#orderFields(cmd, where), tag, slice: false },
      headers: this.#algoHeader(),
      schema: UpstoxPlaced,
      ...base.placeSpec(options),
    });
    const orderId = w.data.order_ids[0];
    // One order asked, never sliced: anything but one id is a reply the app cannot read.
    if (orderId === undefined || w.data.order_ids.length !== 1) {
      throw brokerError(
        'unexpected_shape',
        `Upstox answered ${w.data.order_ids.length} order ids for one order; look the reference up`,
      );
    }
    // Upstox answers only the id: the order is placed and working until its updates say otherwise.
    return { orderId, clientOrderId: cmd.clientOrderId, status: cmd.variety === 'amo' ? 'AMO REQ RECEIVED' : 'OPEN' };
  }

  /**
   * Every order carrying this reference as its tag. Upstox's history by tag lists every step of
   * every order with that tag (a label others may reuse): grouped by order id, each order's latest
   * step is the order; none carrying it is `UDAPI100010`, which here means "none".
   */
  public async findOrders(clientOrderId: string): Promise<readonly Order[]> {
    const tag = upstoxTag(clientOrderId);
    let shared = this.#lookups.get(tag);
    if (!shared) {
      shared = new ReadUntilSent();
      this.#lookups.set(tag, shared);
    }
    let steps: readonly UpstoxOrder[];
    try {
      const w = await shared.run((sent) =>
        this.#transport.call({
          method: 'GET',
          path: '/v2/order/history',
          query: { tag },
          schema: UpstoxOrderList,
          retry: 'caller',
          priority: 'urgent',
          adaptiveTimeout: true,
          coalesce: false,
          onAdmitted: sent,
        }),
      );
      steps = w.data;
    } catch (err) {
      if (err instanceof AppError && err.info.kind === 'not_found') return [];
      throw err;
    } finally {
      if (this.#lookups.get(tag) === shared) this.#lookups.delete(tag);
    }
    await this.#ensureIndex();
    const latest = new Map<string, UpstoxOrder>();
    for (const s of steps) if (s.tag === tag) latest.set(s.order_id, s);
    return base.referencedOrders('Upstox', [...latest.values()], (o) => this.#toOrder(o), clientOrderId);
  }

  /**
   * Upstox's modify names the order's type, price, trigger and validity every time: the ones not
   * changed are the order's as last seen (read now when not seen yet).
   */
  public async modifyOrder(orderId: string, changes: OrderChanges): Promise<OrderAck> {
    const id = base.checkedOrderId(orderId);
    const seen = this.#lastSeen.get(id) ?? (await this.#details(id, true));
    const orderType = changes.orderType ?? seen.order_type;
    const body: Record<string, string | number> = {
      order_id: id,
      quantity: changes.quantity ?? seen.quantity,
      order_type: orderType,
      validity: changes.validity ?? seen.validity,
      price: changes.price !== undefined ? (changes.price ?? 0) : (seen.price ?? 0),
      trigger_price: changes.triggerPrice !== undefined ? (changes.triggerPrice ?? 0) : (seen.trigger_price ?? 0),
      disclosed_quantity: 0,
    };
    const w = await this.#transport.call({
      method: 'PUT',
      path: '/v3/order/modify',
      body,
      headers: this.#algoHeader(),
      schema: UpstoxOrderId,
      // Never blindly repeated (docs/money-path.md, "Modifications").
      retry: 'caller',
      priority: 'urgent',
      // Upstox counts a modification against its order limits (docs/upstox.md §Limits).
      placement: true,
    });
    return { orderId: w.data.order_id, status: 'OPEN' };
  }

  public async cancelOrder(orderId: string, options: CancelOptions = {}): Promise<OrderAck> {
    const id = base.checkedOrderId(orderId);
    // Upstox answers only the id once it has taken the cancellation, and refuses to cancel an
    // order that stopped working with UDAPI100040 (docs/upstox.md §Errors).
    return base.cancelTaken(
      id,
      () =>
        this.#transport.call({
          method: 'DELETE',
          path: '/v3/order/cancel',
          query: { order_id: id },
          headers: this.#algoHeader(),
          schema: UpstoxOrderId,
          placement: true,
          ...cancelSpec(options),
        }),
      this,
    );
  }

  public async listOrders(filter: OrderFilter = {}, options: ReadOptions = {}): Promise<readonly Order[]> {
    if (filter.clientOrderId !== undefined) {
      const found = await this.findOrders(filter.clientOrderId);
      return filter.status === undefined ? found : found.filter((o) => o.status === filter.status);
    }
    const w = await base.readCall(this.#transport, '/v2/order/retrieve-all', UpstoxOrderList, {
      priority: urgency(options),
    });
    await this.#ensureIndex();
    return base.shownOrders(w.data, (o) => this.#toOrder(o), filter.status);
  }

  public async getOrder(orderId: string, options: { readonly urgent?: boolean } = {}): Promise<Order> {
    const w = await this.#details(base.checkedOrderId(orderId), options.urgent === true);
    await this.#ensureIndex();
    const order = this.#toOrder(w);
    if (order === null) throw brokerError('not_found', `Upstox has no order ${orderId} the app can show`);
    return order;
  }

  public async orderHistory(orderId: string): Promise<readonly OrderEvent[]> {
    const w = await base.readCall(this.#transport, '/v2/order/history', UpstoxOrderList, {
      query: { order_id: base.checkedOrderId(orderId) },
    });
    return w.data.map(toOrderEvent);
  }

  public async listTrades(): Promise<readonly Trade[]> {
    const w = await base.readCall(this.#transport, '/v2/order/trades/get-trades-for-day', UpstoxTradeList);
    await this.#ensureIndex();
    return w.data.map((t) => toTrade(t, this.#index)).filter((t): t is Trade => t !== null);
  }

  public placeGtt(): Promise<GttAck> {
    return Promise.reject(notOffered('GTT'));
  }

  public findGtts(): Promise<readonly Gtt[]> {
    return Promise.resolve([]);
  }

  public listGtts(): Promise<readonly Gtt[]> {
    return Promise.resolve([]);
  }

  public modifyGtt(): Promise<GttAck> {
    return Promise.reject(notOffered('GTT'));
  }

  public deleteGtt(): Promise<GttAck> {
    return Promise.reject(notOffered('GTT'));
  }

  public async listPositions(options: ReadOptions = {}): Promise<readonly Position[]> {
    const w = await base.readCall(this.#transport, '/v2/portfolio/short-term-positions', UpstoxPositions, {
      priority: urgency(options),
    });
    await this.#ensureIndex();
    return w.data.map((p) => toPosition(p, this.#index)).filter((p): p is Position => p !== null);
  }

  public async listHoldings(options: ReadOptions = {}): Promise<readonly Holding[]> {
    const w = await base.readCall(this.#transport, '/v2/portfolio/long-term-holdings', UpstoxHoldings, {
      priority: urgency(options),
    });
    await this.#ensureIndex();
    return w.data.map((h) => toHolding(h, this.#index)).filter((h): h is Holding => h !== null);
  }

  /** Upstox's funds carry no P&L: the day's positions' is added (docs/upstox.md §The adapter). */
  public async getFunds(): Promise<Funds> {
    const [w, positions] = await Promise.all([
      base.readCall(this.#transport, '/v2/user/get-funds-and-margin', UpstoxFunds),
      this.listPositions(),
    ]);
    const realised = positions.reduce((s, p) => s + p.realisedPnl, 0);
    const unrealised = positions.reduce((s, p) => s + p.unrealisedPnl, 0);
    return toFunds(w.data, { realised, unrealised });
  }

  public orderMargin(): Promise<OrderMargin> {
    return Promise.reject(notOffered('margin calculator'));
  }

  public basketMargin(): Promise<BasketMargin> {
    return Promise.reject(notOffered('basket margin calculator'));
  }

  public async listInstruments(exchange?: Exchange): Promise<readonly Instrument[]> {
    const all = await this.#instruments.get();
    return exchange === undefined ? all : all.filter((i) => i.exchange === exchange);
  }

  public async getCandles(instrumentToken: number, q: CandleQuery): Promise<readonly Candle[]> {
    const where = await this.#byToken(instrumentToken);
    const { from, to } = base.candleWindow(q, this.#now());
    const [unit, interval] = CANDLE_UNIT[q.interval];
    const day = (ms: number): string => toIstIso(ms).slice(0, 10);
    const key = encodeURIComponent(where.key);
    const w = await base.readCall(
      this.#transport,
      `/v3/historical-candle/${key}/${unit}/${interval}/${day(to)}/${day(from)}`,
      UpstoxCandles,
    );
    // Upstox answers whole days, newest first: the window asked, oldest first.
    return w.data.candles
      .map(toCandle)
      .filter((c) => {
        const at = Date.parse(c.ts);
        return at >= from && at <= to;
      })
      .reverse();
  }

  public async getQuotes(
    instrumentTokens: readonly number[],
    options: ReadOptions = {},
  ): Promise<readonly MarketQuote[]> {
    const tokens = base.quoteTokens(instrumentTokens);
    await this.#ensureIndex();
    const known = tokens.map((t) => this.#index.token(t)).filter((i): i is KeyedInstrument => i !== undefined);
    if (known.length === 0) return [];
    const w = await base.readCall(this.#transport, '/v2/market-quote/quotes', UpstoxQuotes, {
      query: { instrument_key: known.map((i) => i.key).join(',') },
      priority: urgency(options),
    });
    const byKey = new Map(Object.values(w.data).map((q) => [q.instrument_token, q]));
    const now = this.#now();
    const out: MarketQuote[] = [];
    for (const i of known) {
      const q = byKey.get(i.key);
      if (q) out.push(toMarketQuote(i, q, kiteSession(i.exchange, now).phase, toIstIso(now)));
    }
    return out;
  }

  /** The exchanges' regular hours (the Kite adapter's calendar: the same exchanges). */
  public marketStatus(): Promise<MarketStatus> {
    return Promise.resolve(regularHoursStatus(this.#now()));
  }

  public optionChain(q: OptionChainQuery): Promise<OptionChain> {
    return Promise.reject(notOffered(`option chain for ${q.underlying}; open the options from the instrument search`));
  }

  public openStream(listener: StreamListener): BrokerStream {
    return new UpstoxTicker(this.#transport, this.#auth, listener, {
      toOrder: (w) => this.#toOrder(w),
      key: (token) => this.#index.token(token)?.key,
      token: (key) => this.#index.key(key)?.instrumentToken,
      ready: () => this.#ensureIndex(),
    });
  }

  public close(): Promise<void> {
    return this.#transport.close();
  }

  #algoHeader(): Record<string, string> {
    return this.#options.algoName === undefined ? {} : { 'x-algo-name': this.#options.algoName };
  }

  #orderFields(o: OrderRequest, where: KeyedInstrument): Record<string, string | number | boolean> {
    return {
      instrument_token: where.key,
      transaction_type: o.transactionType,
      order_type: o.orderType,
      quantity: o.quantity,
      product: upstoxProduct(o.product),
      validity: o.validity,
      price: (o.orderType === 'LIMIT' || o.orderType === 'SL') && o.price != null ? o.price : 0,
      trigger_price: (o.orderType === 'SL' || o.orderType === 'SL-M') && o.triggerPrice != null ? o.triggerPrice : 0,
      disclosed_quantity: 0,
      is_amo: o.variety === 'amo',
    };
  }

  #toOrder(w: UpstoxOrder): Order | null {
    this.#lastSeen.set(w.order_id, w);
    return toOrder(w, this.#index);
  }

  async #details(id: string, urgent: boolean): Promise<UpstoxOrder> {
    const w = await base.readCall(this.#transport, '/v2/order/details', UpstoxOrderDetails, {
      query: { order_id: id },
      priority: urgent ? 'urgent' : 'normal',
    });
    this.#lastSeen.set(w.data.order_id, w.data);
    return w.data;
  }

  /** The instrument master read once: orders, positions and quotes name instruments by key. */
  async #ensureIndex(): Promise<void> {
    if (this.#index.size === 0) await this.listInstruments();
  }

  async #instrumentOf(exchange: Exchange, tradingsymbol: string): Promise<KeyedInstrument> {
    await this.#ensureIndex();
    const i = this.#index.symbol(exchange, tradingsymbol);
    if (!i) {
      throw brokerError('bad_request', `Upstox lists no ${tradingsymbol} on ${SEGMENT_OF[exchange]}`, {
        field: 'tradingsymbol',
      });
    }
    return i;
  }

  async #byToken(token: number): Promise<KeyedInstrument> {
    const t = z.number().int().positive().parse(token);
    await this.#ensureIndex();
    const i = this.#index.token(t);
    if (!i) throw brokerError('not_found', `Upstox lists no instrument ${t}`);
    return i;
  }

  async #loadInstruments(): Promise<readonly Instrument[]> {
    const rows = await base.readCall(this.#transport, '/instruments/complete.json', UpstoxMaster, { auth: false });
    // A row the app cannot read is left out, as the Kite dump's are: one odd row never costs the list.
    const parsed = rows.map((raw) => UpstoxInstrument.safeParse(raw)).flatMap((r) => (r.success ? [r.data] : []));
    const tokens = upstoxTokens(parsed);
    const index = new UpstoxIndex();
    const out: Instrument[] = [];
    parsed.forEach((row, n) => {
      const mapped = toInstrument(row, tokens[n] ?? null);
      if (!mapped) return;
      index.add(mapped.keyed);
      out.push(mapped.instrument);
    });
    this.#index = index;
    return out;
  }
}

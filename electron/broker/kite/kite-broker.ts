import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Exchange, Instrument } from '@shared/domain/instrument';
import type { Candle, MarketQuote, MarketStatus, OptionChain } from '@shared/domain/market';
import {
  type Order,
  type OrderAck,
  type OrderChanges,
  type OrderEvent,
  type OrderRequest,
  type Trade,
} from '@shared/domain/order';
import type { Gtt, GttAck, GttChanges } from '@shared/domain/gtt';
import type { BasketMargin, Funds, Holding, OrderMargin, Position } from '@shared/domain/portfolio';
import { toIstIso } from '@shared/lib/ist-time';
import type { AuthSource } from '../auth-source';
import { brokerError } from '../broker-error';
import type {
  Broker,
  BrokerLimits,
  BrokerStream,
  CancelOptions,
  CandleQuery,
  Credentials,
  OptionChainQuery,
  OrderFilter,
  PlaceGttCommand,
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
import { kiteQueryTime, kiteSession, kiteTokenExpiry, regularHoursStatus } from './kite-calendar';
import { classifyKiteReply, kiteTokenRefused } from './kite-errors';
import { parseInstrumentsCsv } from '../../wire/kite-instruments-csv';
import { KiteGttId, KiteGttList, kiteGttField, kiteGttForm, sameAsked, toGtt } from './kite-gtt';
import { AppError } from '@shared/ipc/app-error';
import { kiteTag } from './kite-tag';
import { KiteTicker } from './kite-ticker';
import {
  toCandle,
  toFunds,
  toHolding,
  toMarketQuote,
  toOrder,
  toOrderEvent,
  toOrderMargin,
  toBasketMargin,
  toPosition,
  toTrade,
} from './kite-to-domain';
import {
  KiteCandles,
  KiteHoldings,
  KiteMargins,
  KiteOrderId,
  KiteOrderList,
  KiteOrderMargins,
  KiteBasketMargins,
  KitePositions,
  KiteProfile,
  KiteQuotes,
  KiteSession,
  KiteTradeList,
  type KiteOrder,
} from './kite-wire';

/**
 * Kite Connect's documented limits (docs/kite.md §Limits): 10 requests/s per access token in
 * general; order writes (place, modify, cancel) counted per account in calendar windows — 10 a
 * second, 400 a minute, 5,000 an IST day; quotes 1/s and historical 3/s are paced by their own
 * buckets in this adapter.
 */
export const KITE_LIMITS: BrokerLimits = {
  requests: { perSecond: 10, burst: 10 },
  placements: { perSecond: 10, burst: 10 },
  orderWindows: { perSecond: 10, perMinute: 400, perDay: 5_000 },
  source: 'documented',
};

/**
 * The transport's dialect knobs for Kite: its auth header, its error body, its 403 for an expired
 * token, and its order writes counted apart from the 10/s of everything else (docs/kite.md
 * §Limits): they neither wait for nor pause the reads' bucket.
 */
export function kiteTransportOptions(
  apiKey: string,
): Pick<TransportOptions, 'authorize' | 'classify' | 'tokenRefused' | 'orderWritesApart'> {
  return {
    authorize: (token) => ({ authorization: `token ${apiKey}:${token}`, 'x-kite-version': '3' }),
    classify: classifyKiteReply,
    tokenRefused: kiteTokenRefused,
    orderWritesApart: true,
  };
}

/** Knobs of the Kite adapter. */
export interface KiteBrokerOptions {
  /** The `market_protection` sent with MARKET and SL-M orders: a percent, or -1 for Kite's automatic (default). */
  readonly marketProtection?: number;
  /** Wall clock (ms) for the token's 06:00 IST expiry and quotes' phase (default Date.now). */
  readonly now?: () => number;
  /** Waits between quote and historical requests, to keep under 1/s and 3/s (default real time). */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** What a market-data call answers on a plan without market data (docs/kite.md §The plan). */
export const NO_MARKET_DATA = 'No market data on this Kite plan';
/** A GTT refusal with the field its message names, in the app's spelling (docs/kite.md §GTT). */
async function gttRefusal<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    if (!(e instanceof AppError) || e.info.kind !== 'bad_request') throw e;
    const field = kiteGttField(e.info.message);
    if (field === undefined) throw e;
    throw brokerError('bad_request', e.info.message, { field });
  }
}

/**
 * Paces one of Kite's per-endpoint limits (quote 1/s, historical 3/s) inside this adapter: the
 * shared client bucket keeps the general 10/s, this keeps the endpoint's own.
 */
class Spacing {
  #next = 0;
  public constructor(
    private readonly gapMs: number,
    private readonly now: () => number,
    private readonly sleep: (ms: number) => Promise<void>,
  ) {}
  public async turn(): Promise<void> {
    const t = this.now();
    const at = Math.max(t, this.#next);
    this.#next = at + this.gapMs;
    if (at > t) await this.sleep(at - t);
  }
}

/**
 * The Kite Connect v3 adapter (docs/kite.md): the only code that knows Kite's paths, its form
 * bodies, its `{status,data}` envelope and its spellings, behind the same `Broker` interface as
 * the REST adapter.
 *
 * Exactly-once: Kite does not deduplicate, so every order carries the tag derived from its
 * intent's client_order_id (`kite-tag.ts`), and `findOrders` reads the order book for that tag
 * — the lookup the order service settles a lost reply with before anything is sent again
 * (docs/brokers.md, "The Kite reference").
 *
 * Kite's limits are documented and its book is a day's, tags labels (docs/kite.md §Orders).
 */
export class KiteBroker extends base.TodaysBookBroker implements Broker {
  public readonly label: string;
  readonly #transport: RestTransport;
  readonly #baseUrl: string;
  readonly #apiKey: string;
  readonly #auth: AuthSource;
  readonly #options: KiteBrokerOptions;
  readonly #now: () => number;
  /** Tags this process sent → the client reference they stand for (a tag is a one-way hash). */
  readonly #tags = new Map<string, string>();
  /** Each order's variety, as last seen: Kite's modify and cancel paths name it. */
  readonly #varieties = new Map<string, string>();
  /** Instrument token → where it trades, from the last instrument list (quotes are keyed by token). */
  #index = new Map<number, { exchange: Exchange; tradingsymbol: string }>();
  readonly #instruments = new base.KeptUntilFailed(() => this.#loadInstruments());
  readonly #quoteSpacing: Spacing;
  readonly #historySpacing: Spacing;
  #marketData: 'live' | 'none' = 'live';
  /** Placements' lookups of the order book that have not left yet (`read-until-sent.ts`). */
  readonly #lookupRead = new ReadUntilSent<z.output<typeof KiteOrderList>>();

  public constructor(
    baseUrl: string,
    label: string,
    apiKey: string,
    transport: RestTransport,
    auth: AuthSource,
    options: KiteBrokerOptions = {},
  ) {
    super('Kite', KITE_LIMITS);
    this.#baseUrl = baseUrl.replace(/\/+$/, '');
    this.label = label;
    this.#apiKey = apiKey;
    this.#transport = transport;
    this.#auth = auth;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    this.#quoteSpacing = new Spacing(1_000, this.#now, sleep);
    this.#historySpacing = new Spacing(334, this.#now, sleep);
  }

  /**
   * Exchanges the login page's request token for an access token (checksum = SHA-256 of api_key
   * + request_token + api_secret), or checks a pasted access token by reading the profile.
   */
  public async login(c: Credentials): Promise<SessionGrant> {
    const expiresAt = kiteTokenExpiry(this.#now());
    if (c.accessToken !== undefined && c.accessToken !== '') {
      const w = await base.readCall(this.#transport, '/user/profile', KiteProfile, {
        headers: kiteTransportOptions(c.apiKey).authorize?.(c.accessToken) ?? {},
        auth: false,
      });
      const marketData = await this.#probeMarketData(c.apiKey, c.accessToken);
      return { accessToken: c.accessToken, expiresAt, userId: w.data.user_id, scope: 'trade', marketData };
    }
    if (c.requestToken === undefined || c.requestToken === '') {
      throw brokerError('unauthorized', 'Log in to Kite (or paste an access token) to start the session', {
        field: 'accessToken',
      });
    }
    const checksum = createHash('sha256').update(`${c.apiKey}${c.requestToken}${c.apiSecret}`).digest('hex');
    // Never repeated: a request token works once, so a retry could only fail.
    const w = await this.#transport.call({
      method: 'POST',
      path: '/session/token',
      body: { api_key: c.apiKey, request_token: c.requestToken, checksum },
      form: true,
      headers: { 'x-kite-version': '3' },
      schema: KiteSession,
      retry: 'once',
      auth: false,
    });
    this.#transport.resetCache();
    const marketData = await this.#probeMarketData(c.apiKey, w.data.access_token);
    return { accessToken: w.data.access_token, expiresAt, userId: w.data.user_id, scope: 'trade', marketData };
  }

  /** `none` when this session's plan has no market data (found at login; docs/kite.md §The plan). */
  public marketData(): 'live' | 'none' {
    return this.#marketData;
  }

  /**
   * Asks one last price at login: Kite's personal plan answers 403 PermissionException "Insufficient
   * permission for that call." (docs/kite.md §The plan). Then the desk runs without quotes, candles
   * and the ticker — whose refusal for this plan reads like an expired token's, so it is never
   * opened. Anything else (a slow or failing broker) leaves market data on: the calls themselves
   * will say what is wrong.
   */
  async #probeMarketData(apiKey: string, token: string): Promise<'live' | 'none'> {
    await this.#quoteSpacing.turn();
    try {
      await this.#transport.call({
        method: 'GET',
        path: '/quote/ltp',
        query: { i: ['NSE:INFY'] },
        headers: kiteTransportOptions(apiKey).authorize?.(token) ?? {},
        schema: z.unknown(),
        retry: 'once',
        auth: false,
      });
      this.#marketData = 'live';
    } catch (err) {
      this.#marketData = err instanceof AppError && err.info.kind === 'forbidden' ? 'none' : 'live';
    }
    return this.#marketData;
  }

  /** Refuses a market-data call on a plan without it, without spending a request. */
  #needMarketData(): void {
    if (this.#marketData === 'none') throw brokerError('forbidden', NO_MARKET_DATA);
  }

  public async logout(): Promise<void> {
    const token = this.#auth.token();
    await base.endSession(this.#transport, () =>
      this.#transport.call({
        method: 'DELETE',
        path: '/session/token',
        query: { api_key: this.#apiKey, access_token: token ?? undefined },
        schema: null,
        retry: 'once',
      }),
    );
  }

  public async placeOrder(cmd: PlaceOrderCommand, options: PlaceOptions = {}): Promise<OrderAck> {
    const tag = kiteTag(cmd.clientOrderId);
    this.#tags.set(tag, cmd.clientOrderId);
    const variety = cmd.variety ?? 'regular';
    const w = await this.#transport.call({
      method: 'POST',
      path: `/orders/${variety}`,
      body: { ...this.#orderFields(cmd), tag },
      form: true,
      schema: KiteOrderId,
      ...base.placeSpec(options),
    });
    const orderId = String(w.data.order_id);
    this.#varieties.set(orderId, variety);
    // Kite answers only the id: the order is placed and working until its updates say otherwise.
    return { orderId, clientOrderId: cmd.clientOrderId, status: variety === 'amo' ? 'AMO REQ RECEIVED' : 'OPEN' };
  }

  public async findOrders(clientOrderId: string): Promise<readonly Order[]> {
    const tag = kiteTag(clientOrderId);
    this.#tags.set(tag, clientOrderId);
    // Lookups waiting for the client's limits at the same time share one read of the book.
    const w = await this.#lookupRead.run((sent) =>
      this.#transport.call({
        method: 'GET',
        path: '/orders',
        schema: KiteOrderList,
        retry: 'caller',
        priority: 'urgent',
        adaptiveTimeout: true,
        coalesce: false,
        onAdmitted: sent,
      }),
    );
    const mine = w.data.filter((o) => o.tag === tag || (o.tags ?? []).includes(tag));
    return base.referencedOrders('Kite', mine, (o) => this.#toOrder(o), clientOrderId);
  }

  public async modifyOrder(orderId: string, changes: OrderChanges): Promise<OrderAck> {
    const id = base.checkedOrderId(orderId);
    const variety = await this.#varietyOf(id);
    const body: Record<string, string | number> = {};
    if (changes.quantity !== undefined) body.quantity = changes.quantity;
    if (changes.orderType !== undefined) body.order_type = changes.orderType;
    if (changes.validity !== undefined) body.validity = changes.validity;
    if (changes.price !== undefined) body.price = changes.price ?? 0;
    if (changes.triggerPrice !== undefined) body.trigger_price = changes.triggerPrice ?? 0;
    if (changes.orderType === 'MARKET' || changes.orderType === 'SL-M') body.market_protection = this.#protection();
    const w = await this.#transport.call({
      method: 'PUT',
      path: `/orders/${variety}/${id}`,
      body,
      form: true,
      schema: KiteOrderId,
      // Never blindly repeated (docs/money-path.md, "Modifications").
      retry: 'caller',
      priority: 'urgent',
      // Kite counts a modification against its order limits (docs/kite.md §Limits).
      placement: true,
    });
    return { orderId: String(w.data.order_id), status: 'OPEN' };
  }

  public async cancelOrder(orderId: string, options: CancelOptions = {}): Promise<OrderAck> {
    const id = base.checkedOrderId(orderId);
    const variety = await this.#varietyOf(id);
    // Kite answers only the id once its OMS has taken the cancellation, and refuses to cancel an
    // order that stopped working as an OrderException (docs/kite.md §Orders).
    return base.cancelTaken(
      id,
      () =>
        this.#transport.call({
          method: 'DELETE',
          path: `/orders/${variety}/${id}`,
          schema: KiteOrderId,
          // Kite counts a cancel against its order limits (docs/kite.md §Limits).
          placement: true,
          ...cancelSpec(options),
        }),
      this,
    );
  }

  public async listOrders(filter: OrderFilter = {}, options: ReadOptions = {}): Promise<readonly Order[]> {
    const urgent = filter.clientOrderId !== undefined || options.urgent === true;
    const w = await base.readCall(this.#transport, '/orders', KiteOrderList, {
      priority: urgent ? 'urgent' : 'normal',
    });
    const tag = filter.clientOrderId === undefined ? null : kiteTag(filter.clientOrderId);
    const tagged = w.data.filter((o) => tag === null || o.tag === tag || (o.tags ?? []).includes(tag));
    return base.shownOrders(tagged, (o) => this.#toOrder(o), filter.status);
  }

  public async getOrder(orderId: string, options: { readonly urgent?: boolean } = {}): Promise<Order> {
    const history = await this.#history(orderId, options.urgent === true);
    const last = history[history.length - 1];
    const order = last ? this.#toOrder(last) : null;
    if (order === null) throw brokerError('not_found', `Kite has no order ${orderId} the app can show`);
    return order;
  }

  public async orderHistory(orderId: string): Promise<readonly OrderEvent[]> {
    return (await this.#history(orderId, false)).map(toOrderEvent);
  }

  public async listTrades(): Promise<readonly Trade[]> {
    const w = await base.readCall(this.#transport, '/trades', KiteTradeList);
    return w.data.map(toTrade).filter((t): t is Trade => t !== null);
  }

  public async placeGtt(cmd: PlaceGttCommand): Promise<GttAck> {
    const w = await gttRefusal(
      this.#transport.call({
        method: 'POST',
        path: '/gtt/triggers',
        body: kiteGttForm(cmd, cmd.lastPrice),
        form: true,
        schema: KiteGttId,
        retry: 'once',
        priority: 'urgent',
        placement: true,
      }),
    );
    return { gttId: String(w.data.trigger_id), status: 'active' };
  }

  /** Kite keeps no reference on a GTT: the active ones asking exactly what `cmd` asked (docs/kite.md §GTT). */
  public async findGtts(cmd: PlaceGttCommand): Promise<readonly Gtt[]> {
    const w = await this.#transport.call({
      method: 'GET',
      path: '/gtt/triggers',
      schema: KiteGttList,
      retry: 'caller',
      priority: 'urgent',
      adaptiveTimeout: true,
      coalesce: false,
    });
    return w.data.map(toGtt).filter((g): g is Gtt => g !== null && sameAsked(g, cmd));
  }

  public async listGtts(): Promise<readonly Gtt[]> {
    const w = await base.readCall(this.#transport, '/gtt/triggers', KiteGttList);
    return w.data.map(toGtt).filter((g): g is Gtt => g !== null);
  }

  public async modifyGtt(gtt: Gtt, changes: GttChanges, lastPrice: number): Promise<GttAck> {
    const id = base.checkedOrderId(gtt.gttId);
    const w = await gttRefusal(
      this.#transport.call({
        method: 'PUT',
        path: `/gtt/triggers/${id}`,
        body: kiteGttForm({ ...gtt, ...changes }, lastPrice),
        form: true,
        schema: KiteGttId,
        retry: 'caller',
        priority: 'urgent',
      }),
    );
    return { gttId: String(w.data.trigger_id), status: 'active' };
  }

  public async deleteGtt(gttId: string): Promise<GttAck> {
    const id = base.checkedOrderId(gttId);
    const w = await this.#transport.call({
      method: 'DELETE',
      path: `/gtt/triggers/${id}`,
      schema: KiteGttId,
      retry: 'idempotent-write',
      priority: 'urgent',
    });
    return { gttId: String(w.data.trigger_id), status: 'cancelled' };
  }

  public async listPositions(options: ReadOptions = {}): Promise<readonly Position[]> {
    const w = await base.readCall(this.#transport, '/portfolio/positions', KitePositions, {
      priority: urgency(options),
    });
    return w.data.net.map(toPosition).filter((p): p is Position => p !== null);
  }

  public async listHoldings(options: ReadOptions = {}): Promise<readonly Holding[]> {
    const w = await base.readCall(this.#transport, '/portfolio/holdings', KiteHoldings, { priority: urgency(options) });
    return w.data.map(toHolding).filter((h): h is Holding => h !== null);
  }

  public async getFunds(): Promise<Funds> {
    const w = await base.readCall(this.#transport, '/user/margins', KiteMargins);
    return toFunds(w.data);
  }

  public async orderMargin(order: OrderRequest): Promise<OrderMargin> {
    const f = this.#orderFields(order);
    const w = await this.#transport.call({
      method: 'POST',
      path: '/margins/orders',
      body: [{ ...f, variety: order.variety ?? 'regular' }],
      schema: KiteOrderMargins,
      // A calculation that creates nothing: safe to repeat like a read.
      retry: 'read',
    });
    const first = w.data[0];
    if (!first) throw brokerError('unexpected_shape', "Kite's margin reply held no entry for the order");
    return toOrderMargin(first, (order.price ?? order.triggerPrice ?? 0) * order.quantity);
  }

  public async basketMargin(orders: readonly OrderRequest[]): Promise<BasketMargin> {
    const w = await this.#transport.call({
      method: 'POST',
      path: '/margins/basket',
      query: { consider_positions: 'true', mode: 'compact' },
      body: orders.map((order) => ({ ...this.#orderFields(order), variety: order.variety ?? 'regular' })),
      schema: KiteBasketMargins,
      // A calculation that creates nothing: safe to repeat like a read.
      retry: 'read',
    });
    if (w.data.orders.length !== orders.length)
      throw brokerError(
        'unexpected_shape',
        `Kite's basket margin held ${w.data.orders.length} legs for ${orders.length} orders`,
      );
    return toBasketMargin(w.data);
  }

  public listInstruments(exchange?: Exchange): Promise<readonly Instrument[]> {
    if (exchange !== undefined) return this.#loadInstruments(exchange);
    return this.#instruments.get();
  }

  public async getCandles(instrumentToken: number, q: CandleQuery): Promise<readonly Candle[]> {
    const token = z.number().int().positive().parse(instrumentToken);
    const { from, to } = base.candleWindow(q, this.#now());
    this.#needMarketData();
    await this.#historySpacing.turn();
    const w = await base.readCall(this.#transport, `/instruments/historical/${token}/${q.interval}`, KiteCandles, {
      query: { from: kiteQueryTime(from), to: kiteQueryTime(to) },
    });
    return w.data.candles.map(toCandle);
  }

  public async getQuotes(
    instrumentTokens: readonly number[],
    options: ReadOptions = {},
  ): Promise<readonly MarketQuote[]> {
    const tokens = base.quoteTokens(instrumentTokens);
    this.#needMarketData();
    if (tokens.some((t) => !this.#index.has(t))) await this.listInstruments().catch(() => undefined);
    await this.#quoteSpacing.turn();
    const w = await base.readCall(this.#transport, '/quote', KiteQuotes, {
      query: { i: tokens.map(String) },
      priority: urgency(options),
    });
    const now = this.#now();
    const out: MarketQuote[] = [];
    for (const t of tokens) {
      const q = w.data[String(t)];
      const where = this.#index.get(t);
      if (!q || !where) continue;
      out.push(toMarketQuote(where, q, kiteSession(where.exchange, now).phase, toIstIso(now)));
    }
    return out;
  }

  /** Kite publishes no market status: the exchanges' regular hours (kite-calendar.ts). */
  public marketStatus(): Promise<MarketStatus> {
    return Promise.resolve(regularHoursStatus(this.#now()));
  }

  public optionChain(q: OptionChainQuery): Promise<OptionChain> {
    return Promise.reject(
      brokerError(
        'not_found',
        `Kite publishes no option chain for ${q.underlying}; open the options from the instrument search`,
      ),
    );
  }

  public openStream(listener: StreamListener): BrokerStream {
    return new KiteTicker(
      base.streamUrl(this.#baseUrl, '/ws'),
      this.#apiKey,
      this.#auth,
      {
        ...listener,
        onOrder: (o) => listener.onOrder(o),
      },
      (w) => this.#toOrder(w),
    );
  }

  public close(): Promise<void> {
    return this.#transport.close();
  }

  #protection(): number {
    return this.#options.marketProtection ?? -1;
  }

  #orderFields(o: OrderRequest): Record<string, string | number> {
    const f: Record<string, string | number> = {
      exchange: o.exchange,
      tradingsymbol: o.tradingsymbol,
      transaction_type: o.transactionType,
      order_type: o.orderType,
      quantity: o.quantity,
      product: o.product,
      validity: o.validity,
    };
    if ((o.orderType === 'LIMIT' || o.orderType === 'SL') && o.price != null) f.price = o.price;
    if ((o.orderType === 'SL' || o.orderType === 'SL-M') && o.triggerPrice != null) f.trigger_price = o.triggerPrice;
    if (o.orderType === 'MARKET' || o.orderType === 'SL-M') f.market_protection = this.#protection();
    return f;
  }

  #toOrder(w: KiteOrder): Order | null {
    this.#varieties.set(w.order_id, w.variety);
    return toOrder(w, (tag) => this.#tags.get(tag) ?? null);
  }

  async #history(orderId: string, urgent: boolean): Promise<readonly KiteOrder[]> {
    const id = base.checkedOrderId(orderId);
    const w = await base.readCall(this.#transport, `/orders/${id}`, KiteOrderList, {
      priority: urgent ? 'urgent' : 'normal',
    });
    for (const o of w.data) this.#varieties.set(o.order_id, o.variety);
    return w.data;
  }

  async #varietyOf(orderId: string): Promise<string> {
    const known = this.#varieties.get(orderId);
    if (known !== undefined) return known;
    const history = await this.#history(orderId, true);
    const last = history[history.length - 1];
    if (!last) throw brokerError('not_found', `Kite has no order ${orderId}`);
    return last.variety;
  }

  async #loadInstruments(exchange?: Exchange): Promise<readonly Instrument[]> {
    const text = await base.readCall(
      this.#transport,
      exchange === undefined ? '/instruments' : `/instruments/${exchange}`,
      z.string(),
      { text: true },
    );
    const { instruments } = await parseInstrumentsCsv(text);
    const index =
      exchange === undefined ? new Map<number, { exchange: Exchange; tradingsymbol: string }>() : this.#index;
    for (const i of instruments) index.set(i.instrumentToken, { exchange: i.exchange, tradingsymbol: i.tradingsymbol });
    this.#index = index;
    return instruments;
  }
}

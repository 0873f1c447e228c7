import { z } from 'zod';
import type { Exchange, Instrument } from '@shared/domain/instrument';
import type { Candle, MarketQuote, MarketStatus, OptionChain } from '@shared/domain/market';
import type { Order, OrderAck, OrderChanges, OrderEvent, OrderRequest, Trade } from '@shared/domain/order';
import type { Gtt, GttAck, GttChanges } from '@shared/domain/gtt';
import type { BasketMargin, Funds, Holding, OrderMargin, Position } from '@shared/domain/portfolio';
import { AppError } from '@shared/ipc/app-error';
import {
  WireCandleList,
  WireFunds,
  WireGttAck,
  WireGttList,
  WireHoldingList,
  WireInstrumentList,
  WireMarketStatus,
  WireOptionChain,
  WireOrderAck,
  WireOrderHistory,
  WireOrderList,
  WireOrderMargin,
  WireBasketMargin,
  WireOrderOne,
  WirePositionList,
  WireQuoteList,
  WireSession,
  WireTradeList,
} from '../../wire/rest-schemas';
import type { AuthSource } from '../auth-source';
import { brokerError } from '../broker-error';
import type { PublishedPolicies } from '../http/rate-limit-policy';
import type {
  Broker,
  BrokerLimits,
  BrokerStream,
  CancelOptions,
  CandleQuery,
  Credentials,
  OptionChainQuery,
  OrderChangesPage,
  OrderFilter,
  PlaceGttCommand,
  PlaceOptions,
  PlaceOrderCommand,
  PlacementTraits,
  ReadOptions,
  SessionGrant,
  StreamListener,
} from '../broker';
import { cancelSpec, urgency } from '../read-options';
import * as base from '../adapter-base';
import { settledCancel } from '../settled-cancel';
import { StreamClient } from '../stream/stream-client';
import { toWireOrderChanges, toWireOrderRequest } from './domain-to-wire';
import { appGttField, toGtt, toGttAck, toWireGttChanges, toWireGttRequest } from './gtt-wire';
import type { RestTransport } from './rest-transport';
import {
  toCandle,
  toFunds,
  toHolding,
  toInstrument,
  toMarketQuote,
  toMarketStatus,
  toOptionChain,
  toOrder,
  toOrderAck,
  toOrderEvent,
  toOrderMargin,
  toPosition,
  toTrade,
} from './wire-to-domain';

/** Order ids go into paths: the safe alphabet, whatever the caller validated (docs/api.md §Orders). */
function orderPath(orderId: string, suffix = ''): string {
  return `/orders/${base.checkedOrderId(orderId)}${suffix}`;
}

/** GTT ids go into paths too (docs/api.md §GTT): the same safe alphabet. */
function gttPath(gttId: string): string {
  return `/gtt/${base.checkedId(gttId, 'A GTT id', 'gttId')}`;
}

/** A refusal's fields in the app's spelling of GTT legs (`orders.0.price` → `legs.0.price`). */
async function gttFields<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    if (!(e instanceof AppError) || (e.info.field === undefined && e.info.fields === undefined)) throw e;
    const { field, fields, ...rest } = e.info;
    throw brokerError(rest.kind, rest.message.replace(/\borders\./g, 'legs.'), {
      ...(rest.retryAfterMs !== undefined ? { retryAfterMs: rest.retryAfterMs } : {}),
      ...(field !== undefined ? { field: appGttField(field) } : {}),
      ...(fields !== undefined ? { fields: fields.map((f) => ({ ...f, field: appGttField(f.field) })) } : {}),
    });
  }
}

/**
 * The limits this dialect documents (docs/api.md §Limits): 10 requests/s, burst 20; POST
 * /orders also 10/s, burst 10; assumed until a reply's `RateLimit-Policy` says otherwise.
 */
export const DOCUMENTED_LIMITS: BrokerLimits = {
  requests: { perSecond: 10, burst: 20 },
  placements: { perSecond: 10, burst: 10 },
  source: 'documented',
};

const sameLimit = (a: BrokerLimits['placements'], b: BrokerLimits['placements']): boolean =>
  a === b || (a !== null && b !== null && a.perSecond === b.perSecond && a.burst === b.burst);

/**
 * The limits a reply published, merged into what was known: the "default" policy (else the
 * first that is not "orders") limits every request; "orders" appears only on POST /orders.
 */
function publishedLimits(known: BrokerLimits, policies: PublishedPolicies): BrokerLimits {
  const requests = policies.get('default') ?? [...policies].find(([name]) => name !== 'orders')?.[1];
  const placements = policies.get('orders') ?? known.placements;
  if (!requests) return placements === known.placements ? known : { ...known, placements };
  return { requests, placements, source: 'broker' };
}

/**
 * The REST adapter for the dialect of docs/api.md — the only code that knows its paths and
 * snake_case spellings.
 *
 * Each method names its path, its reply schema and its retry class, then maps the parsed wire
 * value to the domain. How often a request is sent is the transport's business.
 */
export class RestBroker implements Broker {
  public readonly label: string;
  readonly #transport: RestTransport;
  readonly #baseUrl: string;
  readonly #auth: AuthSource;
  readonly #limitListeners = new Set<(limits: BrokerLimits) => void>();
  #limits: BrokerLimits = DOCUMENTED_LIMITS;
  /** What the session reply said: until a login says so, no help is assumed. */
  #uniqueReferences = false;

  public constructor(baseUrl: string, label: string, transport: RestTransport, auth: AuthSource) {
    this.#baseUrl = baseUrl;
    this.label = label;
    this.#transport = transport;
    this.#auth = auth;
    transport.onPublishedLimits((policies) => {
      const next = publishedLimits(this.#limits, policies);
      const was = this.#limits;
      if (
        next.source === was.source &&
        sameLimit(next.requests, was.requests) &&
        sameLimit(next.placements, was.placements)
      )
        return;
      this.#limits = next;
      for (const l of this.#limitListeners) l(next);
    });
  }

  public limits(): BrokerLimits {
    return this.#limits;
  }

  /** References are unique when the session reply said so; the order list shows every order. */
  public placementTraits(): PlacementTraits {
    return { uniqueReferences: this.#uniqueReferences, ordersVisibleFrom: () => null };
  }

  public onLimits(listener: (limits: BrokerLimits) => void): () => void {
    this.#limitListeners.add(listener);
    return () => this.#limitListeners.delete(listener);
  }

  public async login(c: Credentials): Promise<SessionGrant> {
    const body = { api_key: c.apiKey, api_secret: c.apiSecret, ...(c.scope ? { scope: c.scope } : {}) };
    // Retried like an idempotent write: a second session from a lost reply is harmless (the
    // first token simply expires), while failing the login on one dropped packet is not.
    const w = await this.#transport.call({
      method: 'POST',
      path: '/session',
      body,
      schema: WireSession,
      retry: 'idempotent-write',
      auth: false,
    });
    this.#transport.resetCache();
    this.#uniqueReferences = w.client_order_id_unique === true;
    return { accessToken: w.access_token, expiresAt: w.expires_at, userId: w.user_id, scope: w.scope };
  }

  public async logout(): Promise<void> {
    await base.endSession(this.#transport, () =>
      this.#transport.call({ method: 'DELETE', path: '/session', schema: null, retry: 'once' }),
    );
  }

  public async placeOrder(cmd: PlaceOrderCommand, options: PlaceOptions = {}): Promise<OrderAck> {
    const w = await this.#transport.call({
      method: 'POST',
      path: '/orders',
      body: toWireOrderRequest(cmd),
      schema: WireOrderAck,
      ...base.placeSpec(options),
    });
    return toOrderAck(w);
  }

  public async findOrders(clientOrderId: string): Promise<readonly Order[]> {
    const w = await this.#transport.call({
      method: 'GET',
      path: '/orders',
      query: { client_order_id: clientOrderId },
      schema: WireOrderList,
      retry: 'caller',
      priority: 'urgent',
      adaptiveTimeout: true,
    });
    return w.orders.filter((o) => o.client_order_id === clientOrderId).map(toOrder);
  }

  public async modifyOrder(
    orderId: string,
    changes: OrderChanges,
    precondition: { readonly ifVersion?: number } = {},
  ): Promise<OrderAck> {
    const body = toWireOrderChanges(changes);
    const w = await this.#transport.call({
      method: 'PATCH',
      path: orderPath(orderId),
      body,
      schema: WireOrderAck,
      // Never blindly repeated: a late retry could undo a newer change. The order service
      // compares the order before it sends again (docs/money-path.md, "Modifications").
      retry: 'caller',
      priority: 'urgent',
      ...(precondition.ifVersion !== undefined ? { headers: { 'if-match': `"${precondition.ifVersion}"` } } : {}),
    });
    return toOrderAck(w);
  }

  public async cancelOrder(orderId: string, options: CancelOptions = {}): Promise<OrderAck> {
    const path = orderPath(orderId);
    try {
      const w = await this.#transport.call({
        method: 'DELETE',
        path,
        schema: WireOrderAck,
        ...cancelSpec(options),
      });
      return toOrderAck(w);
    } catch (err) {
      // 409 order_not_modifiable: it filled or was rejected first; its end is the answer.
      return settledCancel(err, orderId, (o) => this.getOrder(o, { urgent: true }));
    }
  }

  public async listOrders(filter: OrderFilter = {}, options: ReadOptions = {}): Promise<readonly Order[]> {
    const query = { status: filter.status, client_order_id: filter.clientOrderId };
    // A lookup by client_order_id resolves a placement the trader is waiting on: urgent.
    const priority = filter.clientOrderId !== undefined || options.urgent === true ? 'urgent' : 'normal';
    const w = await base.readCall(this.#transport, '/orders', WireOrderList, { query, conditional: true, priority });
    return w.orders.map(toOrder);
  }

  public async listOrdersSince(cursor: string | null): Promise<OrderChangesPage> {
    const w = await this.#transport.call({
      method: 'GET',
      path: '/orders',
      query: { since: cursor ?? undefined },
      schema: WireOrderList,
      retry: 'read',
      // An idle book answers the same cursor with the same ETag: a 304 with no body.
      conditional: true,
      priority: 'normal',
    });
    return { orders: w.orders.map(toOrder), cursor: w.cursor ?? null, full: cursor === null || w.full === true };
  }

  public async getOrder(orderId: string, options: { readonly urgent?: boolean } = {}): Promise<Order> {
    const w = await base.readCall(this.#transport, orderPath(orderId), WireOrderOne, {
      priority: options.urgent ? 'urgent' : 'normal',
    });
    return toOrder(w.order);
  }

  public async orderHistory(orderId: string): Promise<readonly OrderEvent[]> {
    const w = await base.readCall(this.#transport, orderPath(orderId, '/history'), WireOrderHistory);
    return w.history.map(toOrderEvent);
  }

  public async listTrades(): Promise<readonly Trade[]> {
    const w = await base.readCall(this.#transport, '/trades', WireTradeList, { conditional: true });
    return w.trades.map(toTrade);
  }

  public async placeGtt(cmd: PlaceGttCommand): Promise<GttAck> {
    const w = await gttFields(
      this.#transport.call({
        method: 'POST',
        path: '/gtt',
        body: toWireGttRequest(cmd),
        schema: WireGttAck,
        retry: 'once',
        priority: 'urgent',
        placement: true,
      }),
    );
    return toGttAck(w);
  }

  public async findGtts(cmd: PlaceGttCommand): Promise<readonly Gtt[]> {
    const w = await this.#transport.call({
      method: 'GET',
      path: '/gtt',
      query: { client_gtt_id: cmd.clientGttId },
      schema: WireGttList,
      retry: 'caller',
      priority: 'urgent',
      adaptiveTimeout: true,
    });
    return w.gtts.filter((g) => g.client_gtt_id === cmd.clientGttId).map(toGtt);
  }

  public async listGtts(): Promise<readonly Gtt[]> {
    const w = await base.readCall(this.#transport, '/gtt', WireGttList, { conditional: true });
    return w.gtts.map(toGtt);
  }

  public async modifyGtt(gtt: Gtt, changes: GttChanges): Promise<GttAck> {
    const w = await gttFields(
      this.#transport.call({
        method: 'PATCH',
        path: gttPath(gtt.gttId),
        body: toWireGttChanges(changes),
        schema: WireGttAck,
        // Never blindly repeated: a late retry could undo a newer change.
        retry: 'caller',
        priority: 'urgent',
      }),
    );
    return toGttAck(w);
  }

  public async deleteGtt(gttId: string): Promise<GttAck> {
    const w = await this.#transport.call({
      method: 'DELETE',
      path: gttPath(gttId),
      schema: WireGttAck,
      retry: 'idempotent-write',
      priority: 'urgent',
    });
    return toGttAck(w);
  }

  public async listPositions(options: ReadOptions = {}): Promise<readonly Position[]> {
    const w = await base.readCall(this.#transport, '/positions', WirePositionList, {
      conditional: true,
      priority: urgency(options),
    });
    return w.positions.map(toPosition);
  }

  public async listHoldings(options: ReadOptions = {}): Promise<readonly Holding[]> {
    const w = await base.readCall(this.#transport, '/holdings', WireHoldingList, {
      conditional: true,
      priority: urgency(options),
    });
    return w.holdings.map(toHolding);
  }

  public async getFunds(): Promise<Funds> {
    const w = await base.readCall(this.#transport, '/funds', WireFunds);
    return toFunds(w);
  }

  public async orderMargin(order: OrderRequest): Promise<OrderMargin> {
    // A calculation that creates nothing: safe to repeat like a read.
    const w = await this.#transport.call({
      method: 'POST',
      path: '/margins/orders',
      body: toWireOrderRequest(order),
      schema: WireOrderMargin,
      retry: 'read',
    });
    return toOrderMargin(w);
  }

  public async basketMargin(orders: readonly OrderRequest[]): Promise<BasketMargin> {
    // A calculation that creates nothing: safe to repeat like a read.
    const w = await this.#transport.call({
      method: 'POST',
      path: '/margins/basket',
      body: { orders: orders.map(toWireOrderRequest) },
      schema: WireBasketMargin,
      retry: 'read',
    });
    return { initial: w.margin.initial, final: w.margin.final, legs: w.margin.orders.map((o) => ({ total: o.total })) };
  }

  public async listInstruments(exchange?: Exchange): Promise<readonly Instrument[]> {
    const w = await base.readCall(this.#transport, '/instruments', WireInstrumentList, {
      query: { exchange },
      conditional: true,
    });
    return w.instruments.map(toInstrument);
  }

  public async getCandles(instrumentToken: number, q: CandleQuery): Promise<readonly Candle[]> {
    const path = `/instruments/${z.number().int().positive().parse(instrumentToken)}/candles`;
    const query = { interval: q.interval, from: q.from, to: q.to };
    const w = await base.readCall(this.#transport, path, WireCandleList, { query });
    return w.candles.map(toCandle);
  }

  public async getQuotes(
    instrumentTokens: readonly number[],
    options: ReadOptions = {},
  ): Promise<readonly MarketQuote[]> {
    const tokens = base.quoteTokens(instrumentTokens);
    const w = await base.readCall(this.#transport, '/quotes', WireQuoteList, {
      query: { i: tokens.map(String) },
      priority: urgency(options),
    });
    return w.quotes.map(toMarketQuote);
  }

  public async marketStatus(): Promise<MarketStatus> {
    const w = await base.readCall(this.#transport, '/market/status', WireMarketStatus);
    return toMarketStatus(w);
  }

  public async optionChain(q: OptionChainQuery): Promise<OptionChain> {
    const query = { underlying: q.underlying, expiry: q.expiry, strikes: q.strikes?.toString() };
    const w = await base.readCall(this.#transport, '/option-chain', WireOptionChain, { query, conditional: true });
    return toOptionChain(w);
  }

  public openStream(listener: StreamListener): BrokerStream {
    return new StreamClient(base.streamUrl(this.#baseUrl, '/stream'), this.#auth, listener);
  }

  public close(): Promise<void> {
    return this.#transport.close();
  }
}

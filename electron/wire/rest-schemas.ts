import { z } from 'zod';
import { Exchange, Instrument } from '@shared/domain/instrument';
import { ClientGttId, GttStatus, GttType } from '@shared/domain/gtt';
import {
  CandleInterval,
  ExchangeSession,
  MarketDepth,
  MarketQuote,
  MarketStatus,
  OptionChain,
  OptionChainRow,
  OptionLeg,
  StreamMode,
} from '@shared/domain/market';
import {
  ClientOrderId,
  OrderStatus,
  OrderType,
  Product,
  Timestamp,
  TransactionType,
  Validity,
  Order,
  OrderEvent,
  Trade,
  Variety,
} from '@shared/domain/order';
import { Funds, Holding, OrderMargin, Position } from '@shared/domain/portfolio';
import { snakeCased } from './snake-case';

/**
 * The wire contract of docs/api.md — the default REST dialect — as zod schemas. Objects the wire
 * carries exactly as the app models them are derived from the domain schemas (`snakeCased`);
 * the rest are the wire's own.
 *
 * The paper broker validates requests and builds replies with these; the REST adapter in the
 * main process parses every reply with them and maps the snake_case spellings to the app's
 * domain types. Nothing above the broker adapter sees these spellings. Reply objects are
 * non-strict (unknown fields are ignored, for forward compatibility) but every field listed
 * is required: a renamed field makes the reply fail to parse, which the client reports as
 * `unexpected_shape` rather than a success.
 */

// ---------------------------------------------------------------- session

export const WireSessionRequest = z.strictObject({
  api_key: z.string().min(1).max(256),
  api_secret: z.string().min(1).max(256),
  scope: z.enum(['trade', 'read']).optional(),
});
export type WireSessionRequest = z.infer<typeof WireSessionRequest>;

export const WireSession = z.object({
  access_token: z.string().min(1),
  token_type: z.literal('Bearer'),
  expires_at: Timestamp,
  user_id: z.string(),
  scope: z.enum(['trade', 'read']),
  /**
   * True when the broker refuses a reused `client_order_id` (409 naming the order). Optional: a
   * broker that does not say is assumed not to (docs/api.md §POST /session).
   */
  client_order_id_unique: z.boolean().optional(),
});
export type WireSession = z.infer<typeof WireSession>;

// ---------------------------------------------------------------- orders

/** POST /orders body. Unknown fields are rejected (400 naming the field) — see docs/api.md. */
export const WireOrderRequest = z.strictObject({
  exchange: Exchange,
  tradingsymbol: z.string().min(1).max(64),
  transaction_type: TransactionType,
  quantity: z.number().int().positive(),
  order_type: OrderType,
  product: Product,
  validity: Validity,
  price: z.number().nonnegative().nullable().optional(),
  trigger_price: z.number().nonnegative().nullable().optional(),
  client_order_id: ClientOrderId.optional(),
  /** `regular` (the default) or `amo` (docs/api.md §After-market orders). */
  variety: Variety.optional(),
});
export type WireOrderRequest = z.infer<typeof WireOrderRequest>;

/** PATCH /orders/{id} body: at least one field. */
export const WireOrderChanges = z
  .strictObject({
    quantity: z.number().int().positive(),
    price: z.number().nonnegative().nullable(),
    trigger_price: z.number().nonnegative().nullable(),
    order_type: OrderType,
    validity: Validity,
  })
  .partial();
export type WireOrderChanges = z.infer<typeof WireOrderChanges>;

/**
 * One order as docs/api.md spells it. `variety` is optional for the client (brokers without
 * after-market orders omit it), and so is `version`, which grows by one with each accepted
 * modification and may be sent back in a PATCH's `If-Match`.
 */
export const WireOrder = snakeCased(Order);
export type WireOrder = z.infer<typeof WireOrder>;

export const WireOrderAck = z.object({
  order_id: z.string().min(1),
  client_order_id: z.string().nullable().optional(),
  status: OrderStatus,
  /** After a PATCH: the order's version now (paper broker; optional elsewhere). */
  version: z.number().int().positive().optional(),
});
export type WireOrderAck = z.infer<typeof WireOrderAck>;

/**
 * `GET /orders`: `cursor` names the broker's latest order change and `full` says whether a read
 * `?since=` a cursor is the whole book (docs/api.md §Incremental reads); both optional, since a
 * broker without change cursors lacks them.
 */
export const WireOrderList = z.object({
  orders: z.array(WireOrder),
  cursor: z.string().min(1).max(64).optional(),
  full: z.boolean().optional(),
});
export const WireOrderOne = z.object({ order: WireOrder });

// ---------------------------------------------------------------- GTT (docs/api.md §GTT)

/** One order a GTT places: always LIMIT (and DAY, regular). */
export const WireGttLegRequest = z.strictObject({
  transaction_type: TransactionType,
  quantity: z.number().int().positive(),
  product: Product,
  order_type: z.literal('LIMIT'),
  price: z.number().positive(),
});
export type WireGttLegRequest = z.infer<typeof WireGttLegRequest>;

/** POST /gtt body. Unknown fields are rejected (400 naming the field). */
export const WireGttRequest = z.strictObject({
  type: GttType,
  exchange: Exchange,
  tradingsymbol: z.string().min(1).max(64),
  trigger_values: z.array(z.number().positive()).min(1).max(2),
  orders: z.array(WireGttLegRequest).min(1).max(2),
  client_gtt_id: ClientGttId.optional(),
});
export type WireGttRequest = z.infer<typeof WireGttRequest>;

/** PATCH /gtt/{gtt_id} body: the new trigger values and orders (both; the type and instrument stay). */
export const WireGttChanges = z.strictObject({
  trigger_values: WireGttRequest.shape.trigger_values,
  orders: WireGttRequest.shape.orders,
});
export type WireGttChanges = z.infer<typeof WireGttChanges>;

export const WireGttLeg = z.object({
  transaction_type: TransactionType,
  quantity: z.number().int().positive(),
  product: Product,
  order_type: z.literal('LIMIT'),
  price: z.number().nonnegative(),
  /** The order this leg placed once triggered; null before (and for an OCO leg that did not fire). */
  order_id: z.string().nullable(),
  order_status: OrderStatus.nullable(),
});

export const WireGtt = z.object({
  gtt_id: z.string().min(1),
  client_gtt_id: z.string().nullable(),
  type: GttType,
  status: GttStatus,
  exchange: Exchange,
  tradingsymbol: z.string(),
  instrument_token: z.number().int(),
  trigger_values: z.array(z.number().nonnegative()),
  last_price: z.number().nonnegative(),
  orders: z.array(WireGttLeg),
  created_at: Timestamp,
  updated_at: Timestamp,
  expires_at: Timestamp,
  status_message: z.string().nullable(),
});
export type WireGtt = z.infer<typeof WireGtt>;

export const WireGttList = z.object({ gtts: z.array(WireGtt) });
export const WireGttOne = z.object({ gtt: WireGtt });
export const WireGttAck = z.object({
  gtt_id: z.string().min(1),
  client_gtt_id: z.string().nullable().optional(),
  status: GttStatus,
});
export type WireGttAck = z.infer<typeof WireGttAck>;

export const WireOrderEvent = snakeCased(OrderEvent);
export const WireOrderHistory = z.object({ history: z.array(WireOrderEvent) });

export const WireTrade = snakeCased(Trade);
export const WireTradeList = z.object({ trades: z.array(WireTrade) });

// ---------------------------------------------------------------- portfolio

/**
 * One net position (docs/api.md §Margins, positions, holdings, funds). The `*_value` amounts are
 * exact (Σ price × quantity × multiplier), so P&L is recomputed from them, never from the
 * rounded `average_price`: pnl = sell_value − buy_value + quantity × LTP × multiplier; the day's
 * m2m = day_sell_value − day_buy_value + quantity × LTP × multiplier − overnight_quantity ×
 * close_price × multiplier.
 */
export const WirePosition = snakeCased(Position);
export type WirePosition = z.infer<typeof WirePosition>;
export const WirePositionList = z.object({ positions: z.array(WirePosition) });

export const WireHolding = snakeCased(Holding);
export const WireHoldingList = z.object({ holdings: z.array(WireHolding) });

export const WireFunds = z.object({ funds: snakeCased(Funds) });

/** POST /margins/orders reply: the margin one prospective order would block. */
export const WireOrderMargin = z.object({ margin: snakeCased(OrderMargin) });

/** POST /margins/basket body: the legs of a basket, 1–50 of them, each an order body (docs/api.md §POST /margins/basket). */
export const WireBasketMarginRequest = z.strictObject({
  orders: z.array(WireOrderRequest).min(1).max(50),
});
export type WireBasketMarginRequest = z.infer<typeof WireBasketMarginRequest>;

/** One leg of a basket margin reply: the margin that leg alone would block. */
export const WireBasketLegMargin = snakeCased(OrderMargin).extend({ exchange: Exchange, tradingsymbol: z.string() });

/**
 * POST /margins/basket reply: `initial` is the legs' sum, `final` what the basket blocks once
 * hedged (docs/market.md §Basket margin and hedging); `orders` in the order of the request.
 */
export const WireBasketMargin = z.object({
  margin: z.object({
    initial: z.number().nonnegative(),
    final: z.number().nonnegative(),
    orders: z.array(WireBasketLegMargin),
  }),
});

// ---------------------------------------------------------------- market data

export const WireInstrument = snakeCased(Instrument);
export type WireInstrument = z.infer<typeof WireInstrument>;
export const WireInstrumentList = z.object({ instruments: z.array(WireInstrument) });

/** `[ts, open, high, low, close, volume]`. */
export const WireCandle = z.tuple([
  Timestamp,
  z.number(),
  z.number(),
  z.number(),
  z.number(),
  z.number().nonnegative(),
]);
export const WireCandleList = z.object({ candles: z.array(WireCandle) });
export const WireCandleQuery = z.object({
  interval: CandleInterval,
  from: Timestamp.optional(),
  to: Timestamp.optional(),
});

/**
 * The book as the app models it (docs/api.md §GET /quotes): up to 5 levels `{price, quantity,
 * orders}` a side, best first; never zero-padded.
 */
export const WireDepth = MarketDepth;

/** GET /quotes: one instrument's market now (docs/api.md §GET /quotes). */
export const WireQuote = snakeCased(MarketQuote, {
  lastTradeAt: 'last_trade_time',
  change: 'net_change',
  totalBuyQuantity: 'buy_quantity',
  totalSellQuantity: 'sell_quantity',
  lowerCircuit: 'lower_circuit_limit',
  upperCircuit: 'upper_circuit_limit',
  phase: 'session',
  ts: 'timestamp',
});
export type WireQuote = z.infer<typeof WireQuote>;
export const WireQuoteList = z.object({ quotes: z.array(WireQuote) });

/** The most instruments one GET /quotes may ask for. */
export const QUOTES_PER_REQUEST = 500;

/** GET /market/status (docs/api.md §GET /market/status). */
export const WireMarketStatus = snakeCased(MarketStatus).extend({ exchanges: z.array(snakeCased(ExchangeSession)) });
export type WireMarketStatus = z.infer<typeof WireMarketStatus>;

/** One side of an option-chain row. */
export const WireOptionLeg = snakeCased(OptionLeg, { change: 'net_change' }).extend({
  /** Open interest now less at the previous day's end; absent from brokers that do not say. */
  oi_change: z.number().int().optional(),
});
export type WireOptionLeg = z.infer<typeof WireOptionLeg>;

/** GET /option-chain (docs/api.md §GET /option-chain). */
export const WireOptionChain = snakeCased(OptionChain, { rows: 'strikes', ts: 'timestamp' }).extend({
  strikes: z.array(OptionChainRow.extend({ call: WireOptionLeg.nullable(), put: WireOptionLeg.nullable() })),
});
export type WireOptionChain = z.infer<typeof WireOptionChain>;

// ---------------------------------------------------------------- stream

/** The most instruments one stream socket may subscribe to (docs/api.md §Stream). */
export const STREAM_SUBSCRIPTION_LIMIT = 3000;

const StreamTokens = z.array(z.number().int().positive()).max(STREAM_SUBSCRIPTION_LIMIT);

export const WireStreamClientMessage = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('subscribe'), tokens: StreamTokens }),
  z.strictObject({ action: z.literal('unsubscribe'), tokens: StreamTokens }),
  /** Sets how much the ticks of already subscribed tokens carry (docs/api.md §Stream, modes). */
  z.strictObject({
    action: z.literal('mode'),
    mode: StreamMode,
    tokens: StreamTokens,
  }),
]);
export type WireStreamClientMessage = z.infer<typeof WireStreamClientMessage>;

/**
 * A tick. `ltp` mode: the first five fields. `quote` mode (the default) adds `bid`, `ask` and
 * `net_change`; `full` mode also `depth`, `buy_quantity`, `sell_quantity` and `oi`. The additions
 * are optional here, so a broker that sends only the last price is still understood.
 */
export const WireTick = z.object({
  type: z.literal('tick'),
  instrument_token: z.number().int(),
  last_price: z.number().nonnegative(),
  volume: z.number().nonnegative(),
  ts: Timestamp,
  mode: StreamMode.optional(),
  bid: z.number().nonnegative().nullable().optional(),
  ask: z.number().nonnegative().nullable().optional(),
  net_change: z.number().optional(),
  depth: WireDepth.optional(),
  buy_quantity: z.number().int().nonnegative().optional(),
  sell_quantity: z.number().int().nonnegative().optional(),
  oi: z.number().int().nonnegative().nullable().optional(),
});
export const WireStreamServerMessage = z.discriminatedUnion('type', [
  WireTick,
  z.object({ type: z.literal('order'), order: WireOrder }),
  z.object({ type: z.literal('heartbeat'), ts: Timestamp }),
  /**
   * The broker refused a client message: `subscription_limit` (over STREAM_SUBSCRIPTION_LIMIT;
   * nothing of it was applied) or `invalid_message`. The socket stays open.
   */
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
]);
export type WireStreamServerMessage = z.infer<typeof WireStreamServerMessage>;

// ---------------------------------------------------------------- errors

/** Error codes of docs/api.md, "Errors". */
export const WireErrorCode = z.enum([
  'invalid_field',
  'invalid_combination',
  'invalid_json',
  'unsupported_media_type',
  'token_invalid',
  'token_expired',
  'forbidden',
  'not_found',
  'duplicate_client_order_id',
  'order_not_modifiable',
  'rate_limited',
  'server_error',
  // Additions by the paper broker (docs/api.md): wrong api_key/api_secret on POST /session,
  // an oversized body, a method a path does not have, and a modification the margin cannot carry.
  'invalid_credentials',
  'payload_too_large',
  'method_not_allowed',
  'insufficient_margin',
  // A PATCH whose If-Match names a version the order has moved past (docs/api.md §PATCH).
  'precondition_failed',
  // Requests the HTTP parser refuses before any route sees them (docs/api.md §Hostile input).
  'headers_too_large',
  'request_timeout',
  'malformed_request',
  // A regular order while its exchange is closed, an AMO while it is in session (docs/api.md
  // §Sessions and the calendar); either names `variety`.
  'market_closed',
  'market_open',
  // GTT (docs/api.md §GTT): a reused client_gtt_id, a change to a GTT that is no longer active.
  'duplicate_client_gtt_id',
  'gtt_not_modifiable',
]);
export type WireErrorCode = z.infer<typeof WireErrorCode>;

/** RFC 9457 problem details, `application/problem+json`. */
export const WireProblem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  /** Present on 409 duplicate_client_order_id: the order that already holds the id. */
  order_id: z.string().optional(),
});
export type WireProblem = z.infer<typeof WireProblem>;

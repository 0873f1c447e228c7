import { z } from 'zod';

/**
 * The Kite Connect v3 wire (docs/kite.md §The wire), as loose as the app can afford: structure
 * and types are checked, enum values are not (a product or status the app does not know is the
 * mapper's decision, not a parse failure), and unknown fields pass.
 */

/** `{"status":"success","data":…}` around `data`. */
export function kiteEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal('success'), data });
}

/** Kite's error body: `{"status":"error","message":"…","error_type":"InputException"}`. */
export const KiteErrorBody = z.object({
  status: z.literal('error'),
  message: z.string(),
  error_type: z.string().optional(),
});

/** An IST `yyyy-mm-dd hh:mm:ss` (or ISO) timestamp; null where Kite has none yet. */
const KiteTime = z.string().min(1).nullable().optional();

/** One order as GET /orders, the order history and the ticker's order updates report it. */
export const KiteOrder = z.object({
  order_id: z.string().min(1),
  status: z.string(),
  status_message: z.string().nullable().optional(),
  order_timestamp: KiteTime,
  exchange_update_timestamp: KiteTime,
  exchange_timestamp: KiteTime,
  variety: z.string(),
  exchange: z.string(),
  tradingsymbol: z.string(),
  instrument_token: z.number().int(),
  order_type: z.string(),
  transaction_type: z.string(),
  validity: z.string(),
  product: z.string(),
  quantity: z.number(),
  price: z.number().nullable(),
  trigger_price: z.number().nullable(),
  average_price: z.number().nullable(),
  filled_quantity: z.number(),
  pending_quantity: z.number(),
  cancelled_quantity: z.number(),
  tag: z.string().nullable().optional(),
  tags: z.array(z.string()).nullable().optional(),
  /** As the order was sent: -1 automatic, a percentage, 0 for none (docs/kite.md §Market protection). */
  market_protection: z.number().nullable().optional(),
});
/** One Kite order, parsed. */
export type KiteOrder = z.infer<typeof KiteOrder>;

/** GET /orders and GET /orders/:order_id (its history): a list of orders. */
export const KiteOrderList = kiteEnvelope(z.array(KiteOrder));
/** What placing, modifying and cancelling answer: the order id. */
export const KiteOrderId = kiteEnvelope(z.object({ order_id: z.union([z.string().min(1), z.number()]) }));

/** One fill as GET /trades reports it. */
export const KiteTrade = z.object({
  trade_id: z.union([z.string(), z.number()]),
  order_id: z.string(),
  exchange: z.string(),
  tradingsymbol: z.string(),
  instrument_token: z.number().int(),
  product: z.string(),
  average_price: z.number(),
  quantity: z.number(),
  transaction_type: z.string(),
  fill_timestamp: KiteTime,
  exchange_timestamp: KiteTime,
});
/** GET /trades, GET /orders/:order_id/trades. */
export const KiteTradeList = kiteEnvelope(z.array(KiteTrade));

/** One position row. */
export const KitePosition = z.object({
  tradingsymbol: z.string(),
  exchange: z.string(),
  instrument_token: z.number().int(),
  product: z.string(),
  quantity: z.number(),
  overnight_quantity: z.number(),
  multiplier: z.number(),
  average_price: z.number(),
  close_price: z.number(),
  last_price: z.number(),
  pnl: z.number(),
  m2m: z.number(),
  unrealised: z.number(),
  realised: z.number(),
  buy_quantity: z.number(),
  buy_value: z.number(),
  sell_quantity: z.number(),
  sell_value: z.number(),
  day_buy_quantity: z.number(),
  day_buy_value: z.number(),
  day_sell_quantity: z.number(),
  day_sell_value: z.number(),
});
/** GET /portfolio/positions: net and day. */
export const KitePositions = kiteEnvelope(z.object({ net: z.array(KitePosition), day: z.array(KitePosition) }));

/** One holding row. */
export const KiteHolding = z.object({
  tradingsymbol: z.string(),
  exchange: z.string(),
  instrument_token: z.number().int(),
  quantity: z.number(),
  t1_quantity: z.number().optional(),
  average_price: z.number(),
  last_price: z.number(),
  pnl: z.number(),
});
/** GET /portfolio/holdings. */
export const KiteHoldings = kiteEnvelope(z.array(KiteHolding));

const KiteSegment = z.object({
  enabled: z.boolean().optional(),
  net: z.number(),
  available: z.object({ cash: z.number(), opening_balance: z.number(), live_balance: z.number() }),
  utilised: z.object({ debits: z.number(), m2m_realised: z.number(), m2m_unrealised: z.number() }),
});
/** GET /user/margins: the equity segment (and commodity). */
export const KiteMargins = kiteEnvelope(z.object({ equity: KiteSegment, commodity: KiteSegment.optional() }));

/** POST /margins/orders: one entry per order asked about. */
export const KiteOrderMargins = kiteEnvelope(
  z.array(z.object({ total: z.number(), leverage: z.number().optional(), tradingsymbol: z.string().optional() })),
);

/** POST /margins/basket: the basket before and after hedging, and each leg. */
export const KiteBasketMargins = kiteEnvelope(
  z.object({
    initial: z.object({ total: z.number() }),
    final: z.object({ total: z.number() }),
    orders: z.array(z.object({ total: z.number() })),
  }),
);

const KiteDepthLevel = z.object({ price: z.number(), quantity: z.number(), orders: z.number() });
/** One instrument's full quote. */
export const KiteQuote = z.object({
  instrument_token: z.number().int(),
  timestamp: KiteTime,
  last_trade_time: KiteTime,
  last_price: z.number(),
  buy_quantity: z.number(),
  sell_quantity: z.number(),
  volume: z.number(),
  oi: z.number(),
  net_change: z.number(),
  lower_circuit_limit: z.number(),
  upper_circuit_limit: z.number(),
  ohlc: z.object({ open: z.number(), high: z.number(), low: z.number(), close: z.number() }),
  depth: z.object({ buy: z.array(KiteDepthLevel), sell: z.array(KiteDepthLevel) }),
});
/** One Kite quote, parsed. */
export type KiteQuote = z.infer<typeof KiteQuote>;
/** GET /quote: keyed exactly as asked. */
export const KiteQuotes = kiteEnvelope(z.record(z.string(), KiteQuote));

/** `[time, open, high, low, close, volume(, oi)]`. */
export const KiteCandles = kiteEnvelope(
  z.object({
    candles: z.array(
      z.tuple([z.string(), z.number(), z.number(), z.number(), z.number(), z.number()]).rest(z.number()),
    ),
  }),
);

/** The user as POST /session/token and GET /user/profile report it. */
export const KiteUser = z.object({
  user_id: z.string().min(1),
  access_token: z.string().min(1).optional(),
  login_time: KiteTime,
});
/** POST /session/token: the user and the access token. */
export const KiteSession = kiteEnvelope(KiteUser.extend({ access_token: z.string().min(1) }));
/** GET /user/profile. */
export const KiteProfile = kiteEnvelope(KiteUser);

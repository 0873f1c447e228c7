import { z } from 'zod';

/**
 * The Upstox API's wire (docs/upstox.md §The wire), as loose as the app can afford: structure
 * and types are checked, enum values are not (a product or status the app does not know is the
 * mapper's decision, not a parse failure), and unknown fields pass.
 */

/** `{"status":"success","data":…}` around `data`. */
export function upstoxEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal('success'), data });
}

/** One entry of an error reply's `errors[]`, in either spelling Upstox sends. */
export const UpstoxErrorEntry = z.object({
  errorCode: z.string().nullable().optional(),
  error_code: z.string().nullable().optional(),
  message: z.string().nullable().optional(),
  propertyPath: z.string().nullable().optional(),
  property_path: z.string().nullable().optional(),
});
/** `{"status":"error","errors":[…]}`. */
export const UpstoxErrorBody = z.object({ status: z.string().optional(), errors: z.array(UpstoxErrorEntry).min(1) });

const Time = z.string().min(1).nullable().optional();

/** One order as the order book, its details and history, and the portfolio stream report it. */
export const UpstoxOrder = z.object({
  order_id: z.string().min(1),
  status: z.string(),
  status_message: z.string().nullable().optional(),
  exchange: z.string(),
  instrument_token: z.string().min(1),
  trading_symbol: z.string().optional(),
  tradingsymbol: z.string().optional(),
  product: z.string(),
  order_type: z.string(),
  validity: z.string(),
  transaction_type: z.string(),
  quantity: z.number(),
  price: z.number().nullable().optional(),
  trigger_price: z.number().nullable().optional(),
  average_price: z.number().nullable().optional(),
  filled_quantity: z.number(),
  pending_quantity: z.number(),
  tag: z.string().nullable().optional(),
  is_amo: z.boolean().nullable().optional(),
  order_timestamp: Time,
  exchange_timestamp: Time,
});
export type UpstoxOrder = z.infer<typeof UpstoxOrder>;

export const UpstoxOrderList = upstoxEnvelope(z.array(UpstoxOrder));
export const UpstoxOrderDetails = upstoxEnvelope(UpstoxOrder);
/** What placing answers: `order_ids`, an array even for one order. */
export const UpstoxPlaced = z.object({
  status: z.string(),
  data: z.object({ order_ids: z.array(z.string().min(1)) }),
});
/** What modifying and cancelling answer. */
export const UpstoxOrderId = upstoxEnvelope(z.object({ order_id: z.string().min(1) }));

export const UpstoxTrade = z.object({
  trade_id: z.union([z.string(), z.number()]),
  order_id: z.string(),
  exchange: z.string(),
  instrument_token: z.string(),
  trading_symbol: z.string().optional(),
  tradingsymbol: z.string().optional(),
  product: z.string(),
  transaction_type: z.string(),
  quantity: z.number(),
  average_price: z.number(),
  exchange_timestamp: Time,
  order_timestamp: Time,
});
export const UpstoxTradeList = upstoxEnvelope(z.array(UpstoxTrade));

export const UpstoxPosition = z.object({
  exchange: z.string(),
  instrument_token: z.string(),
  trading_symbol: z.string().optional(),
  tradingsymbol: z.string().optional(),
  product: z.string(),
  quantity: z.number(),
  overnight_quantity: z.number(),
  multiplier: z.number().optional(),
  average_price: z.number(),
  close_price: z.number(),
  last_price: z.number(),
  buy_value: z.number(),
  sell_value: z.number(),
  day_buy_quantity: z.number(),
  day_buy_value: z.number(),
  day_sell_quantity: z.number(),
  day_sell_value: z.number(),
  overnight_buy_quantity: z.number().optional(),
  overnight_sell_quantity: z.number().optional(),
  realised: z.number(),
  unrealised: z.number(),
  pnl: z.number(),
});
export const UpstoxPositions = upstoxEnvelope(z.array(UpstoxPosition));

export const UpstoxHolding = z.object({
  exchange: z.string(),
  instrument_token: z.string(),
  trading_symbol: z.string().optional(),
  tradingsymbol: z.string().optional(),
  quantity: z.number(),
  t1_quantity: z.number().optional(),
  average_price: z.number(),
  last_price: z.number(),
  pnl: z.number(),
});
export const UpstoxHoldings = upstoxEnvelope(z.array(UpstoxHolding));

const Segment = z.object({ used_margin: z.number(), available_margin: z.number(), payin_amount: z.number() });
export const UpstoxFunds = upstoxEnvelope(z.object({ equity: Segment, commodity: Segment.optional() }));

/** The token exchange's reply: not enveloped, the profile and the token side by side. */
export const UpstoxToken = z.object({ access_token: z.string().min(1), user_id: z.string() });
export const UpstoxProfile = upstoxEnvelope(z.object({ user_id: z.string() }));

/** One row of the instrument master (`complete.json`). */
export const UpstoxInstrument = z.object({
  segment: z.string(),
  instrument_key: z.string().min(1),
  exchange_token: z.union([z.string(), z.number()]),
  trading_symbol: z.string().min(1),
  name: z.string().nullable().optional(),
  instrument_type: z.string(),
  lot_size: z.number(),
  /** In paise, as Upstox writes it. */
  tick_size: z.number(),
  freeze_quantity: z.number().nullable().optional(),
  /** Epoch ms. */
  expiry: z.number().nullable().optional(),
  strike_price: z.number().nullable().optional(),
});
export type UpstoxInstrument = z.infer<typeof UpstoxInstrument>;
export const UpstoxMaster = z.array(z.unknown());

const Level = z.object({ quantity: z.number(), price: z.number(), orders: z.number() });
export const UpstoxQuote = z.object({
  instrument_token: z.string(),
  last_price: z.number(),
  volume: z.number(),
  net_change: z.number(),
  ohlc: z.object({ open: z.number(), high: z.number(), low: z.number(), close: z.number() }),
  depth: z.object({ buy: z.array(Level), sell: z.array(Level) }),
  total_buy_quantity: z.number(),
  total_sell_quantity: z.number(),
  lower_circuit_limit: z.number(),
  upper_circuit_limit: z.number(),
  oi: z.number().nullable().optional(),
  last_trade_time: z.string().nullable().optional(),
  timestamp: z.string().nullable().optional(),
});
export type UpstoxQuote = z.infer<typeof UpstoxQuote>;
export const UpstoxQuotes = upstoxEnvelope(z.record(z.string(), UpstoxQuote));

/** `[time, open, high, low, close, volume, oi]`, newest first. */
export const UpstoxCandles = upstoxEnvelope(
  z.object({
    candles: z.array(
      z.tuple([z.string(), z.number(), z.number(), z.number(), z.number(), z.number()]).rest(z.number()),
    ),
  }),
);

/** What a feed's `…/authorize` answers: the socket URL, in either spelling. */
export const UpstoxFeedAuthorize = upstoxEnvelope(
  z.object({
    authorized_redirect_uri: z.string().min(1).optional(),
    authorizedRedirectUri: z.string().min(1).optional(),
  }),
);

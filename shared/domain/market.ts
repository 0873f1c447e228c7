import { z } from 'zod';
import { Exchange, IsoDate } from './instrument';
import { Timestamp } from './order';

export const CandleInterval = z.enum(['minute', '5minute', '15minute', '60minute', 'day']);
export type CandleInterval = z.infer<typeof CandleInterval>;

/** One OHLCV bar; `ts` is the bar's opening time, ISO with the exchange offset. */
export const Candle = z.object({
  ts: Timestamp,
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  volume: z.number().nonnegative(),
});
export type Candle = z.infer<typeof Candle>;

/**
 * How much a stream subscription carries (docs/api.md §Stream, modes), as Kite's ticker names
 * them: `ltp` the last price and volume; `quote` (the default) also the best bid and ask and the
 * change from the previous close; `full` also the 5-level depth and the total buy/sell quantity.
 */
export const StreamMode = z.enum(['ltp', 'quote', 'full']);
export type StreamMode = z.infer<typeof StreamMode>;

/**
 * Where an exchange's trading day stands (docs/api.md §Sessions and the calendar): `pre_open`
 * (orders are collected, nothing trades), `open` (normal trading), `closed` (after hours,
 * weekends, holidays: regular orders are refused, after-market orders are accepted).
 */
export const SessionPhase = z.enum(['pre_open', 'open', 'closed']);
export type SessionPhase = z.infer<typeof SessionPhase>;

/**
 * One price level of a book: the price, the quantity resting there and how many orders make it
 * (null where the broker does not say: Upstox's market data feed, docs/upstox.md §The adapter).
 */
export const DepthLevel = z.object({
  price: z.number().nonnegative(),
  quantity: z.number().int().nonnegative(),
  orders: z.number().int().nonnegative().nullable(),
});
export type DepthLevel = z.infer<typeof DepthLevel>;

/**
 * The visible book, best level first on each side: up to 5 bids (`buy`, highest first) and 5
 * asks (`sell`, lowest first). A side may hold fewer levels (a thin contract, or a price at its
 * circuit limit has nobody on the far side); levels are never padded with zeros.
 */
export const MarketDepth = z.object({
  buy: z.array(DepthLevel).max(5),
  sell: z.array(DepthLevel).max(5),
});
export type MarketDepth = z.infer<typeof MarketDepth>;

/**
 * A live price update for one instrument (the stream's tick).
 *
 * Every tick carries the last price and the day's volume. In `quote` and `full` mode it also
 * carries `bid`/`ask` (null when that side of the book is empty) and `change` (last price −
 * previous close); in `full` mode the 5-level `depth` and the total quantities bid and offered.
 * The optional fields are absent from brokers (and modes) that do not send them.
 */
export const Tick = z.object({
  instrumentToken: z.number().int(),
  lastPrice: z.number().nonnegative(),
  volume: z.number().nonnegative(),
  ts: Timestamp,
  bid: z.number().nonnegative().nullable().optional(),
  ask: z.number().nonnegative().nullable().optional(),
  change: z.number().optional(),
  depth: MarketDepth.optional(),
  totalBuyQuantity: z.number().int().nonnegative().optional(),
  totalSellQuantity: z.number().int().nonnegative().optional(),
  /** Open interest (derivatives, `full` mode); null for an equity. */
  oi: z.number().int().nonnegative().nullable().optional(),
});
export type Tick = z.infer<typeof Tick>;

/**
 * Everything known about one instrument's market right now (`quotes.get`; docs/api.md
 * §GET /quotes): the day's bar so far, the previous close and the change from it, the best bid
 * and ask with the 5-level depth, the circuit limits orders must stay inside, open interest for
 * a derivative, and its exchange's session phase.
 */
export const MarketQuote = z.object({
  instrumentToken: z.number().int().positive(),
  exchange: Exchange,
  tradingsymbol: z.string(),
  lastPrice: z.number().nonnegative(),
  /** When the last trade happened; null before the instrument's first trade of the session. */
  lastTradeAt: Timestamp.nullable(),
  /** The day's traded quantity. */
  volume: z.number().nonnegative(),
  /** The day's bar so far (`close` is the last price until the session ends). */
  ohlc: z.object({ open: z.number(), high: z.number(), low: z.number(), close: z.number() }),
  /** The previous session's close: what `change` runs from. */
  previousClose: z.number().nonnegative(),
  /** lastPrice − previousClose, exact on the tick grid. */
  change: z.number(),
  /** change ÷ previousClose × 100. */
  changePercent: z.number(),
  bid: z.number().nonnegative().nullable(),
  ask: z.number().nonnegative().nullable(),
  depth: MarketDepth,
  /** Total quantity bid and offered across the whole book (more levels than `depth` shows). */
  totalBuyQuantity: z.number().int().nonnegative(),
  totalSellQuantity: z.number().int().nonnegative(),
  /** The day's price band: an order priced outside it is refused (docs/api.md §Circuit limits). */
  lowerCircuit: z.number().nonnegative(),
  upperCircuit: z.number().nonnegative(),
  /** Open interest in contracts' quantity, for futures and options; null for an equity. */
  oi: z.number().int().nonnegative().nullable(),
  phase: SessionPhase,
  /** The market clock's time of this quote. */
  ts: Timestamp,
});
export type MarketQuote = z.infer<typeof MarketQuote>;

/** One exchange's session now, and when it next opens and closes (docs/api.md §GET /market/status). */
export const ExchangeSession = z.object({
  exchange: Exchange,
  phase: SessionPhase,
  /** Why it is closed or what is on ("Weekend", "Holiday: Christmas", "After hours", "Pre-open"); null when simply open. */
  detail: z.string().nullable(),
  /** When the next pre-open starts (null for an exchange without one). */
  nextPreOpen: Timestamp.nullable(),
  /** When normal trading next starts (after the current session if open now). */
  nextOpen: Timestamp,
  /** When the current session closes, or the next one if closed now. */
  nextClose: Timestamp,
});
export type ExchangeSession = z.infer<typeof ExchangeSession>;

/**
 * The market's clock and every exchange's session (`market.status`). `simulated` is true when the
 * paper market runs on its own session clock (a new user's default, "Paper market — simulated
 * session") rather than the wall-clock calendar; `speed` is how many market seconds pass per real
 * second (1 by default).
 */
export const MarketStatus = z.object({
  now: Timestamp,
  simulated: z.boolean(),
  speed: z.number().positive(),
  exchanges: z.array(ExchangeSession),
});
export type MarketStatus = z.infer<typeof MarketStatus>;

/** One side (call or put) of an option-chain row: enough to read it and to trade it. */
export const OptionLeg = z.object({
  instrumentToken: z.number().int().positive(),
  tradingsymbol: z.string(),
  lastPrice: z.number().nonnegative(),
  /** lastPrice − previous close. */
  change: z.number(),
  /** Open interest (quantity). */
  oi: z.number().int().nonnegative(),
  /** Open interest now less at the previous day's end; null when the broker does not say. */
  oiChange: z.number().int().nullable(),
  /** Implied volatility, percent a year (14.25 means 14.25%). */
  iv: z.number().nonnegative(),
  /** ∂premium/∂underlying: 0…1 for a call, −1…0 for a put. */
  delta: z.number().min(-1).max(1),
  bid: z.number().nonnegative().nullable(),
  ask: z.number().nonnegative().nullable(),
  volume: z.number().nonnegative(),
});
export type OptionLeg = z.infer<typeof OptionLeg>;

/** One strike: its call and put side by side (either may be missing). */
export const OptionChainRow = z.object({
  strike: z.number().positive(),
  call: OptionLeg.nullable(),
  put: OptionLeg.nullable(),
});
export type OptionChainRow = z.infer<typeof OptionChainRow>;

/**
 * Strikes around the money for one underlying and expiry (`options.chain`; docs/api.md
 * §GET /option-chain), lowest strike first.
 */
export const OptionChain = z.object({
  underlying: z.string(),
  exchange: Exchange,
  expiry: IsoDate,
  /** Every expiry the underlying has options for, nearest first (to switch between them). */
  expiries: z.array(IsoDate),
  /** The underlying's price the options are valued from (index spot, the stock, or the future). */
  underlyingPrice: z.number().nonnegative(),
  /** The strike nearest the underlying's price. */
  atmStrike: z.number().positive(),
  lotSize: z.number().int().positive(),
  rows: z.array(OptionChainRow),
  ts: Timestamp,
});
export type OptionChain = z.infer<typeof OptionChain>;

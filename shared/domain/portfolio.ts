import { z } from 'zod';
import { Exchange } from './instrument';
import { Product } from './order';

/**
 * Net position per instrument and product, with P&L marked at the last price.
 *
 * The buy/sell values are exact rupee amounts (Σ price × quantity × multiplier, including the
 * carried quantity at its cost), so live P&L is recomputed from them at each tick — never from
 * `averagePrice`, which is rounded: pnl = sellValue − buyValue + quantity × LTP × multiplier.
 * The day's P&L (`m2m`) counts the `overnightQuantity` from the previous `closePrice` instead of
 * from its cost (docs/api.md §Margins, positions, holdings, funds).
 */
export const Position = z.object({
  exchange: Exchange,
  tradingsymbol: z.string(),
  instrumentToken: z.number().int(),
  product: Product,
  /** Net quantity now: positive long, negative short. */
  quantity: z.number().int(),
  /** Net quantity carried in from the previous day (signed). */
  overnightQuantity: z.number().int(),
  multiplier: z.number().positive(),
  averagePrice: z.number().nonnegative(),
  /** The previous session's close, from which the day's P&L of the overnight quantity runs. */
  closePrice: z.number().nonnegative(),
  lastPrice: z.number().nonnegative(),
  buyQuantity: z.number().int().nonnegative(),
  buyValue: z.number().nonnegative(),
  sellQuantity: z.number().int().nonnegative(),
  sellValue: z.number().nonnegative(),
  dayBuyQuantity: z.number().int().nonnegative(),
  dayBuyValue: z.number().nonnegative(),
  daySellQuantity: z.number().int().nonnegative(),
  daySellValue: z.number().nonnegative(),
  realisedPnl: z.number(),
  unrealisedPnl: z.number(),
  pnl: z.number(),
  /** The day's P&L (mark to market from the previous close). */
  m2m: z.number(),
});
export type Position = z.infer<typeof Position>;

/** Delivery holdings (settled CNC buys). */
export const Holding = z.object({
  exchange: Exchange,
  tradingsymbol: z.string(),
  instrumentToken: z.number().int(),
  quantity: z.number().int().nonnegative(),
  averagePrice: z.number().nonnegative(),
  lastPrice: z.number().nonnegative(),
  pnl: z.number(),
});
export type Holding = z.infer<typeof Holding>;

/** The account's cash and margin (docs/api.md §Margins, positions, holdings, funds). */
export const Funds = z.object({
  availableCash: z.number(),
  usedMargin: z.number(),
  availableMargin: z.number(),
  openingBalance: z.number(),
  realisedPnl: z.number(),
  unrealisedPnl: z.number(),
});
export type Funds = z.infer<typeof Funds>;

/** Margin a prospective order would block. */
export const OrderMargin = z.object({
  total: z.number().nonnegative(),
  orderValue: z.number().nonnegative(),
  leverage: z.number().positive(),
});
export type OrderMargin = z.infer<typeof OrderMargin>;

/**
 * Margin a basket of prospective orders would need, in one broker call: each leg alone
 * (`legs`, in the basket's order), their sum (`initial`) and the basket's need once hedged
 * (`final`, as the broker computes it; docs/market.md §Basket margin and hedging).
 */
export const BasketMargin = z.object({
  initial: z.number().nonnegative(),
  final: z.number().nonnegative(),
  legs: z.array(z.object({ total: z.number().nonnegative() })),
});
export type BasketMargin = z.infer<typeof BasketMargin>;

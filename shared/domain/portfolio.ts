import { z } from 'zod';
import { Exchange } from './instrument';
import { Product } from './order';

/** Net position per instrument and product, with P&L marked at the last price. */
export const Position = z.object({
  exchange: Exchange,
  tradingsymbol: z.string(),
  instrumentToken: z.number().int(),
  product: Product,
  quantity: z.number().int(),
  averagePrice: z.number().nonnegative(),
  lastPrice: z.number().nonnegative(),
  realisedPnl: z.number(),
  unrealisedPnl: z.number(),
  pnl: z.number(),
  dayBuyQuantity: z.number().int().nonnegative(),
  daySellQuantity: z.number().int().nonnegative(),
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

/** The account's cash and margin (DESIGN.md §2 GET /funds). */
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

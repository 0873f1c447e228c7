import { z } from 'zod';

/**
 * The risk guard's precautionary limits (docs/contract.md §Risk guard): set per broker profile
 * by the trader, enforced by main before an order is journaled, shown by the renderer.
 */

/** The limits the guard knows, by the name a refusal carries. */
export const RiskLimitName = z.enum([
  'maxOrderValue',
  'maxQuantity',
  'maxLots',
  'maxPriceDeviationPct',
  'maxOpenOrders',
  'dailyLossLimit',
  'maxOrdersPerMinute',
]);
export type RiskLimitName = z.infer<typeof RiskLimitName>;

/**
 * One limit: its figure and whether it is hard (refused, no way round it) or soft (the trader is
 * shown the figures and may place that one order anyway).
 */
function limit(value: z.ZodNumber) {
  return z.strictObject({ value, hard: z.boolean() }).nullable();
}

/**
 * Every limit, null when off. Money in rupees, the deviation in percent of the last price, the
 * loss limit as a positive amount (₹50,000 means "stop at a day's loss of ₹50,000").
 */
export const RiskLimits = z.strictObject({
  /** Price × quantity × multiplier of one order (a MARKET order at the last price). */
  maxOrderValue: limit(z.number().positive().max(1e12)),
  /** Units of one order. */
  maxQuantity: limit(z.number().int().positive().max(1e9)),
  /** Lots of one order (quantity ÷ lot size). */
  maxLots: limit(z.number().int().positive().max(1e6)),
  /** How far a LIMIT or SL price (or an SL trigger) may stray from the last price, in %. */
  maxPriceDeviationPct: limit(z.number().positive().max(100)),
  /** Working orders (and placements not yet confirmed) at once. */
  maxOpenOrders: limit(z.number().int().positive().max(100_000)),
  /** The day's realised + unrealised loss at which risk-increasing orders stop. */
  dailyLossLimit: limit(z.number().positive().max(1e12)),
  /** Orders placed in any 60 s. */
  maxOrdersPerMinute: limit(z.number().int().positive().max(10_000)),
});
export type RiskLimits = z.infer<typeof RiskLimits>;
export type RiskLimit = NonNullable<RiskLimits[RiskLimitName]>;

/** Every limit off: what a new profile starts with. */
export const NO_RISK_LIMITS: RiskLimits = {
  maxOrderValue: null,
  maxQuantity: null,
  maxLots: null,
  maxPriceDeviationPct: null,
  maxOpenOrders: null,
  dailyLossLimit: null,
  maxOrdersPerMinute: null,
};

/**
 * One limit an order breaks, with the figures the trader is shown. It crosses the bridge inside
 * a refusal (`fields`: `risk.<limit>` and this message; docs/contract.md §Risk guard).
 */
export interface RiskBreach {
  readonly limit: RiskLimitName;
  readonly hard: boolean;
  /** "Order value ₹6,12,000 exceeds your limit of ₹5,00,000". */
  readonly message: string;
}

/** The guard's state for the header: the day's P&L against the loss limit. */
export const RiskStatus = z.object({
  /** The day's realised + unrealised P&L over every position; null until positions were read. */
  dayPnl: z.number().nullable(),
  /** The loss limit in force, if any. */
  dailyLossLimit: z.object({ value: z.number().positive(), hard: z.boolean() }).nullable(),
  /** True once the day's loss reached the loss limit (it stays reached until the IST day ends). */
  reached: z.boolean(),
  /** Reached and hard: risk-increasing orders are refused until the IST day ends (a soft one asks each time). */
  blocked: z.boolean(),
  /** What the header says, e.g. "Daily loss limit reached: −₹52,300 of ₹50,000 — only exits allowed today". */
  detail: z.string().nullable(),
  /** Epoch ms of the figures. */
  asOf: z.number().int().nonnegative(),
  /** Set when the checks that need the last price are off, saying why (an account without market data). */
  priceChecksOff: z.string().optional(),
});
export type RiskStatus = z.infer<typeof RiskStatus>;

/** The risk settings dialog's data: the limits and where the day stands. */
export const RiskState = z.object({ limits: RiskLimits, status: RiskStatus });
export type RiskState = z.infer<typeof RiskState>;

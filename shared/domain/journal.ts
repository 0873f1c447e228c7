import { z } from 'zod';
import { Exchange, IsoDate } from './instrument';
import { Product, TransactionType } from './order';

/**
 * The trader's record (docs/journal.md): fills as the journal keeps them, closed trades made of
 * them by FIFO matching, and what the trader wrote about each.
 */

/** Where a fill came from: the broker's trade book, a Console tradebook CSV, or carried in (docs/journal.md §Carried positions). */
export const FillSource = z.enum(['broker', 'csv', 'carried']);
export type FillSource = z.infer<typeof FillSource>;

/** One execution, as the journal keeps it. */
export const JournalFill = z.object({
  /** Unique per fill: the exchange and its trade id (the same from the broker's API and Console's CSV). */
  fillId: z.string().min(1).max(96),
  orderId: z.string().min(1).max(64),
  exchange: Exchange,
  tradingsymbol: z.string().min(1).max(64),
  product: Product,
  side: TransactionType,
  quantity: z.number().int().positive(),
  price: z.number().nonnegative(),
  /** Rupees per price point per unit (the contract's multiplier; 1 for equities and NSE F&O). */
  multiplier: z.number().positive(),
  /** Epoch ms. */
  filledAt: z.number().int(),
  source: FillSource,
});
export type JournalFill = z.infer<typeof JournalFill>;

/** A piece of a fill inside a closed trade: how much of it, at its price and time. */
export const MatchedPiece = z.object({
  fillId: z.string(),
  orderId: z.string(),
  quantity: z.number().int().positive(),
  price: z.number().nonnegative(),
  at: z.number().int(),
  /** True when it is a carried-in lot rather than a fill the journal saw. */
  carried: z.boolean(),
});
export type MatchedPiece = z.infer<typeof MatchedPiece>;

/** A tag: a short word or two the trader files trades under. */
export const JournalTag = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(24, 'at most 24 characters')
  .regex(/^[\p{L}\p{N} _.&+-]+$/u, 'letters, digits, spaces and _ . & + - only');

/** What the trader wrote about a trade. */
export const TradeNotes = z.object({
  tags: z.array(JournalTag).max(10, 'at most 10 tags'),
  note: z.string().max(2000, 'at most 2,000 characters'),
  /** The stop-loss the trade was taken with (the R multiple's risk); null when none. */
  stopLoss: z.number().positive().nullable(),
});
export type TradeNotes = z.infer<typeof TradeNotes>;

/**
 * A closed trade (docs/journal.md §What a trade is): one exit order's fills with the entry lots
 * they closed, first in first out, per instrument and product.
 */
export const ClosedTrade = z.object({
  /** `exchange:symbol:product:exit order id`: stable, what notes and pictures are kept under. */
  id: z.string().min(1).max(200),
  exchange: Exchange,
  tradingsymbol: z.string(),
  product: Product,
  /** Long: bought then sold; short: sold then bought back. */
  direction: z.enum(['long', 'short']),
  quantity: z.number().int().positive(),
  multiplier: z.number().positive(),
  /** Quantity-weighted average prices of the matched entry and exit pieces. */
  entryPrice: z.number().nonnegative(),
  exitPrice: z.number().nonnegative(),
  /** The first matched entry and the last exit fill (epoch ms). */
  entryAt: z.number().int(),
  exitAt: z.number().int(),
  /** Quantity-weighted time each unit was held, ms. */
  holdingMs: z.number().nonnegative(),
  /** Gross P&L in rupees: (exit − entry) × quantity × multiplier, signed by direction. */
  pnl: z.number(),
  /** Estimated charges of the matched pieces (docs/desk.md §Charges model), each order's shared by quantity. */
  charges: z.number().nonnegative(),
  /** P&L less charges. */
  net: z.number(),
  entries: z.array(MatchedPiece),
  exits: z.array(MatchedPiece),
});
export type ClosedTrade = z.infer<typeof ClosedTrade>;

/** A closed trade with the trader's notes, its R multiple and whether a picture was taken at the exit. */
export const JournalTrade = ClosedTrade.extend({
  notes: TradeNotes,
  /** Where the stop-loss came from: typed by the trader, or a stop order of the trade's. */
  stopSource: z.enum(['trader', 'order']).nullable(),
  /** Gross P&L ÷ the risk to the stop; null without a stop on the right side of the entry. */
  rMultiple: z.number().nullable(),
  hasPicture: z.boolean(),
});
export type JournalTrade = z.infer<typeof JournalTrade>;

/** Position lots still open after matching, per instrument and product. */
export const OpenLot = z.object({
  exchange: Exchange,
  tradingsymbol: z.string(),
  product: Product,
  /** Signed: positive long, negative short. */
  quantity: z.number().int(),
  averagePrice: z.number().nonnegative(),
});
export type OpenLot = z.infer<typeof OpenLot>;

/** The journal's answer: closed trades in a date range (by exit day, IST), newest first, and the open lots. */
export const JournalView = z.object({
  trades: z.array(JournalTrade),
  open: z.array(OpenLot),
  fills: z.number().int().nonnegative(),
  /** When the broker's trade book was last read into the journal (epoch ms), null never. */
  syncedAt: z.number().int().nullable(),
});
export type JournalView = z.infer<typeof JournalView>;

/** A date range of exit days, inclusive. */
export const JournalRange = z.strictObject({ from: IsoDate.optional(), to: IsoDate.optional() });
export type JournalRange = z.infer<typeof JournalRange>;

/** What a sync or an import did. */
export const JournalImport = z.object({
  added: z.number().int().nonnegative(),
  duplicates: z.number().int().nonnegative(),
  /**
   * Lines of a CSV that could not be read: always empty on an answer, since an import is all or
   * nothing (a file with such lines is refused naming them); kept for older pages.
   */
  rejected: z.array(z.object({ line: z.number().int().positive(), message: z.string() })),
});
export type JournalImport = z.infer<typeof JournalImport>;

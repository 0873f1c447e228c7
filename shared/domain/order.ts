import { z } from 'zod';
import { Exchange } from './instrument';

export const TransactionType = z.enum(['BUY', 'SELL']);
export type TransactionType = z.infer<typeof TransactionType>;

export const OrderType = z.enum(['MARKET', 'LIMIT', 'SL', 'SL-M']);
export type OrderType = z.infer<typeof OrderType>;

/** MIS intraday (every segment), CNC delivery (NSE/BSE equity), NRML derivatives carry-forward. */
export const Product = z.enum(['MIS', 'CNC', 'NRML']);
export type Product = z.infer<typeof Product>;

export const Validity = z.enum(['DAY', 'IOC']);
export type Validity = z.infer<typeof Validity>;

/**
 * `AMO REQ RECEIVED`: an after-market order the broker holds until the exchange's next open
 * (docs/api.md §After-market orders); it is working (modifiable, cancellable) but not in the market.
 */
export const OrderStatus = z.enum(['OPEN', 'TRIGGER PENDING', 'AMO REQ RECEIVED', 'COMPLETE', 'CANCELLED', 'REJECTED']);
export type OrderStatus = z.infer<typeof OrderStatus>;

/** Statuses an order never leaves. */
export const TERMINAL_STATUSES: ReadonlySet<OrderStatus> = new Set(['COMPLETE', 'CANCELLED', 'REJECTED']);

/** True while an order can still fill, be modified or be cancelled. */
export function isWorking(status: OrderStatus): boolean {
  return !TERMINAL_STATUSES.has(status);
}

/**
 * `regular` goes to the market now (refused while the exchange is closed); `amo` (after-market
 * order) is accepted only while it is closed and is released to the market at the next open
 * (docs/api.md §After-market orders).
 */
export const Variety = z.enum(['regular', 'amo']);
export type Variety = z.infer<typeof Variety>;

/**
 * The idempotency key of an order creation (docs/api.md, "POST /orders"): 1–36 chars of `[A-Za-z0-9_-]`.
 */
export const ClientOrderId = z.string().regex(/^[A-Za-z0-9_-]{1,36}$/, 'must be 1–36 letters, digits, "_" or "-"');

/** An ISO 8601 timestamp with an offset, e.g. `2026-11-20T09:15:00+05:30`. */
export const Timestamp = z.iso.datetime({ offset: true });

/**
 * What a trader asks for when placing an order.
 *
 * `price` applies to LIMIT/SL and `triggerPrice` to SL/SL-M; the trading rules
 * (`shared/trading/rules.ts`) decide which combinations are valid.
 */
export const OrderRequest = z.object({
  exchange: Exchange,
  tradingsymbol: z.string().min(1).max(64),
  transactionType: TransactionType,
  quantity: z.number().int().positive(),
  orderType: OrderType,
  product: Product,
  validity: Validity,
  price: z.number().positive().nullish(),
  triggerPrice: z.number().positive().nullish(),
  /** Absent means `regular`. */
  variety: Variety.optional(),
});
export type OrderRequest = z.infer<typeof OrderRequest>;

/** The fields of a working order that may change (docs/api.md, "PATCH /orders/{order_id}"). */
export const OrderChanges = z
  .object({
    quantity: z.number().int().positive(),
    price: z.number().positive().nullable(),
    triggerPrice: z.number().positive().nullable(),
    orderType: OrderType,
    validity: Validity,
  })
  .partial();
export type OrderChanges = z.infer<typeof OrderChanges>;

/** One order as the broker reports it. */
export const Order = z.object({
  orderId: z.string().min(1),
  clientOrderId: z.string().nullable(),
  exchange: Exchange,
  tradingsymbol: z.string(),
  instrumentToken: z.number().int(),
  transactionType: TransactionType,
  quantity: z.number().int().nonnegative(),
  filledQuantity: z.number().int().nonnegative(),
  pendingQuantity: z.number().int().nonnegative(),
  cancelledQuantity: z.number().int().nonnegative(),
  orderType: OrderType,
  product: Product,
  validity: Validity,
  price: z.number().nonnegative().nullable(),
  triggerPrice: z.number().nonnegative().nullable(),
  averagePrice: z.number().nonnegative(),
  status: OrderStatus,
  statusMessage: z.string().nullable(),
  /** `amo` for an after-market order; absent from brokers that do not report it (then `regular`). */
  variety: Variety.optional(),
  placedAt: Timestamp,
  updatedAt: Timestamp,
  /**
   * Grows by one with each accepted modification, where the broker reports it; main sends it
   * back as a modification's precondition (docs/api.md §PATCH). Absent for brokers without it.
   */
  version: z.number().int().positive().optional(),
  /**
   * A MARKET or SL-M order the broker placed as a LIMIT (SL) under market protection
   * (docs/kite.md §Market protection): the percentage applied, and whether it was the broker's
   * automatic one. Absent for every other order.
   */
  marketProtection: z.object({ percent: z.number().positive().max(100), automatic: z.boolean() }).optional(),
});
export type Order = z.infer<typeof Order>;

/** The broker's acknowledgement of a place/modify/cancel. */
export const OrderAck = z.object({
  orderId: z.string().min(1),
  clientOrderId: z.string().nullable().optional(),
  status: OrderStatus,
});
export type OrderAck = z.infer<typeof OrderAck>;

/** One transition in an order's life, as the broker recorded it. */
export const OrderEvent = z.object({
  status: OrderStatus,
  at: Timestamp,
  filledQuantity: z.number().int().nonnegative(),
  averagePrice: z.number().nonnegative(),
  message: z.string().nullable(),
});
export type OrderEvent = z.infer<typeof OrderEvent>;

/**
 * One hop of an order's life seen from the app: click, request sent, acknowledged, then the
 * broker's transitions. Times are ISO; `gapMs` is the time since the previous hop.
 */
export const LifecycleHop = z.object({
  hop: z.string(),
  at: Timestamp,
  gapMs: z.number().nonnegative().nullable(),
  source: z.enum(['app', 'broker']),
});
export type LifecycleHop = z.infer<typeof LifecycleHop>;

/** A fill. */
export const Trade = z.object({
  tradeId: z.string(),
  orderId: z.string(),
  exchange: Exchange,
  tradingsymbol: z.string(),
  instrumentToken: z.number().int(),
  transactionType: TransactionType,
  product: Product,
  quantity: z.number().int().positive(),
  price: z.number().nonnegative(),
  filledAt: Timestamp,
});
export type Trade = z.infer<typeof Trade>;

/**
 * What main's order book sends the page (docs/live-data.md §The order book in main): the
 * orders changed after the page's cursor, in their latest state, and the ids gone. `book` names
 * the book (a new one at each login), `cursor` the book's latest change; `full` means the page
 * replaces everything it holds with `upserts`.
 */
export const OrderBookDelta = z.object({
  book: z.string().min(1).max(64),
  cursor: z.number().int().nonnegative(),
  full: z.boolean(),
  upserts: z.array(Order),
  removals: z.array(z.string().min(1)),
});
export type OrderBookDelta = z.infer<typeof OrderBookDelta>;

/**
 * Where the book's newest-first order continues (docs/live-data.md §The first screen first):
 * the last row a page was sent. Both fields never change for an order, so a page boundary never
 * moves under a row.
 */
export const OrderPageKey = z.strictObject({
  placedAt: Timestamp,
  orderId: z.string().min(1).max(64),
});
export type OrderPageKey = z.infer<typeof OrderPageKey>;

/**
 * An `orders.sync` answer: a delta, and when the page asked for a first page of a full answer
 * and the book holds more, `total` (orders held) and `next` (where `orders.page` continues).
 */
export const OrderSyncAnswer = OrderBookDelta.extend({
  total: z.number().int().nonnegative().optional(),
  next: OrderPageKey.nullable().optional(),
});
export type OrderSyncAnswer = z.infer<typeof OrderSyncAnswer>;

/** One page of the book, newest first, after a key; `next` null when it was the last. */
export const OrderPage = z.object({
  book: z.string().min(1).max(64),
  orders: z.array(Order),
  next: OrderPageKey.nullable(),
});
export type OrderPage = z.infer<typeof OrderPage>;

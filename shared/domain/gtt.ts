import { z } from 'zod';
import { Exchange } from './instrument';
import { OrderStatus, Product, Timestamp, TransactionType } from './order';

/**
 * GTT (good-till-triggered) orders in the app's own types (docs/gtt.md): a trigger the broker
 * holds and watches, which places its order when the last price crosses it.
 *
 * - `single`: one trigger value, one order; it fires when the price reaches the value from the
 *   side it was on at creation.
 * - `oco` (one cancels other): a stop-loss below and a target above the last price at creation,
 *   one order each; whichever is reached first places its order, and the other is done.
 */

/** One trigger or two (docs/gtt.md §Types). */
export const GttType = z.enum(['single', 'oco']);
export type GttType = z.infer<typeof GttType>;

/**
 * Where a GTT stands: `active` (watching), `triggered` (it placed its order), `rejected` (it fired
 * but the order it placed was rejected), `cancelled` (deleted by the trader), `expired` (a year
 * passed without a trigger).
 */
export const GttStatus = z.enum(['active', 'triggered', 'rejected', 'cancelled', 'expired']);
export type GttStatus = z.infer<typeof GttStatus>;

/** Statuses a GTT never leaves. */
export const GTT_DONE: ReadonlySet<GttStatus> = new Set(['triggered', 'rejected', 'cancelled', 'expired']);

/**
 * The idempotency key of a GTT creation, like an order's `client_order_id` (docs/api.md §GTT):
 * 1–36 of `[A-Za-z0-9_-]`.
 */
export const ClientGttId = z.string().regex(/^[A-Za-z0-9_-]{1,36}$/, 'must be 1–36 letters, digits, "_" or "-"');

/** A GTT id as brokers spell them: letters, digits, `_` and `-`, so it can never change a path. */
export const GttId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1–64 letters, digits, "_" or "-"');

/** The LIMIT order one trigger places (GTT orders are always LIMIT, DAY, regular). */
export const GttLeg = z.object({
  transactionType: TransactionType,
  quantity: z.number().int().positive(),
  product: Product,
  price: z.number().positive(),
});
export type GttLeg = z.infer<typeof GttLeg>;

/**
 * What a trader asks for. `triggerValues` and `legs` pair up by index: one each for `single`;
 * for `oco` the stop-loss first (below the last price), then the target (above it).
 */
export const GttRequest = z.object({
  type: GttType,
  exchange: Exchange,
  tradingsymbol: z.string().min(1).max(64),
  triggerValues: z.array(z.number().positive()).min(1).max(2),
  legs: z.array(GttLeg).min(1).max(2),
});
export type GttRequest = z.infer<typeof GttRequest>;

/** What may change on an active GTT: its trigger values and orders (the type and instrument stay). */
export const GttChanges = GttRequest.pick({ triggerValues: true, legs: true });
export type GttChanges = z.infer<typeof GttChanges>;

/** One leg as the broker reports it: the order it placed once triggered. */
export const GttLegState = GttLeg.extend({
  /** The order this leg placed; null until it fires (and for the OCO leg that did not). */
  orderId: z.string().nullable(),
  /** That order's status when it was placed, where the broker says. */
  orderStatus: OrderStatus.nullable(),
});
export type GttLegState = z.infer<typeof GttLegState>;

/** One GTT as the broker reports it. */
export const Gtt = z.object({
  gttId: z.string().min(1),
  clientGttId: z.string().nullable(),
  type: GttType,
  status: GttStatus,
  exchange: Exchange,
  tradingsymbol: z.string(),
  instrumentToken: z.number().int(),
  triggerValues: z.array(z.number().nonnegative()),
  /** The last price when it was created (or last modified): which side each trigger is on. */
  lastPriceAtCreation: z.number().nonnegative(),
  legs: z.array(GttLegState),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  expiresAt: Timestamp.nullable(),
  /** Why it was rejected, or which leg fired at what price. */
  statusMessage: z.string().nullable(),
});
export type Gtt = z.infer<typeof Gtt>;

/** The broker's answer to a create, modify or delete. */
export const GttAck = z.object({
  gttId: z.string().min(1),
  status: GttStatus.optional(),
});
export type GttAck = z.infer<typeof GttAck>;

/**
 * The answer to `gtt.place` when the broker did not refuse it (docs/gtt.md §When the broker
 * fails): `placed` with its id, or `unconfirmed` — main does not know yet whether the broker
 * created it, and the GTT list settles it (never a "failed" that might have been created).
 */
export const GttPlaceOutcome = z.discriminatedUnion('state', [
  z.object({ state: z.literal('placed'), gttId: z.string().min(1), clientGttId: z.string().nullable() }),
  z.object({ state: z.literal('unconfirmed'), clientGttId: z.string().nullable(), detail: z.string() }),
]);
export type GttPlaceOutcome = z.infer<typeof GttPlaceOutcome>;

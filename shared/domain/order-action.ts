import { z } from 'zod';
import { OrderStatus } from './order';

/**
 * What a trader is told about a modification or a cancel of a working order: the same three
 * honest answers as a placement (docs/contract.md §Modify and cancel answer honestly).
 *
 * - **done**: the broker shows the change (Modified), or the order's end (Cancelled — or, when
 *   it filled or was rejected first, that end: the cancel had nothing left to do).
 * - **refused**: nothing was changed — the broker refused, or nothing was sent. `orders.modify`
 *   and `orders.cancel` answer it as a failed call naming the field; a later settlement reports
 *   it here (`not_done`) only when the order ended without the change.
 * - **not yet confirmed**: the outcome is unknown (a reply lost, a 5xx after sending, the order
 *   book trailing the order system); main reads the order back until it knows.
 */

/** Which action. */
export const OrderActionKind = z.enum(['modify', 'cancel']);
export type OrderActionKind = z.infer<typeof OrderActionKind>;

/** The answer to `orders.modify` / `orders.cancel` when the broker did not refuse it. */
export const OrderActionOutcome = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('done'),
    action: OrderActionKind,
    orderId: z.string().min(1),
    clientOrderId: z.string().nullable().optional(),
    /** The order's status as the broker showed it (a cancel of an order that filled first: COMPLETE). */
    status: OrderStatus,
  }),
  z.object({
    state: z.literal('unconfirmed'),
    action: OrderActionKind,
    orderId: z.string().min(1),
    /** What the trader reads, e.g. "Checking with the broker whether order 2600… was modified…". */
    detail: z.string(),
  }),
]);
export type OrderActionOutcome = z.infer<typeof OrderActionOutcome>;

/**
 * Where an action main could not confirm stands now (`orders.action`): still checking, settled
 * as done, or `not_done` — the order ended (filled, cancelled, rejected) without the change.
 */
export const OrderActionState = z.discriminatedUnion('state', [
  ...OrderActionOutcome.options,
  z.object({
    state: z.literal('not_done'),
    action: OrderActionKind,
    orderId: z.string().min(1),
    detail: z.string(),
  }),
]);
export type OrderActionState = z.infer<typeof OrderActionState>;

import { z } from 'zod';
import { ClientOrderId, OrderRequest, OrderStatus } from './order';

/**
 * What a trader is told about an order they placed: the three honest answers of the money path
 * (docs/money-path.md, "Exactly-once orders").
 *
 * - **placed**: the broker holds an order for this intent; its id is known.
 * - **refused**: nothing was created. This is never a value here: `orders.place` answers it as a
 *   failed call (`{ok:false,error}`) naming the field, and a later settlement reports it as
 *   `not_placed`.
 * - **not yet confirmed**: main does not know yet whether the broker created the order, and is
 *   checking (by the intent's client reference). The trader sees the reference and the
 *   intent appears in the list of unconfirmed placements until it becomes placed or not placed.
 */

/** A placement request id chosen by the renderer, so a repeated call can never create a second intent. */
export const PlacementRequestId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8–64 letters, digits, "_" or "-"');

/** The immediate answer to `orders.place` when the broker did not refuse it. */
export const PlaceOutcome = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('placed'),
    orderId: z.string().min(1),
    clientOrderId: ClientOrderId,
    /**
     * The order's status when it was confirmed; null when a 409 named the order but reading it
     * failed (the order exists; its status follows in the blotter).
     */
    status: OrderStatus.nullable(),
    /** The answer came from a lookup by client reference (a lost reply, a 5xx…), not the POST's own reply. */
    recovered: z.boolean(),
  }),
  z.object({
    state: z.literal('unconfirmed'),
    clientOrderId: ClientOrderId,
    /** What the trader reads, e.g. "Checking with the broker whether order td-… exists…". */
    detail: z.string(),
  }),
]);
export type PlaceOutcome = z.infer<typeof PlaceOutcome>;

/**
 * Where one journaled intent stands.
 *
 * - `checking`: not yet confirmed; main is asking the broker (and, inside the re-send window,
 *   may send it again under the same reference).
 * - `needs_decision`: found open after a restart and confirmed absent at the broker; it is
 *   never re-sent on its own — the trader chooses "Place again" or "Discard".
 * - `unverifiable`: found open after a restart on a broker whose order list shows only its own
 *   today (Kite), and not found: it may exist, so "Place again" may make a second order, says
 *   so, and sends it under a fresh reference.
 * - `placed`, `not_placed`, `discarded`: settled.
 */
export const PlacementState = z.enum([
  'checking',
  'needs_decision',
  'unverifiable',
  'placed',
  'not_placed',
  'discarded',
]);
export type PlacementState = z.infer<typeof PlacementState>;

/** States that still need the broker or the trader. */
export const OPEN_PLACEMENT_STATES: ReadonlySet<PlacementState> = new Set([
  'checking',
  'needs_decision',
  'unverifiable',
]);

/** States waiting for the trader's "Place again" or "Discard". */
export const DECISION_STATES: ReadonlySet<PlacementState> = new Set(['needs_decision', 'unverifiable']);

/** One intent as the unconfirmed-placements list shows it. */
export const Placement = z.object({
  clientOrderId: ClientOrderId,
  requestId: PlacementRequestId.nullable(),
  order: OrderRequest,
  state: PlacementState,
  /** Epoch ms when the intent was journaled (just before its first send). */
  journaledAt: z.number().int().nonnegative(),
  /** Epoch ms when it settled; null while open. */
  settledAt: z.number().int().nonnegative().nullable(),
  /** The broker's order id once placed. */
  orderId: z.string().nullable(),
  status: OrderStatus.nullable(),
  /** What the trader reads about it now. */
  detail: z.string(),
  /**
   * Placed after it was reported not found at the broker past its landing horizon: the order
   * appeared later (docs/money-path.md §After the landing horizon). The desk raises a loud alert.
   */
  appearedLate: z.boolean().optional(),
});
export type Placement = z.infer<typeof Placement>;

import { z } from 'zod';
import { ClientOrderId, OrderRequest } from '@shared/domain/order';
import { PlacementRequestId } from '@shared/domain/placement';
import { ErrorKind } from '@shared/ipc/result';

/** An order the trader asked for, journaled before anything is sent. */
export const IntentRecord = z.object({
  t: z.literal('intent'),
  clientOrderId: ClientOrderId,
  /** Epoch ms when the intent was journaled. */
  at: z.number(),
  order: OrderRequest,
  /** The renderer's id for the click, so a repeated call after a restart finds this intent. */
  requestId: PlacementRequestId.optional(),
});
export type IntentRecord = z.infer<typeof IntentRecord>;

/**
 * How an intent ended.
 *
 * - `acknowledged`: the POST's own 201.
 * - `recovered`: found by client_order_id (after a lost reply, 5xx, crash) or named by a 409.
 * - `failed`: refused (400/403/429…, or never reached the broker) — nothing was created.
 * - `not_placed`: confirmed absent by a lookup after its re-send window and landing horizon.
 * - `discarded`: confirmed absent after a restart, and the trader chose not to place it again.
 * - `unknown`: written by earlier versions for a 2xx whose body did not parse (read, never written).
 */
export const ResolutionRecord = z.object({
  t: z.literal('resolved'),
  clientOrderId: ClientOrderId,
  at: z.number(),
  outcome: z.enum(['acknowledged', 'recovered', 'failed', 'not_placed', 'discarded', 'unknown']),
  orderId: z.string().nullable(),
  kind: ErrorKind.optional(),
});
export type ResolutionRecord = z.infer<typeof ResolutionRecord>;

/** One line of the ledger file. */
export const LedgerRecord = z.discriminatedUnion('t', [IntentRecord, ResolutionRecord]);
export type LedgerRecord = z.infer<typeof LedgerRecord>;

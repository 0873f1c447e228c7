import { z } from 'zod';
import { ClientOrderId, OrderRequest } from '../../../shared/domain/order';
import { ErrorKind } from '../../../shared/ipc/result';

/** An order the trader asked for, journaled before anything is sent. */
export const IntentRecord = z.object({
  t: z.literal('intent'),
  clientOrderId: ClientOrderId,
  /** Epoch ms when the intent was journaled. */
  at: z.number(),
  order: OrderRequest,
});
export type IntentRecord = z.infer<typeof IntentRecord>;

/**
 * How an intent ended.
 *
 * - `acknowledged`: the POST's own 201.
 * - `recovered`: found by client_order_id (after a lost reply, 5xx, crash) or named by a 409.
 * - `failed`: the broker refused it (400/403…) — nothing was created.
 * - `unknown`: a 2xx whose body did not parse; an order may exist, so it is never re-sent.
 */
export const ResolutionRecord = z.object({
  t: z.literal('resolved'),
  clientOrderId: ClientOrderId,
  at: z.number(),
  outcome: z.enum(['acknowledged', 'recovered', 'failed', 'unknown']),
  orderId: z.string().nullable(),
  kind: ErrorKind.optional(),
});
export type ResolutionRecord = z.infer<typeof ResolutionRecord>;

/** One line of the ledger file. */
export const LedgerRecord = z.discriminatedUnion('t', [IntentRecord, ResolutionRecord]);
export type LedgerRecord = z.infer<typeof LedgerRecord>;

import { z } from 'zod';
import { ClientGttId, GttChanges, GttId, GttRequest } from '@shared/domain/gtt';
import { ClientOrderId, OrderRequest, OrderStatus } from '@shared/domain/order';
import { PlacementRequestId } from '@shared/domain/placement';
import { ErrorKind } from '@shared/ipc/result';
import { readByFormat, type Unreadable } from '../storage/durable-journal';

/**
 * The ledger's record format. Every line carries it as `v`; a line of an earlier format is
 * migrated as it is read (`readRecord`), and one that cannot be read is moved aside, never
 * dropped (docs/money-path.md §The intents ledger).
 *
 * - 1: no `v`; a resolution says only its outcome, order id and error kind.
 * - 2: `v: 2`; a resolution also keeps what the trader was told (the refusal's words, the
 *   order's status), so a repeated request id can be answered after a restart.
 * - 3: `v: 3`; GTT creations and changes are journaled too (`gtt`, `gtt-resolved`: docs/gtt.md
 *   §When the broker fails). Format 2's lines are format 3's order lines unchanged.
 */
export const LEDGER_FORMAT = 3;

/** What starts every line: the format, and which record it is. */
function head<T extends string>(t: T) {
  return { v: z.literal(LEDGER_FORMAT), t: z.literal(t) };
}

/** Why nothing was created (or changed): the error's kind, and the words the trader was told. */
const Refusal = {
  kind: ErrorKind.optional(),
  message: z.string().max(2_000).optional(),
};

/** An order the trader asked for, journaled before anything is sent. */
export const IntentRecord = z.object({
  ...head('intent'),
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
  ...head('resolved'),
  clientOrderId: ClientOrderId,
  at: z.number(),
  outcome: z.enum(['acknowledged', 'recovered', 'failed', 'not_placed', 'discarded', 'unknown']),
  orderId: z.string().nullable(),
  ...Refusal,
  /** The order's status when it was confirmed (placed). */
  status: OrderStatus.nullable().optional(),
});
export type ResolutionRecord = z.infer<typeof ResolutionRecord>;

/**
 * A GTT creation or change the trader asked for, journaled before it is sent (docs/gtt.md §When
 * the broker fails). `ref` is the creation's client reference (`client_gtt_id`), or a change's
 * own journal key; `gtt` is what the broker is asked to hold once it is done.
 */
export const GttIntentRecord = z.object({
  ...head('gtt'),
  ref: ClientGttId,
  at: z.number(),
  action: z.enum(['create', 'modify']),
  gtt: GttRequest,
  /** The GTT a change is made to (a change only). */
  gttId: GttId.optional(),
  /** The changes asked for (a change only). */
  changes: GttChanges.optional(),
  requestId: PlacementRequestId.optional(),
});
export type GttIntentRecord = z.infer<typeof GttIntentRecord>;

/**
 * How a GTT intent ended: `done` (created or changed: the broker's id), `failed` (refused:
 * nothing was created or changed), `not_found` (a creation in doubt that no lookup found; it is
 * never sent again).
 */
export const GttResolutionRecord = z.object({
  ...head('gtt-resolved'),
  ref: ClientGttId,
  at: z.number(),
  outcome: z.enum(['done', 'failed', 'not_found']),
  gttId: z.string().nullable(),
  ...Refusal,
});
export type GttResolutionRecord = z.infer<typeof GttResolutionRecord>;

/** One line of the ledger file, in the current format. */
export const LedgerRecord = z.discriminatedUnion('t', [
  IntentRecord,
  ResolutionRecord,
  GttIntentRecord,
  GttResolutionRecord,
]);
export type LedgerRecord = z.infer<typeof LedgerRecord>;

/** Format 2's lines: the order lines of the current format. */
const V2Record = z.discriminatedUnion('t', [
  IntentRecord.omit({ v: true }).extend({ v: z.literal(2) }),
  ResolutionRecord.omit({ v: true }).extend({ v: z.literal(2) }),
]);

/** Format 1's lines: the current shapes without `v`, and without a resolution's words. */
const V1Record = z.discriminatedUnion('t', [
  IntentRecord.omit({ v: true }),
  ResolutionRecord.omit({ v: true, message: true, status: true }),
]);

export type { Unreadable };

/**
 * One parsed line in the current format: itself, or an earlier format's line migrated; or why
 * it cannot be read (a shape no format knows, a newer format than this version's).
 */
export function readRecord(json: unknown): LedgerRecord | Unreadable {
  return readByFormat<LedgerRecord>(json, LEDGER_FORMAT, {
    [LEDGER_FORMAT]: (j) => {
      const r = LedgerRecord.safeParse(j);
      return r.success
        ? r.data
        : { why: `not a format ${LEDGER_FORMAT} record (${r.error.issues[0]?.message ?? '?'})` };
    },
    2: (j) => {
      const r = V2Record.safeParse(j);
      return r.success ? { ...r.data, v: LEDGER_FORMAT } : { why: 'not a format 2 record' };
    },
    1: (j) => {
      const r = V1Record.safeParse(j);
      return r.success ? { ...r.data, v: LEDGER_FORMAT } : { why: 'not a record of any known format' };
    },
  });
}

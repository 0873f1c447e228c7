import { z } from 'zod';
import { Exchange } from './instrument';

/**
 * The reconciliation drift alarm (docs/contract.md §Drift alarm): main compares what it placed
 * and saw with what the broker holds, and every difference is a finding the trader sees until
 * it is resolved or acknowledged — never silently absorbed.
 */

/**
 * What kind of difference.
 *
 * - `outside_order`: the broker holds an order this desk did not place.
 * - `missing_order`: an order this desk placed (the broker gave its id) is not in the broker's list.
 * - `unseen_fill`: the broker's trades fill an order for more than Tradedesk has seen filled.
 * - `position`: the broker's net position is not the opening position plus the day's fills.
 */
export const DriftKind = z.enum(['outside_order', 'missing_order', 'unseen_fill', 'position']);
export type DriftKind = z.infer<typeof DriftKind>;

/** An id the trader acknowledges a finding by: its kind, subject and figures. */
export const DriftFindingId = z.string().min(1).max(200);

/** One difference, confirmed on two checks in a row. */
export const DriftFinding = z.object({
  id: DriftFindingId,
  kind: DriftKind,
  exchange: Exchange,
  tradingsymbol: z.string(),
  /** The broker's order id the finding is about, where it is about one order. */
  orderId: z.string().nullable(),
  /** What the trader reads, e.g. "RELIANCE (MIS) position: broker says 30, opening 0 and fills add up to 20". */
  message: z.string(),
  /** Epoch ms of the check that first saw it, and of the last check that still saw it. */
  firstSeenAt: z.number().int().nonnegative(),
  lastSeenAt: z.number().int().nonnegative(),
});
export type DriftFinding = z.infer<typeof DriftFinding>;

/** Where the alarm stands: its findings and its last check. */
export const DriftStatus = z.object({
  /** Open findings (not resolved, not acknowledged), oldest first. */
  findings: z.array(DriftFinding),
  /** True while a check is running. */
  checking: z.boolean(),
  /** Epoch ms of the last check that read the broker in full; null before the first. */
  checkedAt: z.number().int().nonnegative().nullable(),
  /**
   * The last check could not read the broker: e.g. "Could not check at 10:31 IST: the broker did
   * not answer". Findings are kept as they were; nothing is taken as "no drift". Null when it could.
   */
  failure: z.string().nullable(),
  /** Differences seen once and being checked again before they are raised. */
  suspected: z.number().int().nonnegative(),
});
export type DriftStatus = z.infer<typeof DriftStatus>;

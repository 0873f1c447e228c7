/**
 * Bench-only: the polling cadence before it followed the stream, for the `poll` benchmark's
 * same-run baseline (docs/benchmarks.md, poll). The benchmark builds a second renderer with this
 * module in place of `renderer/lib/cadence.ts`; nothing in the product can select it.
 *
 * Every panel polled about every second while orders were working or the ticket was open, and
 * every five seconds otherwise, whether or not the stream was live.
 */
import type { CadencePolicy, DeskState, PolledRead } from '../../renderer/lib/cadence';

export type { CadencePolicy, DeskState, PolledRead };

/** Today's two intervals (the live-stream knobs did not exist; kept so the shape matches). */
export const DEFAULT_CADENCE: CadencePolicy = {
  busyMs: 1_000,
  idleMs: 5_000,
  liveMs: 1_000,
  liveHoldingsMs: 1_000,
  liveWorkingOrdersMs: 1_000,
};

/** The interval every read had: 1 s while busy (working orders or the ticket open), else 5 s. */
export function cadenceMs(_read: PolledRead, s: DeskState, policy: CadencePolicy = DEFAULT_CADENCE): number {
  return s.workingOrders || s.ticketOpen ? policy.busyMs : policy.idleMs;
}

/**
 * Test-only: the kill points and plan of the crash child (crash-child.ts), shared with the
 * test that runs it (a module of its own, since importing the child would run it).
 */

/** Where the child may be told to die. */
export const KILL_POINTS = [
  'journaled',
  'in-flight',
  'replied',
  'settled',
  'batch-written',
  'compaction-written',
  'compaction-renamed',
  'recovery-lookup',
  'needs-decision',
] as const;
/** One of the kill points. */
export type KillPoint = (typeof KILL_POINTS)[number];

/** What one child run does. */
export interface CrashPlan {
  readonly point: KillPoint;
  readonly occurrence: number;
  readonly orders: number;
  /** Re-send window and landing horizon, shrunk so restarts settle quickly. */
  readonly horizonMs: number;
}

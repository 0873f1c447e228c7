/**
 * Test-only: where the brackets crash child (bracket-child.ts) may be told to die, shared with
 * the test that runs it (a module of its own, since importing the child would run it). Each is
 * described in bracket-child.ts.
 */
export const BRACKET_KILL_POINTS = [
  'fill-seen',
  'journal-written',
  'journaled',
  'stop-in-flight',
  'target-replied',
  'target-settled',
] as const;

/**
 * The contract's event names as plain strings, with no zod behind them.
 *
 * The sandboxed preload needs only these names (to refuse a subscription to anything that is not
 * a contract event before it reaches `ipcRenderer`) and must stay a tiny dependency-free bundle;
 * the WebSocket bridge uses the same list. `contract.test.ts` pins it to the contract's keys so
 * the two cannot drift.
 */
export const EVENT_NAMES_PLAIN = [
  'session.expired',
  'session.changed',
  'connection.changed',
  'usage.changed',
  'orders.changed',
  'placements.changed',
  'market.ticks',
  'safety.progress',
  'squareOff.changed',
  'mtm.changed',
  'drift.changed',
  'alerts.fired',
  'alerts.changed',
  'alerts.ordered',
  'journal.changed',
  'brackets.changed',
  'desk.changed',
  'desk.command',
] as const;

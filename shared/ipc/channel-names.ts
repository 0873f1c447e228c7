/**
 * The contract's channel and event names as plain strings, with no zod behind them.
 *
 * The sandboxed preload needs only the names (to refuse unknown events before they reach
 * `ipcRenderer`) and must stay a tiny dependency-free bundle; `contract.test.ts` pins these
 * lists to the contract's keys so they cannot drift.
 */
export const REQUEST_CHANNEL_NAMES = [
  'session.status',
  'session.login',
  'session.logout',
  'connection.status',
  'instruments.list',
  'candles.get',
  'market.subscribe',
  'quotes.get',
  'market.status',
  'options.chain',
  'orders.place',
  'placements.list',
  'placements.placeAgain',
  'placements.discard',
  'orders.modify',
  'orders.cancel',
  'orders.list',
  'orders.get',
  'orders.history',
  'trades.list',
  'positions.list',
  'holdings.list',
  'funds.get',
  'margins.order',
] as const;

export const EVENT_NAMES_PLAIN = [
  'session.expired',
  'session.changed',
  'connection.changed',
  'order.updated',
  'placements.changed',
  'market.ticks',
] as const;

/**
 * The ids of the workspace's tabbed slots and their tabs (`panel-tabs.tsx`): the workspace tree
 * builds them and the command palette shows a tab by them, so both name the same slot.
 */
export const SLOTS = {
  // The ladder beside the chart: the slot tall enough for a usable column at 1280×720 (docs/ladder.md).
  chart: { id: 'chart-options', chart: 'chart', options: 'options', ladder: 'ladder' },
  depth: { id: 'depth-holdings', depth: 'depth', holdings: 'holdings' },
  orders: { id: 'orders-trades', orders: 'orders', trades: 'trades', gtt: 'gtt', brackets: 'brackets' },
  positions: { id: 'positions-basket', positions: 'positions', basket: 'basket' },
} as const;

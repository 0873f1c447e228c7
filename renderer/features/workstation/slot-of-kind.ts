import { SLOTS } from '../layout/slots';

/** The main window's tabbed slot each kind is drawn in (a plain slot's kind has none). */
export const SLOT_OF_KIND: Readonly<Record<string, string>> = {
  chart: SLOTS.chart.id,
  options: SLOTS.chart.id,
  depth: SLOTS.depth.id,
  holdings: SLOTS.depth.id,
  orders: SLOTS.orders.id,
  trades: SLOTS.orders.id,
  gtt: SLOTS.orders.id,
  positions: SLOTS.positions.id,
  basket: SLOTS.positions.id,
};

import { toCsv, type CsvColumn } from '../lib/csv';
import type { Order, Trade } from '../domain/order';
import type { Position } from '../domain/portfolio';

/**
 * The day's books as CSV, one function per book, so the file a trader exports is the same
 * wherever it is written (a download in the browser host, a save dialog in Electron; docs/desk.md
 * §CSV export). Prices and quantities are plain numbers; times are the broker's ISO timestamps.
 */

const ORDER_COLUMNS: readonly CsvColumn<Order>[] = [
  { header: 'placed_at', cell: (o) => o.placedAt },
  { header: 'order_id', cell: (o) => o.orderId },
  { header: 'client_order_id', cell: (o) => o.clientOrderId },
  { header: 'exchange', cell: (o) => o.exchange },
  { header: 'tradingsymbol', cell: (o) => o.tradingsymbol },
  { header: 'side', cell: (o) => o.transactionType },
  { header: 'order_type', cell: (o) => o.orderType },
  { header: 'product', cell: (o) => o.product },
  { header: 'validity', cell: (o) => o.validity },
  { header: 'variety', cell: (o) => o.variety ?? 'regular' },
  { header: 'quantity', cell: (o) => o.quantity },
  { header: 'filled_quantity', cell: (o) => o.filledQuantity },
  { header: 'pending_quantity', cell: (o) => o.pendingQuantity },
  { header: 'cancelled_quantity', cell: (o) => o.cancelledQuantity },
  { header: 'price', cell: (o) => o.price },
  { header: 'trigger_price', cell: (o) => o.triggerPrice },
  { header: 'average_price', cell: (o) => o.averagePrice },
  { header: 'status', cell: (o) => o.status },
  { header: 'status_message', cell: (o) => o.statusMessage },
  { header: 'updated_at', cell: (o) => o.updatedAt },
];

const TRADE_COLUMNS: readonly CsvColumn<Trade>[] = [
  { header: 'filled_at', cell: (t) => t.filledAt },
  { header: 'trade_id', cell: (t) => t.tradeId },
  { header: 'order_id', cell: (t) => t.orderId },
  { header: 'exchange', cell: (t) => t.exchange },
  { header: 'tradingsymbol', cell: (t) => t.tradingsymbol },
  { header: 'side', cell: (t) => t.transactionType },
  { header: 'product', cell: (t) => t.product },
  { header: 'quantity', cell: (t) => t.quantity },
  { header: 'price', cell: (t) => t.price },
];

const POSITION_COLUMNS: readonly CsvColumn<Position>[] = [
  { header: 'exchange', cell: (p) => p.exchange },
  { header: 'tradingsymbol', cell: (p) => p.tradingsymbol },
  { header: 'product', cell: (p) => p.product },
  { header: 'quantity', cell: (p) => p.quantity },
  { header: 'overnight_quantity', cell: (p) => p.overnightQuantity },
  { header: 'average_price', cell: (p) => p.averagePrice },
  { header: 'last_price', cell: (p) => p.lastPrice },
  { header: 'close_price', cell: (p) => p.closePrice },
  { header: 'buy_quantity', cell: (p) => p.buyQuantity },
  { header: 'buy_value', cell: (p) => p.buyValue },
  { header: 'sell_quantity', cell: (p) => p.sellQuantity },
  { header: 'sell_value', cell: (p) => p.sellValue },
  { header: 'realised_pnl', cell: (p) => p.realisedPnl },
  { header: 'unrealised_pnl', cell: (p) => p.unrealisedPnl },
  { header: 'pnl', cell: (p) => p.pnl },
  { header: 'm2m', cell: (p) => p.m2m },
];

/** The books a trader can export. */
export type Book = 'orders' | 'trades' | 'positions';

/** Every order of the day, oldest first (the order a statement reads in). */
export function ordersCsv(orders: readonly Order[]): string {
  return toCsv(
    ORDER_COLUMNS,
    [...orders].sort((a, b) => Date.parse(a.placedAt) - Date.parse(b.placedAt) || a.orderId.localeCompare(b.orderId)),
  );
}

/** Every fill of the day, oldest first. */
export function tradesCsv(trades: readonly Trade[]): string {
  return toCsv(
    TRADE_COLUMNS,
    [...trades].sort((a, b) => Date.parse(a.filledAt) - Date.parse(b.filledAt) || a.tradeId.localeCompare(b.tradeId)),
  );
}

/** Every position, as the broker reports it. */
export function positionsCsv(positions: readonly Position[]): string {
  return toCsv(POSITION_COLUMNS, positions);
}

/** `tradedesk-trades-2026-11-23.csv`: the book and the trading day (IST) in the name. */
export function csvFileName(book: Book, istDay: string): string {
  return `tradedesk-${book}-${istDay}.csv`;
}

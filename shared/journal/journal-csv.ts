import type { Exchange } from '../domain/instrument';
import type { JournalFill, JournalTrade } from '../domain/journal';
import type { Product } from '../domain/order';
import { parseCsv, toCsv, type CsvColumn } from '../lib/csv';
import { toIstIso } from '../lib/ist-time';
import { MAX_PRICE } from '../trading/rules';

/**
 * The journal as CSV, both ways (docs/journal.md §Import and export): closed trades out, in the
 * desk's CSV rules (docs/desk.md §CSV export); fills in from Zerodha Console's tradebook export
 * (Reports → Tradebook → CSV).
 */

const round = (v: number, digits: number): number => Math.round(v * 10 ** digits) / 10 ** digits;

const TRADE_COLUMNS: readonly CsvColumn<JournalTrade>[] = [
  { header: 'trade_id', cell: (t) => t.id },
  { header: 'exchange', cell: (t) => t.exchange },
  { header: 'tradingsymbol', cell: (t) => t.tradingsymbol },
  { header: 'product', cell: (t) => t.product },
  { header: 'direction', cell: (t) => t.direction },
  { header: 'quantity', cell: (t) => t.quantity },
  { header: 'entry_time', cell: (t) => toIstIso(t.entryAt) },
  { header: 'exit_time', cell: (t) => toIstIso(t.exitAt) },
  { header: 'entry_price', cell: (t) => round(t.entryPrice, 4) },
  { header: 'exit_price', cell: (t) => round(t.exitPrice, 4) },
  { header: 'holding_minutes', cell: (t) => round(t.holdingMs / 60_000, 1) },
  { header: 'pnl', cell: (t) => round(t.pnl, 2) },
  { header: 'charges', cell: (t) => round(t.charges, 2) },
  { header: 'net', cell: (t) => round(t.net, 2) },
  { header: 'stop_loss', cell: (t) => t.notes.stopLoss },
  { header: 'r_multiple', cell: (t) => (t.rMultiple === null ? null : round(t.rMultiple, 2)) },
  { header: 'tags', cell: (t) => t.notes.tags.join(';') },
  { header: 'note', cell: (t) => t.notes.note },
];

/** Closed trades as CSV, oldest exit first. */
export function journalCsv(trades: readonly JournalTrade[]): string {
  return toCsv(
    TRADE_COLUMNS,
    [...trades].sort((a, b) => a.exitAt - b.exitAt),
  );
}

/** A fill read from a tradebook, before main looks up its contract's multiplier. */
export type ImportedFill = Omit<JournalFill, 'multiplier'>;

/** A line of a tradebook that cannot be read: its number in the file, the column at fault and why. */
export interface RejectedLine {
  readonly line: number;
  /** The column at fault (`quantity`, `price`…), or `header` for the file as a whole. */
  readonly field: string;
  readonly message: string;
}

/** What a tradebook file gave: the fills read (with the line each came from), and each line that could not be read. */
export interface ParsedTradebook {
  readonly fills: ImportedFill[];
  /** The file's line of each fill, in the same order (to name it when main refuses its price's tick). */
  readonly lines: number[];
  readonly rejected: RejectedLine[];
}

/**
 * The largest quantity one fill may carry: far above any exchange's freeze quantity, and far
 * inside the integers a number counts exactly (2^53), so quantity × price stays exact enough for
 * money and the journal never stores a figure it cannot read back (docs/journal.md §Import and export).
 */
export const MAX_FILL_QUANTITY = 100_000_000;

/** A whole number as Console writes one (`4` or `4.000000`): digits only — no sign, exponent or spaces. */
const WHOLE = /^\d+(\.0*)?$/;
/** A price as Console writes one (`3925.500000`): digits and a point — no sign or exponent. */
const DECIMAL = /^\d+(\.\d+)?$/;

/** Why a quantity cell is not a fill's quantity, or null. */
function quantityProblem(cell: string): string | null {
  if (!WHOLE.test(cell)) return `quantity must be a whole number written in digits, not "${cell.slice(0, 40)}"`;
  const q = Number(cell);
  if (q <= 0 || q > MAX_FILL_QUANTITY)
    return `quantity must be from 1 to ${MAX_FILL_QUANTITY.toLocaleString('en-IN')}, not ${cell.slice(0, 40)}`;
  return null;
}

/**
 * Why a price cell is not a fill's price, or null: digits only, at most `MAX_PRICE`, and on the
 * desk's price unit (₹0.0001, docs/api.md §Numbers and money units); the instrument's own tick is
 * checked by main, which knows it.
 */
function priceProblem(cell: string): string | null {
  if (!DECIMAL.test(cell)) return `price must be a number written in digits, not "${cell.slice(0, 40)}"`;
  const p = Number(cell);
  if (p > MAX_PRICE) return `price must be at most ₹${MAX_PRICE.toLocaleString('en-IN')}, not ${cell.slice(0, 40)}`;
  if ((cell.split('.')[1] ?? '').replace(/0+$/, '').length > 4) return `price ${cell} is finer than ₹0.0001`;
  return null;
}

/** The columns of Console's tradebook the journal reads (it also has isin, series, auction, expiry_date). */
const REQUIRED = ['symbol', 'exchange', 'segment', 'trade_type', 'quantity', 'price', 'trade_id', 'order_id'] as const;

/** Console's exchange and segment → the app's exchange. */
function exchangeOf(exchange: string, segment: string): Exchange | null {
  const x = exchange.toUpperCase();
  const s = segment.toUpperCase();
  if (x === 'MCX' || s === 'COM') return 'MCX';
  if (s === 'CDS' || x === 'CDS') return 'CDS';
  if (s === 'FO') return x === 'BSE' ? 'BFO' : x === 'NSE' ? 'NFO' : null;
  if (x === 'NSE' || x === 'BSE' || x === 'NFO' || x === 'BFO') return x;
  return null;
}

/** `2026-11-23T09:21:55` (Console's IST local time, no offset) → epoch ms; no time at all: the trade date's 09:15. */
function istInstant(time: string, date: string): number {
  const t = time.trim().replace(' ', 'T');
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(t))
    return Date.parse(`${t}${t.length === 16 ? ':00' : ''}+05:30`);
  // No time at all: the trade date's open.
  if (t === '' && /^\d{4}-\d{2}-\d{2}$/.test(date.trim())) return Date.parse(`${date.trim()}T09:15:00+05:30`);
  return Number.NaN;
}

/**
 * Fills from a Console tradebook CSV. Console writes no product: equity fills take
 * `equityProduct` (delivery by default; choose intraday for an intraday account), derivatives
 * NRML. Headers are matched without regard to case or spaces ("Trade Date" or trade_date).
 */
export function parseConsoleTradebook(
  text: string,
  options: { readonly equityProduct: Extract<Product, 'CNC' | 'MIS'> },
): ParsedTradebook {
  const rows = parseCsv(text);
  const fills: ImportedFill[] = [];
  const lines: number[] = [];
  const rejected: RejectedLine[] = [];
  const headerAt = rows.findIndex((r) =>
    r.some((c) => c.trim().toLowerCase() === 'trade_id' || c.trim().toLowerCase() === 'trade id'),
  );
  if (headerAt < 0) {
    return {
      fills,
      lines,
      rejected: [{ line: 1, field: 'header', message: 'Not a Console tradebook: no trade_id column in its header' }],
    };
  }
  const header = rows[headerAt]!.map((h) => h.trim().toLowerCase().replace(/\s+/g, '_'));
  const missing = REQUIRED.filter((c) => !header.includes(c));
  if (missing.length > 0) {
    return {
      fills,
      lines,
      rejected: [
        { line: headerAt + 1, field: 'header', message: `Not a Console tradebook: no ${missing.join(', ')} column` },
      ],
    };
  }
  const col = (row: readonly string[], name: string): string => (row[header.indexOf(name)] ?? '').trim();
  for (let r = headerAt + 1; r < rows.length; r++) {
    const row = rows[r]!;
    const line = r + 1;
    if (row.every((c) => c.trim() === '')) continue;
    const reject = (field: string, message: string): void => {
      if (rejected.length < 50) rejected.push({ line, field, message });
    };
    const exchange = exchangeOf(col(row, 'exchange'), col(row, 'segment'));
    if (!exchange) {
      reject(
        'exchange',
        `exchange ${col(row, 'exchange')} / segment ${col(row, 'segment')} is not one the desk trades`,
      );
      continue;
    }
    const side = col(row, 'trade_type').toLowerCase();
    if (side !== 'buy' && side !== 'sell') {
      reject('trade_type', `trade_type must be buy or sell, not "${col(row, 'trade_type')}"`);
      continue;
    }
    const badQuantity = quantityProblem(col(row, 'quantity'));
    if (badQuantity !== null) {
      reject('quantity', badQuantity);
      continue;
    }
    const badPrice = priceProblem(col(row, 'price'));
    if (badPrice !== null) {
      reject('price', badPrice);
      continue;
    }
    const quantity = Number(col(row, 'quantity'));
    const price = Number(col(row, 'price'));
    const filledAt = istInstant(col(row, 'order_execution_time'), col(row, 'trade_date'));
    if (!Number.isFinite(filledAt)) {
      reject(
        'order_execution_time',
        `order_execution_time must be a time such as 2026-11-23T09:21:55, not "${col(row, 'order_execution_time')}"`,
      );
      continue;
    }
    const tradeId = col(row, 'trade_id');
    const orderId = col(row, 'order_id');
    const symbol = col(row, 'symbol').toUpperCase();
    if (!tradeId || !orderId || !symbol || tradeId.length > 64 || orderId.length > 64 || symbol.length > 64) {
      const field =
        !symbol || symbol.length > 64 ? 'symbol' : !tradeId || tradeId.length > 64 ? 'trade_id' : 'order_id';
      reject(field, `${field} must be given (at most 64 characters)`);
      continue;
    }
    const equity = exchange === 'NSE' || exchange === 'BSE';
    fills.push({
      fillId: `${exchange}:${tradeId}`,
      orderId,
      exchange,
      tradingsymbol: symbol,
      product: equity ? options.equityProduct : 'NRML',
      side: side === 'buy' ? 'BUY' : 'SELL',
      quantity,
      price,
      filledAt,
      source: 'csv',
    });
    lines.push(line);
  }
  return { fills, lines, rejected };
}

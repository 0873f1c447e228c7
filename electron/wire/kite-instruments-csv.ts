import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { Exchange, InstrumentType, type Instrument } from '@shared/domain/instrument';
import { AppError } from '@shared/ipc/app-error';

/**
 * Kite's instrument dump (docs/kite.md §Instruments), one codec for both sides of the wire: the
 * Kite adapter parses it, the paper broker's Kite dialect writes it, with the same columns and
 * the same quoting.
 */

/** The dump's columns, in Kite's order. */
export const KITE_INSTRUMENT_COLUMNS = [
  'instrument_token',
  'exchange_token',
  'tradingsymbol',
  'name',
  'last_price',
  'expiry',
  'strike',
  'tick_size',
  'lot_size',
  'instrument_type',
  'segment',
  'exchange',
] as const;

/** One row of the dump, a value per column. */
export type KiteInstrumentRow = { readonly [K in (typeof KITE_INSTRUMENT_COLUMNS)[number]]: string | number };

/** One CSV field: quoted (quotes doubled) when it holds a comma, a quote or a line break. */
function field(v: string | number): string {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** The dump's text: the header line, then one line per row. */
export function kiteInstrumentsCsv(rows: Iterable<KiteInstrumentRow>): string {
  const lines = [KITE_INSTRUMENT_COLUMNS.join(',')];
  for (const row of rows) lines.push(KITE_INSTRUMENT_COLUMNS.map((c) => field(row[c])).join(','));
  return lines.join('\n');
}

/** The longest the parser runs before it yields to the event loop, in ms. */
export const CSV_SLICE_MS = 8;

/**
 * Kite publishes no freeze quantity in its dump; the exchange refuses an order over its freeze
 * limit itself. The app's ticket and the kill switch's exits slice by `freezeQuantity`, so "no
 * known limit" is a number no order reaches.
 */
export const UNKNOWN_FREEZE_QUANTITY = 1_000_000_000;

/**
 * The freeze limits the exchanges publish for the index derivatives (NSE's and BSE's quantity
 * freeze lists; the paper market uses the same), by the dump's `name` on NFO and BFO. Without
 * them an exit of 3,600 NIFTY would go as one order the exchange refuses (docs/brokers.md, "What
 * Kite says and what the app shows"). A stock future's limit is not known here: its rows keep the unknown one.
 */
export const INDEX_FREEZE_QUANTITY: Readonly<Record<string, number>> = {
  'NFO:NIFTY': 1_800,
  'NFO:BANKNIFTY': 900,
  'NFO:FINNIFTY': 1_800,
  'NFO:MIDCPNIFTY': 2_800,
  'BFO:SENSEX': 1_000,
};

/** A row's freeze quantity: the exchange's published one for an index derivative, else unknown. */
function freezeQuantityOf(exchange: string, name: string, type: string): number {
  if (type !== 'FUT' && type !== 'CE' && type !== 'PE') return UNKNOWN_FREEZE_QUANTITY;
  return INDEX_FREEZE_QUANTITY[`${exchange}:${name}`] ?? UNKNOWN_FREEZE_QUANTITY;
}

/** Splits one CSV line into fields (RFC 4180 quoting, as `field` writes it; Kite quotes a field holding a comma). */
function splitLine(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

/** The columns the app reads (`exchange_token` is Kite's own). */
const REQUIRED = KITE_INSTRUMENT_COLUMNS.filter(
  (c): c is Exclude<(typeof KITE_INSTRUMENT_COLUMNS)[number], 'exchange_token'> => c !== 'exchange_token',
);

/** What parsing the dump found: the instruments the app trades, and how many rows it left out. */
export interface ParsedInstruments {
  readonly instruments: Instrument[];
  /** Rows of exchanges, segments or types the app does not trade (indices, BCD, MF…). */
  readonly skipped: number;
}

/**
 * Parses Kite's instrument dump (docs/kite.md §Instruments) — tens of thousands of rows on a
 * real account — line by line (no one big split), yielding to the event loop every
 * `CSV_SLICE_MS`, so order replies and ticks are never held up behind it. A missing column or a malformed number is
 * `unexpected_shape` naming the line; a row the app cannot trade (an index, another exchange) is
 * left out and counted.
 */
export async function parseInstrumentsCsv(text: string, sliceMs = CSV_SLICE_MS): Promise<ParsedInstruments> {
  let pos = 0;
  let quoteAt = text.indexOf('"');
  /** The next record without its line end (a quoted field may hold line breaks), or null at the end of the text. */
  const nextLine = (): string | null => {
    if (pos >= text.length) return null;
    let stop = pos;
    let quotes = 0;
    for (;;) {
      const end = text.indexOf('\n', stop);
      const lineEnd = end === -1 ? text.length : end;
      // The next quote is searched once for the whole text, so a dump without quotes stays one pass.
      while (quoteAt !== -1 && quoteAt < lineEnd) {
        quotes += 1;
        quoteAt = text.indexOf('"', quoteAt + 1);
      }
      stop = lineEnd;
      if (quotes % 2 === 0 || end === -1) break;
      stop += 1;
    }
    const line = text.slice(pos, stop > pos && text[stop - 1] === '\r' ? stop - 1 : stop);
    pos = stop + 1;
    return line;
  };
  const header = splitLine(nextLine() ?? '');
  const col = new Map(header.map((h, i) => [h.trim(), i]));
  const missing = REQUIRED.find((name) => !col.has(name));
  if (missing !== undefined) {
    throw new AppError({ kind: 'unexpected_shape', message: `Kite's instrument list has no "${missing}" column` });
  }
  const at = (name: (typeof REQUIRED)[number]): number => col.get(name) as number;
  const instruments: Instrument[] = [];
  let skipped = 0;
  let sliceStart = performance.now();
  for (let i = 1; ; i += 1) {
    if ((i & 63) === 0 && performance.now() - sliceStart >= sliceMs) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
    const line = nextLine();
    if (line === null) break;
    if (line === '') continue;
    const f = splitLine(line);
    const num = (name: (typeof REQUIRED)[number]): number => {
      const v = Number(f[at(name)]);
      if (!Number.isFinite(v) || f[at(name)] === undefined) {
        throw new AppError({
          kind: 'unexpected_shape',
          message: `Kite's instrument list, line ${i + 1}: "${name}" is not a number`,
        });
      }
      return v;
    };
    const exchange = Exchange.safeParse(f[at('exchange')]);
    const type = InstrumentType.safeParse(f[at('instrument_type')]);
    const segment = f[at('segment')] ?? '';
    if (!exchange.success || !type.success || segment === 'INDICES') {
      skipped += 1;
      continue;
    }
    const token = num('instrument_token');
    const tickSize = num('tick_size');
    const lotSize = num('lot_size');
    if (!Number.isInteger(token) || token <= 0 || tickSize <= 0 || lotSize <= 0) {
      skipped += 1;
      continue;
    }
    const expiry = f[at('expiry')] ?? '';
    const strike = num('strike');
    const isOption = type.data === 'CE' || type.data === 'PE';
    instruments.push({
      instrumentToken: token,
      exchange: exchange.data,
      tradingsymbol: f[at('tradingsymbol')] ?? '',
      name: f[at('name')] ?? '',
      segment,
      instrumentType: type.data,
      lotSize: Math.round(lotSize),
      tickSize,
      freezeQuantity: freezeQuantityOf(exchange.data, f[at('name')] ?? '', type.data),
      multiplier: 1,
      expiry: /^\d{4}-\d{2}-\d{2}$/.test(expiry) ? expiry : null,
      strike: isOption ? strike : null,
      lastPrice: Math.max(0, num('last_price')),
    });
  }
  return { instruments, skipped };
}

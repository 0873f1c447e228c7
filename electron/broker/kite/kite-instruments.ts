import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { Exchange, InstrumentType, type Instrument } from '@shared/domain/instrument';
import { brokerError } from '../broker-error';

/** The longest the parser runs before it yields to the event loop, in ms. */
export const CSV_SLICE_MS = 8;

/**
 * Kite publishes no freeze quantity in its dump; the exchange refuses an order over its freeze
 * limit itself. The app's ticket slices by `freezeQuantity`, so "no known limit" is a number no
 * order reaches.
 */
export const UNKNOWN_FREEZE_QUANTITY = 1_000_000_000;

/** Splits one CSV line into fields (RFC 4180 quoting; Kite quotes a field holding a comma). */
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

const REQUIRED = [
  'instrument_token',
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
  /** The next line without its line end, or null at the end of the text. */
  const nextLine = (): string | null => {
    if (pos >= text.length) return null;
    const end = text.indexOf('\n', pos);
    const stop = end === -1 ? text.length : end;
    const line = text.slice(pos, stop > pos && text[stop - 1] === '\r' ? stop - 1 : stop);
    pos = stop + 1;
    return line;
  };
  const header = splitLine(nextLine() ?? '');
  const col = new Map(header.map((h, i) => [h.trim(), i]));
  const missing = REQUIRED.find((name) => !col.has(name));
  if (missing !== undefined) {
    throw brokerError('unexpected_shape', `Kite's instrument list has no "${missing}" column`);
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
        throw brokerError('unexpected_shape', `Kite's instrument list, line ${i + 1}: "${name}" is not a number`);
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
      freezeQuantity: UNKNOWN_FREEZE_QUANTITY,
      multiplier: 1,
      expiry: /^\d{4}-\d{2}-\d{2}$/.test(expiry) ? expiry : null,
      strike: isOption ? strike : null,
      lastPrice: Math.max(0, num('last_price')),
    });
  }
  return { instruments, skipped };
}

import { crc32 } from 'node:zlib';
import { z } from 'zod';
import { Exchange, InstrumentType } from '@shared/domain/instrument';
import {
  ClientOrderId,
  OrderStatus,
  OrderType,
  Product,
  TransactionType,
  Validity,
  Variety,
} from '@shared/domain/order';
import { GttStatus, GttType } from '@shared/domain/gtt';
import type { PaperGtt } from './gtt';
import type { Session } from './sessions';
import type { HistoryEntry, PaperOrder, PaperTrade } from './types';

/**
 * How journal events are written to and read from a line (docs/api.md §Persistence).
 *
 * Every record carries its format version `v`:
 * - format 1 (records without `v`) stored money in integer paise under `*Paise` names; it is
 *   converted on read (×100), so ₹100 stays ₹100;
 * - format 2 stores integer units of ₹0.0001 under `*Units` names;
 * - format 3 is format 2 plus `c`, a CRC-32 of the rest of the record, so an edited or
 *   bit-flipped line is detected instead of trusted;
 * - format 4 (current) is format 3 plus `gtt` records: a broker that reads only format 3 refuses
 *   such a journal as newer instead of calling its GTT lines damage (and `--repair` cutting them).
 *
 * Every record of every format is checked against the schema below before it is replayed: a
 * journal is data from disk, and a value that only looks like an order (an `orderId` of
 * `26000000001r`, a status `OPEM`, `"o": null`) must stop the start, not be served. A record
 * from a newer format is refused as a whole journal: guessing at it could misread money.
 */

/** One thing that happened to the account, in the current format; replay folds them in order. */
export type JournalEvent =
  | { readonly e: 'session'; readonly s: Session }
  | { readonly e: 'session_end'; readonly token: string }
  | { readonly e: 'order'; readonly o: PaperOrder }
  | { readonly e: 'trade'; readonly t: PaperTrade }
  /** A GTT's snapshot after each change (docs/api.md §GTT); the last one of an id wins. */
  | { readonly e: 'gtt'; readonly g: PaperGtt }
  /**
   * Last prices (price units) of the instruments the account holds, written on a clean shutdown
   * at `at` (absent in format 1).
   */
  | { readonly e: 'marks'; readonly prices: Readonly<Record<string, number>>; readonly at?: number }
  /**
   * The highest order and trade ids that may have been handed out, written (and fsynced) before
   * the first of them is: a restart continues above them, so an id is never given twice even
   * when the order that had it was torn off the journal's end.
   */
  | { readonly e: 'ids'; readonly order: number; readonly trade: number };

/** The format this broker writes. */
export const JOURNAL_VERSION = 4;

/** A journal the broker will not start on; the message says which file and why. */
export class JournalError extends Error {}

/** A journal this broker must not read (a newer format): starting on it could misread money. */
export class JournalFormatError extends JournalError {}

/** Why one line is not a record this broker wrote (the reader adds the file and line). */
export class RecordDamage extends Error {}

const Count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const Time = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const Money = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const Price = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** Order and trade ids are decimal numbers as strings (`260000000012`, `70000003`). */
const NumericId = z.string().regex(/^[1-9]\d{0,15}$/, 'must be a decimal id');
const InstrumentToken = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

const SessionRecord = z.looseObject({
  token: z.string().min(16).max(128),
  userId: z.string().min(1).max(64),
  scope: z.enum(['trade', 'read']),
  expiresAt: Time,
  revoked: z.boolean(),
});

const HistoryRecord = z.looseObject({
  status: OrderStatus,
  at: Time,
  filled: Count,
  filledValueUnits: Money,
  message: z.string().max(1024).nullable(),
});

// Loose, not strict: a field a later change adds to orders (and journals) must survive replay.
const OrderRecord = z
  .looseObject({
    orderId: NumericId,
    clientOrderId: ClientOrderId.nullable(),
    token: InstrumentToken,
    exchange: Exchange,
    tradingsymbol: z.string().min(1).max(64),
    instrumentType: InstrumentType,
    transactionType: TransactionType,
    quantity: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    filled: Count,
    cancelled: Count,
    orderType: OrderType,
    product: Product,
    validity: Validity,
    /** Absent in journals written before after-market orders (restored as `regular`). */
    variety: Variety.optional(),
    priceUnits: Price.nullable(),
    triggerUnits: Price.nullable(),
    filledValueUnits: Money,
    status: OrderStatus,
    statusMessage: z.string().max(1024).nullable(),
    placedAt: Time,
    updatedAt: Time,
    blockedUnits: Money,
    /** Absent in journals written before orders had versions (restored as 1). */
    version: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
    history: z.array(HistoryRecord).min(1).max(10_000),
  })
  .refine((o) => o.filled + o.cancelled <= o.quantity, {
    message: 'filled + cancelled is more than the quantity',
    path: ['filled'],
  });

const TradeRecord = z.looseObject({
  tradeId: NumericId,
  orderId: NumericId,
  token: InstrumentToken,
  exchange: Exchange,
  tradingsymbol: z.string().min(1).max(64),
  instrumentType: InstrumentType,
  transactionType: TransactionType,
  product: Product,
  quantity: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  /** Zero only for an option that expired worthless (its settlement trade). */
  priceUnits: Money,
  /** The instrument's multiplier at the fill (GOLD ×100): the trade's value is quantity × price × this. */
  multiplier: z.number().int().positive().max(1_000_000),
  at: Time,
});

const GttLegRecord = z.looseObject({
  transactionType: TransactionType,
  quantity: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  product: Product,
  priceUnits: Price,
  orderId: NumericId.nullable(),
  orderStatus: OrderStatus.nullable(),
});

const GttRecord = z.looseObject({
  gttId: NumericId,
  clientGttId: ClientOrderId.nullable(),
  type: GttType,
  status: GttStatus,
  token: InstrumentToken,
  exchange: Exchange,
  tradingsymbol: z.string().min(1).max(64),
  triggerUnits: z.array(Price).min(1).max(2),
  ltpAtCreationUnits: Money,
  legs: z.array(GttLegRecord).min(1).max(2),
  createdAt: Time,
  updatedAt: Time,
  expiresAt: Time,
  statusMessage: z.string().max(1024).nullable(),
  fired: z.strictObject({ ltpUnits: Price, at: Time }).optional(),
});

const EventRecord = z.discriminatedUnion('e', [
  z.strictObject({ e: z.literal('session'), s: SessionRecord }),
  z.strictObject({ e: z.literal('session_end'), token: z.string().min(1).max(128) }),
  z.strictObject({ e: z.literal('order'), o: OrderRecord }),
  z.strictObject({ e: z.literal('trade'), t: TradeRecord }),
  z.strictObject({ e: z.literal('gtt'), g: GttRecord }),
  z.strictObject({
    e: z.literal('marks'),
    prices: z.record(z.string().regex(/^\d{1,16}$/), Price),
    at: Time.optional(),
  }),
  z.strictObject({ e: z.literal('ids'), order: Count, trade: Count }),
]);

/** CRC-32 of a record's JSON, as 8 hex digits. */
function checksum(json: string): string {
  return crc32(json).toString(16).padStart(8, '0');
}

/** One event as one line of JSON (no newline), with its checksum last. */
export function encodeEvent(event: JournalEvent): string {
  const json = JSON.stringify({ v: JOURNAL_VERSION, ...event });
  return `${json.slice(0, -1)},"c":"${checksum(json)}"}`;
}

/** Paise (format 1) → price units; a missing or non-numeric amount makes the line damaged. */
function units(paise: unknown): number {
  if (typeof paise !== 'number' || !Number.isFinite(paise)) throw new RecordDamage('an amount is not a number');
  return paise * 100;
}

function unitsOrNull(paise: unknown): number | null {
  return paise === null ? null : units(paise);
}

type Rec = Record<string, unknown>;

const isRec = (x: unknown): x is Rec => x !== null && typeof x === 'object' && !Array.isArray(x);

function fromV1(raw: Rec): unknown {
  switch (raw.e) {
    case 'order': {
      if (!isRec(raw.o)) return raw;
      const { pricePaise, triggerPaise, filledValuePaise, blockedPaise, history, ...rest } = raw.o;
      if (!Array.isArray(history)) throw new RecordDamage('an order without history');
      return {
        ...raw,
        o: {
          ...rest,
          priceUnits: unitsOrNull(pricePaise),
          triggerUnits: unitsOrNull(triggerPaise),
          filledValueUnits: units(filledValuePaise),
          blockedUnits: units(blockedPaise),
          history: history.map((h: unknown): HistoryEntry => {
            if (!isRec(h)) throw new RecordDamage('an order history entry is not an object');
            const { filledValuePaise: v, ...hr } = h;
            return { ...hr, filledValueUnits: units(v) } as unknown as HistoryEntry;
          }),
        },
      };
    }
    case 'trade': {
      if (!isRec(raw.t)) return raw;
      // Format 1 valued every trade at price × quantity: a multiplier of 1.
      const { pricePaise, ...rest } = raw.t;
      return { ...raw, t: { ...rest, priceUnits: units(pricePaise), multiplier: 1 } };
    }
    case 'marks': {
      if (!isRec(raw.prices)) return raw;
      const prices: Record<string, number> = {};
      for (const [token, paise] of Object.entries(raw.prices)) prices[token] = units(paise);
      return { ...raw, prices };
    }
    default:
      return raw;
  }
}

/**
 * Format-2 trades written before trades carried a multiplier were valued at price × quantity:
 * a multiplier of 1. (Format 3 always writes it.)
 */
function withTradeMultiplier(raw: Rec): Rec {
  if (raw.e !== 'trade' || !isRec(raw.t) || raw.t.multiplier !== undefined) return raw;
  return { ...raw, t: { ...raw.t, multiplier: 1 } };
}

/** The first schema complaint, in words: `o.status: Invalid option: expected one of …`. */
function describe(error: z.ZodError, event: unknown): string {
  const issue = error.issues[0];
  if (!issue) return 'not a record';
  const e = isRec(event) ? event.e : undefined;
  if (issue.code === 'invalid_union' && issue.path.join('.') === 'e') return `unknown event type ${JSON.stringify(e)}`;
  const where = issue.path.map(String).join('.');
  return where ? `${where}: ${issue.message}` : issue.message;
}

/** A decoded line: the event in the current format, and the format it was written in. */
export interface Decoded {
  readonly event: JournalEvent;
  readonly version: number;
}

/**
 * One line of the journal → the event in the current format. Throws `JournalFormatError` for a
 * newer format and `RecordDamage` (saying what is wrong) for anything this broker did not write.
 */
export function decodeLine(line: string): Decoded {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    throw new RecordDamage('not valid JSON');
  }
  if (!isRec(raw)) throw new RecordDamage('not a JSON object');
  const { v, c, ...rest } = raw;
  let version: number;
  let event: unknown;
  if (v === undefined) {
    version = 1;
    if (c !== undefined) throw new RecordDamage('a checksum on a format-1 record');
    event = fromV1(rest);
  } else if (v === 2) {
    version = 2;
    if (c !== undefined) throw new RecordDamage('a checksum on a format-2 record');
    event = withTradeMultiplier(rest);
  } else if (v === 3 || v === JOURNAL_VERSION) {
    version = v;
    if (typeof c !== 'string') throw new RecordDamage('no checksum');
    if (checksum(JSON.stringify({ v, ...rest })) !== c)
      throw new RecordDamage('the checksum does not match: the line was changed after it was written');
    event = rest;
  } else if (typeof v === 'number' && Number.isInteger(v) && v > JOURNAL_VERSION) {
    throw new JournalFormatError(
      `it holds a record in format ${JSON.stringify(v)}; this Tradedesk reads formats 1 to ${JOURNAL_VERSION}`,
    );
  } else {
    throw new RecordDamage(`an unknown format ${JSON.stringify(v)}`);
  }
  const parsed = EventRecord.safeParse(event);
  if (!parsed.success) throw new RecordDamage(describe(parsed.error, event));
  return { event: parsed.data as unknown as JournalEvent, version };
}

/** What one line mentions, read loosely (it may be damaged), for the repair report. */
export interface LineSketch {
  readonly e: string;
  /** The order the line is about (an order snapshot, or a trade's order). */
  readonly orderId?: string;
  /** The highest order, trade and GTT ids the line mentions (0 when none). */
  readonly highOrder: number;
  readonly highTrade: number;
  readonly highGtt: number;
}

/** A loose reading of a line that may be damaged; null when it is not even a JSON object with `e`. */
export function sketchLine(line: string): LineSketch | null {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isRec(raw) || typeof raw.e !== 'string') return null;
  const o = isRec(raw.o) ? raw.o : null;
  const t = isRec(raw.t) ? raw.t : null;
  const g = isRec(raw.g) ? raw.g : null;
  const id = (x: unknown): number => {
    const n = typeof x === 'string' || typeof x === 'number' ? Number(x) : NaN;
    return Number.isSafeInteger(n) && n > 0 ? n : 0;
  };
  const orderId = typeof o?.orderId === 'string' ? o.orderId : typeof t?.orderId === 'string' ? t.orderId : undefined;
  return {
    e: raw.e,
    ...(orderId !== undefined ? { orderId } : {}),
    highOrder: Math.max(id(o?.orderId), id(t?.orderId), raw.e === 'ids' ? id(raw.order) : 0),
    highTrade: Math.max(id(t?.tradeId), raw.e === 'ids' ? id(raw.trade) : 0),
    highGtt: id(g?.gttId),
  };
}

import type { Session } from './sessions';
import type { HistoryEntry, PaperOrder, PaperTrade } from './types';

/**
 * How journal events are written to and read from a line (docs/api.md §Persistence).
 *
 * Every record carries its format version `v`. Version 1 (records without `v`) stored money in
 * integer paise under `*Paise` names; version 2 stores integer units of ₹0.0001 under `*Units`
 * names. A version-1 record is converted on read (×100), so a journal written before the unit
 * change replays with the same rupee amounts — ₹100 stays ₹100. A record from a newer format is
 * refused as a whole journal: guessing at it could misread money.
 */

/** One thing that happened to the account, in the current format; replay folds them in order. */
export type JournalEvent =
  | { readonly e: 'session'; readonly s: Session }
  | { readonly e: 'session_end'; readonly token: string }
  | { readonly e: 'order'; readonly o: PaperOrder }
  | { readonly e: 'trade'; readonly t: PaperTrade }
  /**
   * Last prices (price units) of the instruments the account holds, written on a clean shutdown
   * at `at` (absent in format 1).
   */
  | { readonly e: 'marks'; readonly prices: Readonly<Record<string, number>>; readonly at?: number };

/** The format this broker writes. */
export const JOURNAL_VERSION = 2;

/** A journal this broker must not read (a newer format): starting on it could misread money. */
export class JournalFormatError extends Error {}

/** One event as one line of JSON (no newline). */
export function encodeEvent(event: JournalEvent): string {
  return JSON.stringify({ v: JOURNAL_VERSION, ...event });
}

/** Paise (format 1) → price units; a missing or non-numeric amount makes the line damaged. */
function units(paise: unknown): number {
  if (typeof paise !== 'number' || !Number.isFinite(paise)) throw new Error('damaged: amount is not a number');
  return paise * 100;
}

function unitsOrNull(paise: unknown): number | null {
  return paise === null ? null : units(paise);
}

type Rec = Record<string, unknown>;

function fromV1(raw: Rec): JournalEvent {
  switch (raw.e) {
    case 'session':
    case 'session_end':
      return raw as unknown as JournalEvent;
    case 'order': {
      const { pricePaise, triggerPaise, filledValuePaise, blockedPaise, history, ...rest } = raw.o as Rec;
      if (!Array.isArray(history)) throw new Error('damaged: order without history');
      const o = {
        ...rest,
        priceUnits: unitsOrNull(pricePaise),
        triggerUnits: unitsOrNull(triggerPaise),
        filledValueUnits: units(filledValuePaise),
        blockedUnits: units(blockedPaise),
        history: history.map((h: Rec): HistoryEntry => {
          const { filledValuePaise: v, ...hr } = h;
          return { ...hr, filledValueUnits: units(v) } as unknown as HistoryEntry;
        }),
      };
      return { e: 'order', o: o as unknown as PaperOrder };
    }
    case 'trade': {
      // Format 1 valued every trade at price × quantity: a multiplier of 1.
      const { pricePaise, ...rest } = raw.t as Rec;
      return { e: 'trade', t: { ...rest, priceUnits: units(pricePaise), multiplier: 1 } as unknown as PaperTrade };
    }
    case 'marks': {
      const prices: Record<string, number> = {};
      for (const [token, paise] of Object.entries(raw.prices as Rec)) prices[token] = units(paise);
      return { e: 'marks', prices };
    }
    default:
      throw new Error(`damaged: unknown event ${String(raw.e)}`);
  }
}

/**
 * One parsed line → the event in the current format. Throws `JournalFormatError` for a newer
 * format, and a plain Error for a damaged line (the caller skips it).
 */
export function decodeRecord(raw: unknown): JournalEvent {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('damaged: not an object');
  const { v, ...event } = raw as Rec;
  if (v === undefined) return fromV1(event);
  if (v === JOURNAL_VERSION) return event as unknown as JournalEvent;
  throw new JournalFormatError(
    `it holds a record in format ${JSON.stringify(v)}; this Tradedesk reads formats 1 and ${JOURNAL_VERSION}`,
  );
}

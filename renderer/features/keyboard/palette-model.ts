import type { Instrument } from '@shared/domain/instrument';
import type { TransactionType } from '@shared/domain/order';
import { searchInstruments } from '../ticket/instrument-search';

/**
 * What the command palette finds for what was typed (docs/desk.md §Command palette), without
 * React: actions whose label has every word typed, then instruments by symbol or name. "buy
 * infy" or "sell nifty fut" lists instruments that open a ticket on that side.
 */

/** An action the palette can run. */
export interface PaletteAction {
  readonly id: string;
  readonly label: string;
  /** Its shortcut, when it has one ("F1"). */
  readonly keys?: string;
  readonly run: () => void;
}

/** One result: an action, or an instrument to select (or to open a ticket for, on `side`). */
export type PaletteEntry =
  | { readonly kind: 'action'; readonly key: string; readonly action: PaletteAction }
  | {
      readonly kind: 'instrument';
      readonly key: string;
      readonly instrument: Instrument;
      readonly side: TransactionType | null;
    };

/** At most this many instruments in the list: enough to choose from, few enough to read. */
export const INSTRUMENT_RESULTS = 8;

const SIDE_WORD = /^(buy|sell)\s+(.*)$/i;

/** The palette's results for `text`, actions first. */
export function paletteEntries(
  text: string,
  actions: readonly PaletteAction[],
  instruments: readonly Instrument[],
): PaletteEntry[] {
  const q = text.trim();
  const sided = SIDE_WORD.exec(q);
  if (sided) {
    const side: TransactionType = sided[1]!.toLowerCase() === 'buy' ? 'BUY' : 'SELL';
    const rest = sided[2]!.trim();
    if (rest) return instrumentEntries(rest, instruments, side);
  }
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const found: PaletteEntry[] = actions
    .filter((a) => words.every((w) => a.label.toLowerCase().includes(w)))
    .map((action) => ({ kind: 'action', key: `action:${action.id}`, action }));
  return q ? [...found, ...instrumentEntries(q, instruments, null)] : found;
}

function instrumentEntries(
  text: string,
  instruments: readonly Instrument[],
  side: TransactionType | null,
): PaletteEntry[] {
  return searchInstruments(instruments, text, INSTRUMENT_RESULTS).map((instrument) => ({
    kind: 'instrument',
    key: `instrument:${instrument.instrumentToken}:${side ?? ''}`,
    instrument,
    side,
  }));
}

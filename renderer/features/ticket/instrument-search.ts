import type { Exchange, Instrument } from '@shared/domain/instrument';
import { compareDerivatives, instrumentLabel } from '@shared/domain/instrument-label';

/** Where a symbol trades in several places, the busiest market first (NSE before BSE). */
const EXCHANGE_ORDER: readonly Exchange[] = ['NSE', 'BSE', 'NFO', 'BFO', 'MCX', 'CDS'];

/**
 * Ranks instruments for a search box: symbol prefix first, then symbol substring, then name
 * substring; within a rank an underlying's contracts by expiry, strike and type (26DEC, 27JAN,
 * 27FEB — not their codes' alphabet), else shorter symbols first (INFY before INFYBEES), NSE
 * before BSE. A contract also matches the words of its label ("nifty dec 26000 ce",
 * docs/desk.md §Instrument names). Pure and bounded by `limit`, so typing stays instant over tens
 * of thousands of contracts.
 */
export function searchInstruments(list: readonly Instrument[], text: string, limit = 50): Instrument[] {
  const q = text.trim().toUpperCase();
  if (!q) return list.slice(0, limit);
  const words = q.split(/\s+/);
  const scored: Array<{ i: Instrument; rank: number }> = [];
  for (const i of list) {
    const sym = i.tradingsymbol.toUpperCase();
    const label = i.expiry === null ? '' : instrumentLabel(i).toUpperCase();
    const hay = `${sym} ${label} ${i.name.toUpperCase()} ${i.exchange}`;
    if (!words.every((w) => hay.includes(w))) continue;
    const rank = sym === q ? 0 : sym.startsWith(words[0] ?? q) ? 1 : sym.includes(words[0] ?? q) ? 2 : 3;
    scored.push({ i, rank });
  }
  scored.sort(
    (a, b) =>
      a.rank - b.rank ||
      (compareDerivatives(a.i, b.i) ?? 0) ||
      a.i.tradingsymbol.length - b.i.tradingsymbol.length ||
      (a.i.tradingsymbol < b.i.tradingsymbol ? -1 : a.i.tradingsymbol > b.i.tradingsymbol ? 1 : 0) ||
      EXCHANGE_ORDER.indexOf(a.i.exchange) - EXCHANGE_ORDER.indexOf(b.i.exchange),
  );
  return scored.slice(0, limit).map((s) => s.i);
}

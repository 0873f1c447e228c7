import type { Instrument } from '@shared/domain/instrument';
import type { OptionChainRow } from '@shared/domain/market';

/**
 * The option chain in a trader's terms, without React (docs/renderer.md, "Market depth,
 * sessions and the option chain on screen").
 */

/** Indices first, in the order traders rank them; then every other underlying alphabetically. */
const INDEX_ORDER = ['NIFTY', 'BANKNIFTY', 'FINNIFTY', 'MIDCPNIFTY', 'SENSEX'];

/** Every underlying the instrument list has options on (its `name`), indices first. */
export function underlyingsOf(instruments: readonly Instrument[]): string[] {
  const names = new Set<string>();
  for (const i of instruments) if (i.instrumentType === 'CE' || i.instrumentType === 'PE') names.add(i.name);
  const rank = (n: string): number => {
    const k = INDEX_ORDER.indexOf(n);
    return k < 0 ? INDEX_ORDER.length : k;
  };
  return [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * A call is in the money below the underlying's price, a put above it (at the money, neither):
 * the chain shades those cells, as every chain does.
 */
export function inTheMoney(kind: 'call' | 'put', strike: number, underlyingPrice: number): boolean {
  return kind === 'call' ? strike < underlyingPrice : strike > underlyingPrice;
}

/**
 * Where the underlying's price falls among the rows (lowest strike first): the index of the
 * first strike above it, where the chain draws its "spot" line. `rows.length` when every strike
 * is at or below it.
 */
export function spotIndex(rows: readonly OptionChainRow[], underlyingPrice: number): number {
  const k = rows.findIndex((r) => r.strike > underlyingPrice);
  return k < 0 ? rows.length : k;
}

const DECIMALS_2 = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const GROUPED = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 });

/**
 * Open interest as Indian chains print it: up to 99,999 in full, then in lakhs (42.81L) and
 * crores (1.25Cr), so the column stays narrow.
 */
export function formatOi(oi: number): string {
  if (oi >= 1e7) return `${DECIMALS_2.format(oi / 1e7)}Cr`;
  if (oi >= 1e5) return `${DECIMALS_2.format(oi / 1e5)}L`;
  return GROUPED.format(oi);
}

/** Delta to two places with a true minus sign (−0.47): it reads at a glance as "the put side". */
export function formatDelta(delta: number): string {
  const text = Math.abs(delta).toFixed(2);
  return delta < 0 && text !== '0.00' ? `−${text}` : text;
}

/** A signed change (+12.30 / −1.90 / 0.00) that reads without colour. */
export function formatChange(change: number): string {
  const text = DECIMALS_2.format(Math.abs(change));
  return change > 0 ? `+${text}` : change < 0 ? `−${text}` : text;
}

const EXPIRY = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' });
const EXPIRY_YEAR = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: '2-digit',
});

/** "1 Dec", or "25 Jan 27" for an expiry in another year than `nearest` (the chain's first). */
export function formatExpiry(expiry: string, nearest: string): string {
  const at = Date.parse(`${expiry}T00:00:00Z`);
  if (!Number.isFinite(at)) return expiry;
  return expiry.slice(0, 4) === nearest.slice(0, 4) ? EXPIRY.format(at) : EXPIRY_YEAR.format(at);
}

/** Open interest's change with its sign written out (+61.50K reads as a build-up without colour). */
export function formatOiChange(change: number | null): string {
  if (change === null) return '–';
  const text = formatOi(Math.abs(change));
  return change > 0 ? `+${text}` : change < 0 ? `−${text}` : text;
}

/**
 * The put–call ratio of the strikes shown: puts' open interest over calls'. Above 1 more puts are
 * open than calls. Null when no call has open interest.
 */
export function putCallRatio(rows: readonly OptionChainRow[]): number | null {
  let calls = 0;
  let puts = 0;
  for (const r of rows) {
    calls += r.call?.oi ?? 0;
    puts += r.put?.oi ?? 0;
  }
  return calls > 0 ? puts / calls : null;
}

/**
 * Max pain of the strikes shown: the strike at which, were the underlying to expire there, the
 * options' holders would be paid the least in all (Σ call OI × (X − K)⁺ + Σ put OI × (K − X)⁺).
 * The lowest such strike on a tie; null without open interest.
 */
export function maxPain(rows: readonly OptionChainRow[]): number | null {
  let best: number | null = null;
  let least = Number.POSITIVE_INFINITY;
  let any = false;
  for (const at of rows) {
    let paid = 0;
    for (const r of rows) {
      const callOi = r.call?.oi ?? 0;
      const putOi = r.put?.oi ?? 0;
      if (callOi > 0 || putOi > 0) any = true;
      paid += callOi * Math.max(0, at.strike - r.strike) + putOi * Math.max(0, r.strike - at.strike);
    }
    if (paid < least) {
      least = paid;
      best = at.strike;
    }
  }
  return any ? best : null;
}

import type { Instrument } from './instrument';

/**
 * How a trader reads a contract (docs/desk.md §Instrument names): a derivative by its underlying,
 * expiry, strike and type — "NIFTY 1 Dec 26000 CE", "NIFTY 30 Dec FUT" — rather than its exchange
 * code (NIFTY26D0126000CE), which screens keep in a tooltip. The year is shown when it is not
 * `today`'s (an IST date, `YYYY-MM-DD`), so next December's contract does not read as this one's.
 * An equity is its symbol.
 */
export function instrumentLabel(
  i: Pick<Instrument, 'tradingsymbol' | 'name' | 'instrumentType' | 'expiry' | 'strike'>,
  today?: string,
): string {
  if (i.instrumentType === 'EQ' || i.expiry === null || i.name === '') return i.tradingsymbol;
  const [y, m, d] = i.expiry.split('-').map(Number);
  const month = MONTHS[(m ?? 1) - 1] ?? '';
  const year = today !== undefined && today.slice(0, 4) !== String(y) ? ` ${y}` : '';
  const date = `${d} ${month}${year}`;
  if (i.instrumentType === 'FUT') return `${i.name} ${date} FUT`;
  return `${i.name} ${date} ${i.strike ?? ''} ${i.instrumentType}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * Orders contracts of one underlying as a trader scans them: by expiry (nearest first), then
 * futures before options, then strike, then calls before puts. Null (not comparable) when either is
 * not a derivative or they have different underlyings.
 */
export function compareDerivatives(
  a: Pick<Instrument, 'name' | 'instrumentType' | 'expiry' | 'strike'>,
  b: Pick<Instrument, 'name' | 'instrumentType' | 'expiry' | 'strike'>,
): number | null {
  if (a.expiry === null || b.expiry === null || a.name !== b.name) return null;
  if (a.expiry !== b.expiry) return a.expiry < b.expiry ? -1 : 1;
  const typeRank = (t: Instrument['instrumentType']): number => (t === 'FUT' ? 0 : t === 'CE' ? 2 : 3);
  const fut = Number(a.instrumentType !== 'FUT') - Number(b.instrumentType !== 'FUT');
  if (fut !== 0) return fut;
  const strike = (a.strike ?? 0) - (b.strike ?? 0);
  if (strike !== 0) return strike;
  return typeRank(a.instrumentType) - typeRank(b.instrumentType);
}

import type { Instrument } from '@shared/domain/instrument';
import { expiryInstant } from '@shared/trading/market-hours';
import { spotFromFuture, yearsTo } from '@shared/trading/options-pricing';

/**
 * Where the desk reads an underlying's price live (docs/strategy.md §Live): a stock from its NSE
 * listing's ticks; an index or a commodity — not traded itself — from its nearest future's ticks,
 * less the carry to that future's expiry (the paper market's own relation, docs/api.md §Prices).
 * The option chain's `underlyingPrice` is the fallback until a tick arrives.
 */
export function spotSource(underlying: string, list: readonly Instrument[], now: number): Instrument | null {
  const stock = list.find((i) => i.exchange === 'NSE' && i.instrumentType === 'EQ' && i.tradingsymbol === underlying);
  if (stock) return stock;
  let nearest: Instrument | null = null;
  for (const i of list) {
    if (i.name !== underlying || i.instrumentType !== 'FUT' || i.expiry === null) continue;
    if (expiryInstant(i.exchange, i.expiry) <= now) continue;
    if (!nearest || (nearest.expiry ?? '') > i.expiry) nearest = i;
  }
  return nearest;
}

/** The underlying's price from its source's last price at `now`; null without one. */
export function spotFrom(source: Instrument | null, lastPrice: number | undefined, now: number): number | null {
  if (!source || lastPrice === undefined || lastPrice <= 0) return null;
  if (source.instrumentType !== 'FUT' || source.expiry === null) return lastPrice;
  return spotFromFuture(lastPrice, yearsTo(expiryInstant(source.exchange, source.expiry), now));
}

import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Instrument } from '@shared/domain/instrument';
import type { OptionChain } from '@shared/domain/market';
import { analyseStrategy, type StrategyAnalysis } from '@shared/strategy/strategy-model';
import { expiryInstant } from '@shared/trading/market-hours';
import { greeks, yearsTo } from '@shared/trading/options-pricing';
import { useInstruments } from '../instruments/queries';
import { useClock } from '../../lib/use-now';
import { useMarketSubscription } from '../market/use-market-subscription';
import { useQuotes } from '../market/use-quotes';
import { optionQueries } from '../options/queries';
import { legVolatility, modelLegs, type BuilderLeg } from './builder-model';
import type { WhatIf } from './strategy-store';
import { spotFrom, spotSource } from './underlying-spot';

/** How many prices each payoff curve is drawn through. */
export const CURVE_POINTS = 161;

const DAY_MS = 86_400_000;

/** One leg as the table shows it, live. */
export interface LegRow {
  readonly leg: BuilderLeg;
  readonly lastPrice: number | undefined;
  /** The IV it is valued at (a fraction), null when none could be had (it is left out). */
  readonly iv: number | null;
  /** Per unit, at the live spot and now. */
  readonly delta: number | null;
}

/** What the builder draws, recomputed on every tick of a leg or the underlying. */
export interface StrategyView {
  readonly instruments: { readonly list: readonly Instrument[]; readonly byToken: ReadonlyMap<number, Instrument> };
  /** Chains of the legs' expiries (and the template expiry's), by expiry. */
  readonly chains: ReadonlyMap<string, OptionChain>;
  /** The chain of `chainExpiry` (the nearest when null) once read. */
  readonly chain: OptionChain | undefined;
  readonly chainError: unknown;
  /** The underlying's live price; null until known. */
  readonly spot: number | null;
  /** Where the spot came from: a tick of the underlying (or its future), or the chain's last read. */
  readonly spotFrom: 'stream' | 'chain' | null;
  /** The market clock's time the figures are for. */
  readonly now: number;
  readonly rows: readonly LegRow[];
  /** The what-if's spot and target date. */
  readonly whatIfSpot: number | null;
  readonly targetAt: number;
  /** The at-the-money IV of the near expiry (the distribution the probability of profit uses). */
  readonly atmVol: number | null;
  /** Null until there is a spot and at least one leg with an IV. */
  readonly analysis: StrategyAnalysis | null;
  /** The legs' P&L at their live prices (entry to last), where every leg has one. */
  readonly pnlNow: number | null;
}

/**
 * The strategy builder's market and figures (docs/strategy.md §Live): the legs' contracts and the
 * underlying stream (owner `strategy`); the option chains give each leg its IV; every tick
 * recomputes the payoff, the figures and the Greeks with the shared model.
 */
export function useStrategyView(
  underlying: string,
  legs: readonly BuilderLeg[],
  whatIf: WhatIf,
  chainExpiry: string | null,
  /** One more expiry to read the chain of (a calendar template's far leg). */
  extraExpiry: string | null = null,
): StrategyView {
  const instruments = useInstruments();
  const clock = useClock();
  const quotes = useQuotes();
  const expiries = [...new Set(legs.filter((l) => l.kind !== 'FUT').map((l) => l.expiry))].sort();
  const wanted: (string | null)[] = [
    chainExpiry,
    ...[...expiries, ...(extraExpiry ? [extraExpiry] : [])].filter(
      (e, n, all) => e !== chainExpiry && all.indexOf(e) === n,
    ),
  ];
  const results = useQueries({ queries: wanted.map((e) => optionQueries.chain(underlying, e)) });
  const chains = new Map<string, OptionChain>();
  for (const r of results) if (r.data) chains.set(r.data.expiry, r.data);
  const chain = results[0]?.data;

  // The market clock's "now": the newest of the chain's read and the legs' ticks.
  let now = chain ? Date.parse(chain.ts) : 0;
  for (const leg of legs) {
    const ts = quotes[leg.instrumentToken]?.ts;
    if (ts) now = Math.max(now, Date.parse(ts));
  }
  if (now === 0) now = clock.now();

  const source = spotSource(underlying, instruments.list, now);
  useMarketSubscription('strategy', [
    ...legs.map((l) => l.instrumentToken),
    ...(source ? [source.instrumentToken] : []),
  ]);
  const live = spotFrom(source, source ? quotes[source.instrumentToken]?.lastPrice : undefined, now);
  const spot = live ?? chain?.underlyingPrice ?? null;

  const atm = chain?.rows.find((r) => r.strike === chain.atmStrike);
  const atmIvs = [atm?.call?.iv, atm?.put?.iv].filter((v): v is number => v !== undefined && v > 0);
  const atmVol = atmIvs.length ? atmIvs.reduce((a, b) => a + b, 0) / atmIvs.length / 100 : null;

  const rows: LegRow[] = legs.map((leg) => {
    const lastPrice = quotes[leg.instrumentToken]?.lastPrice;
    const iv = spot === null ? null : legVolatility(leg, chains, spot, lastPrice, now);
    const years = yearsTo(expiryInstant(leg.exchange, leg.expiry), now);
    const delta =
      spot === null || iv === null
        ? null
        : leg.kind === 'FUT'
          ? 1
          : greeks(leg.kind, spot, leg.strike, years, iv).delta;
    return { leg, lastPrice, iv, delta };
  });
  const whatIfSpot = spot === null ? null : spot * (1 + whatIf.spotPct / 100);
  const targetAt = now + whatIf.days * DAY_MS;
  const ivKey = rows.map((r) => r.iv ?? 'x').join(',');
  const analysis = useMemo(() => {
    if (whatIfSpot === null) return null;
    const model = modelLegs(
      rows.map((r) => r.leg),
      (leg) => rows.find((r) => r.leg === leg)?.iv ?? null,
    );
    if (model.length === 0) return null;
    return analyseStrategy(model, {
      spot: whatIfSpot,
      now,
      vol: atmVol === null ? null : Math.max(0.0001, atmVol + whatIf.ivPoints / 100),
      targetAt,
      ivShift: whatIf.ivPoints / 100,
      points: CURVE_POINTS,
    });
    // `rows` is rebuilt each render; what it carries into the model is the legs and their IVs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [legs, ivKey, whatIfSpot, now, atmVol, targetAt, whatIf.ivPoints]);

  let pnlNow: number | null = 0;
  for (const r of rows) {
    if (r.lastPrice === undefined || pnlNow === null) {
      pnlNow = null;
      continue;
    }
    pnlNow +=
      (r.leg.side === 'BUY' ? 1 : -1) * (r.lastPrice - r.leg.price) * r.leg.lots * r.leg.lotSize * r.leg.multiplier;
  }

  return {
    instruments,
    chains,
    chain,
    chainError: results[0]?.error ?? null,
    spot,
    spotFrom: live !== null ? 'stream' : spot !== null ? 'chain' : null,
    now,
    rows,
    whatIfSpot,
    targetAt,
    atmVol,
    analysis,
    pnlNow: legs.length ? pnlNow : null,
  };
}

import type { Instrument } from '@shared/domain/instrument';
import type { Position } from '@shared/domain/portfolio';
import { netGreeks, type NetGreeks } from '@shared/strategy/strategy-model';
import { markPosition } from '../portfolio/position-pnl';
import { isDerivative, legVolatility, modelLegs, positionLegs } from './builder-model';
import { spotFrom, spotSource } from './underlying-spot';

/** An underlying's open positions together (docs/strategy.md §From positions). */
export interface PositionGroup {
  readonly underlying: string;
  readonly positions: number;
  /** Its live price (a stock's, an index's from its future); null until known. */
  readonly spot: number | null;
  /** Net Greeks in rupees (Δ, Γ per point; Θ a day; vega an IV point); null without a spot. */
  readonly greeks: NetGreeks | null;
  /** Legs whose volatility could not be had (no price), left out of the Greeks. */
  readonly missing: number;
  /** Total P&L at the latest prices. */
  readonly pnl: number;
  /** Whether it holds options or futures: a payoff can be drawn. */
  readonly derivatives: boolean;
}

/**
 * Open positions grouped by underlying with their net Greeks (docs/strategy.md §From positions):
 * a derivative under its underlying's name, valued at the IV its own price implies by the shared
 * model; a stock under its symbol, one rupee of delta a share.
 */
export function positionGroups(
  positions: readonly Position[],
  byToken: ReadonlyMap<number, Instrument>,
  list: readonly Instrument[],
  lastPrice: (token: number) => number | undefined,
  now: number,
): PositionGroup[] {
  return [...byUnderlying(positions, byToken)].map(([underlying, held]) => {
    const pnl = held.reduce((sum, p) => sum + markPosition(p, lastPrice(p.instrumentToken)).pnl, 0);
    const derivatives = holdsDerivatives(held, byToken);
    if (!derivatives) {
      const delta = held.reduce((d, p) => d + p.quantity * p.multiplier, 0);
      const spot = lastPrice(held[0]!.instrumentToken) ?? held[0]!.lastPrice;
      return {
        underlying,
        positions: held.length,
        spot,
        greeks: { delta, gamma: 0, theta: 0, vega: 0 },
        missing: 0,
        pnl,
        derivatives,
      };
    }
    const source = spotSource(underlying, list, now);
    const spot = spotFrom(source, source ? lastPrice(source.instrumentToken) : undefined, now);
    const { legs } = positionLegs(held, underlying, byToken);
    if (spot === null) return { underlying, positions: held.length, spot, greeks: null, missing: 0, pnl, derivatives };
    let missing = 0;
    const model = modelLegs(legs, (leg) => {
      const iv = legVolatility(leg, new Map(), spot, lastPrice(leg.instrumentToken), now);
      if (iv === null) missing++;
      return iv;
    });
    return { underlying, positions: held.length, spot, greeks: netGreeks(model, spot, now), missing, pnl, derivatives };
  });
}

/**
 * The instruments whose ticks price the groups holding derivatives (`spotSource`): none of them
 * need be a position, so a view of the groups listens to them beside the positions' own.
 */
export function groupSpotSources(
  positions: readonly Position[],
  byToken: ReadonlyMap<number, Instrument>,
  list: readonly Instrument[],
  now: number,
): number[] {
  const tokens: number[] = [];
  for (const [underlying, held] of byUnderlying(positions, byToken)) {
    const source = holdsDerivatives(held, byToken) ? spotSource(underlying, list, now) : null;
    if (source) tokens.push(source.instrumentToken);
  }
  return tokens;
}

/** The open positions by underlying, in the order each first appears. */
function byUnderlying(
  positions: readonly Position[],
  byToken: ReadonlyMap<number, Instrument>,
): Map<string, Position[]> {
  const members = new Map<string, Position[]>();
  for (const p of positions) {
    if (p.quantity === 0) continue;
    const i = byToken.get(p.instrumentToken);
    const name = i && isDerivative(i) ? i.name : p.tradingsymbol;
    const held = members.get(name);
    if (held) held.push(p);
    else members.set(name, [p]);
  }
  return members;
}

function holdsDerivatives(held: readonly Position[], byToken: ReadonlyMap<number, Instrument>): boolean {
  return held.some((p) => {
    const i = byToken.get(p.instrumentToken);
    return i !== undefined && isDerivative(i);
  });
}

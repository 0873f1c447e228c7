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
  const names: string[] = [];
  const members = new Map<string, Position[]>();
  for (const p of positions) {
    if (p.quantity === 0) continue;
    const i = byToken.get(p.instrumentToken);
    const name = i && isDerivative(i) ? i.name : p.tradingsymbol;
    if (!members.has(name)) {
      names.push(name);
      members.set(name, []);
    }
    members.get(name)!.push(p);
  }
  return names.map((underlying) => {
    const held = members.get(underlying)!;
    const pnl = held.reduce((sum, p) => sum + markPosition(p, lastPrice(p.instrumentToken)).pnl, 0);
    const derivatives = held.some((p) => {
      const i = byToken.get(p.instrumentToken);
      return i !== undefined && isDerivative(i);
    });
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

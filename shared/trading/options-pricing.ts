/**
 * Derivative pricing, the one model both sides use (docs/api.md §Prices): futures from their
 * underlying with a carry basis, options by Black–Scholes on the forward with an
 * implied-volatility smile, the implied volatility and delta the option chain reports, and the
 * Greeks the strategy builder shows (docs/strategy.md §Pricing and the Greeks). The paper market
 * prices its contracts with it and the strategy builder values legs with it, so a payoff drawn on
 * the desk is what the paper market will pay. Pure functions in rupees and years.
 */

/** Carry of a future over its underlying, a year. */
export const CARRY_RATE = 0.07;

const YEAR_DAYS = 365;
const MS_PER_YEAR = YEAR_DAYS * 24 * 60 * 60 * 1000;

/** Years from `now` to `expiryMs` (never negative). */
export function yearsTo(expiryMs: number, now: number): number {
  return Math.max(0, expiryMs - now) / MS_PER_YEAR;
}

/** A future's fair price: spot × (1 + carry × years to expiry). */
export function futurePrice(spot: number, years: number): number {
  return spot * (1 + CARRY_RATE * years);
}

/**
 * The underlying's price a future implies: its price less the carry to its expiry (the inverse of
 * `futurePrice`). How the desk reads an index — which is not itself traded — from its future.
 */
export function spotFromFuture(future: number, years: number): number {
  return future / (1 + CARRY_RATE * years);
}

/** The standard normal density. */
export function normPdf(x: number): number {
  return 0.3989422804014327 * Math.exp((-x * x) / 2);
}

/** The standard normal CDF (Abramowitz–Stegun 26.2.17, |error| < 7.5e-8). */
export function normCdf(x: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(x));
  const d = 0.3989422804014327 * Math.exp((-x * x) / 2);
  const p = d * t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return x > 0 ? 1 - p : p;
}

/** At-the-money volatility by kind of underlying. */
export const ATM_VOL = { index: 0.14, stock: 0.3, commodity: 0.35 } as const;

/**
 * The volatility smile: σ(K) = σ_ATM × (1 + 0.8 m² − 0.3 m), m = ln(K ÷ S₀), floored at a third
 * of σ_ATM, where S₀ is the underlying's price when the series was listed. Out-of-the-money puts
 * (low strikes) carry more volatility than calls, as on the exchange. The smile sticks to the
 * strike, so a contract's volatility does not move with the underlying and its premium moves the
 * way a trader expects: calls up and puts down when the underlying rises.
 */
export function smileVol(atmVol: number, strike: number, listedAt: number): number {
  const m = Math.log(strike / listedAt);
  return Math.max(atmVol / 3, atmVol * (1 + 0.8 * m * m - 0.3 * m));
}

/** Intrinsic value: what the option is worth at expiry. */
export function intrinsic(type: 'CE' | 'PE', spot: number, strike: number): number {
  return Math.max(0, type === 'CE' ? spot - strike : strike - spot);
}

/** Black–Scholes premium (no rates, no dividends: the forward is the spot). */
export function blackScholes(type: 'CE' | 'PE', spot: number, strike: number, years: number, vol: number): number {
  if (years <= 0 || vol <= 0) return intrinsic(type, spot, strike);
  const sd = vol * Math.sqrt(years);
  const d1 = (Math.log(spot / strike) + (sd * sd) / 2) / sd;
  const call = spot * normCdf(d1) - strike * normCdf(d1 - sd);
  return type === 'CE' ? call : call - spot + strike;
}

/** Delta at a volatility: N(d1) for a call, N(d1) − 1 for a put; at expiry 1/0 (or 0/−1). */
export function delta(type: 'CE' | 'PE', spot: number, strike: number, years: number, vol: number): number {
  if (years <= 0 || vol <= 0) {
    const itm = type === 'CE' ? spot > strike : spot < strike;
    return itm ? (type === 'CE' ? 1 : -1) : 0;
  }
  const sd = vol * Math.sqrt(years);
  const d1 = (Math.log(spot / strike) + (sd * sd) / 2) / sd;
  return type === 'CE' ? normCdf(d1) : normCdf(d1) - 1;
}

/**
 * The volatility at which Black–Scholes gives `premium` (bisection, to 1e-6), or 0 when the
 * premium is at or below intrinsic value (nothing is left for volatility to explain).
 */
export function impliedVol(type: 'CE' | 'PE', premium: number, spot: number, strike: number, years: number): number {
  if (years <= 0 || premium <= intrinsic(type, spot, strike)) return 0;
  let lo = 0;
  let hi = 5;
  if (blackScholes(type, spot, strike, years, hi) < premium) return hi;
  for (let i = 0; i < 60 && hi - lo > 1e-6; i++) {
    const mid = (lo + hi) / 2;
    if (blackScholes(type, spot, strike, years, mid) < premium) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * An option's model value on its underlying: Black–Scholes on the forward to its expiry (spot ×
 * the futures' carry), as the paper market prices it (docs/api.md §Prices).
 */
export function modelPremium(type: 'CE' | 'PE', spot: number, strike: number, years: number, vol: number): number {
  return blackScholes(type, futurePrice(spot, years), strike, years, vol);
}

/**
 * Sensitivities of `modelPremium`, per unit of the option (docs/strategy.md §Pricing and the
 * Greeks):
 * - `delta`: ∂premium/∂spot, the forward's carry included (N(d1)·(1 + c·T) for a call);
 * - `gamma`: ∂²premium/∂spot²;
 * - `theta`: what one calendar day passing does to the premium, rupees (negative for a long
 *   option), counting that the forward falls back to the spot as expiry nears;
 * - `vega`: rupees per one percentage point of volatility (14% → 15%).
 * At expiry (or with no volatility) an option is its intrinsic value: delta is 1, −1 or 0 and
 * the rest 0.
 */
export interface Greeks {
  readonly delta: number;
  readonly gamma: number;
  readonly theta: number;
  readonly vega: number;
}

export function greeks(type: 'CE' | 'PE', spot: number, strike: number, years: number, vol: number): Greeks {
  if (years <= 0 || vol <= 0 || spot <= 0 || strike <= 0) {
    return { delta: expiryDelta(type, spot, strike), gamma: 0, theta: 0, vega: 0 };
  }
  const carry = 1 + CARRY_RATE * years;
  const forward = spot * carry;
  const root = Math.sqrt(years);
  const sd = vol * root;
  const d1 = (Math.log(forward / strike) + (sd * sd) / 2) / sd;
  const density = normPdf(d1);
  const onForward = type === 'CE' ? normCdf(d1) : normCdf(d1) - 1;
  // ∂premium/∂T at a fixed forward, and the forward's own drift in T (∂F/∂T = spot × carry rate).
  const decay = (forward * density * vol) / (2 * root);
  return {
    delta: onForward * carry,
    gamma: (density / (forward * sd)) * carry * carry,
    theta: -(decay + onForward * spot * CARRY_RATE) / YEAR_DAYS,
    vega: (forward * density * root) / 100,
  };
}

/** Delta at expiry: 1 for a call in the money, −1 for a put in the money, else 0. */
function expiryDelta(type: 'CE' | 'PE', spot: number, strike: number): number {
  if (type === 'CE') return spot > strike ? 1 : 0;
  return spot < strike ? -1 : 0;
}

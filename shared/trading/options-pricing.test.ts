import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blackScholes,
  delta,
  futurePrice,
  greeks,
  impliedVol,
  intrinsic,
  modelPremium,
  smileVol,
  spotFromFuture,
} from './options-pricing';

/**
 * Option and future pricing, the one model of the paper market and the strategy builder
 * (docs/api.md §Prices, docs/strategy.md §Pricing and the Greeks): what a trader expects of
 * premiums whatever the inputs, as properties; put–call parity; and figures computed
 * independently of this code.
 */

const spot = fc.double({ min: 50, max: 150_000, noNaN: true });
const moneyness = fc.double({ min: 0.5, max: 1.5, noNaN: true });
const years = fc.double({ min: 1 / 365 / 24, max: 1, noNaN: true });
const atm = fc.constantFrom(0.14, 0.3, 0.35);

describe('option pricing', () => {
  it('a call never falls and a put never rises when the underlying rises, at every strike, expiry and smile', () => {
    fc.assert(
      fc.property(spot, moneyness, years, atm, fc.double({ min: 0.0001, max: 0.05, noNaN: true }), (s, m, t, v, up) => {
        const strike = s * m;
        // The smile is around the price the series was listed at (here: s).
        const price = (type: 'CE' | 'PE', x: number): number =>
          blackScholes(type, futurePrice(x, t), strike, t, smileVol(v, strike, s));
        const higher = s * (1 + up);
        expect(price('CE', higher)).toBeGreaterThanOrEqual(price('CE', s) - 1e-9 * s);
        expect(price('PE', higher)).toBeLessThanOrEqual(price('PE', s) + 1e-9 * s);
      }),
      { numRuns: 2000 },
    );
  });

  it('premiums are never below intrinsic value', () => {
    fc.assert(
      fc.property(spot, moneyness, years, atm, (s, m, t, v) => {
        const k = s * m;
        const vol = smileVol(v, k, s);
        expect(blackScholes('CE', s, k, t, vol)).toBeGreaterThanOrEqual(intrinsic('CE', s, k) - 1e-9 * s);
        expect(blackScholes('PE', s, k, t, vol)).toBeGreaterThanOrEqual(intrinsic('PE', s, k) - 1e-9 * s);
      }),
    );
  });

  it('out-of-the-money puts carry more volatility than calls as far out, and more the lower their strike', () => {
    // How far from the listing price, as a log distance: 0.1 % to 70 % either side.
    const out = fc.double({ min: 0.001, max: 0.7, noNaN: true });
    fc.assert(
      fc.property(spot, atm, out, out, (s, v, x, y) => {
        const put = (d: number): number => smileVol(v, s * Math.exp(-d), s);
        const call = (d: number): number => smileVol(v, s * Math.exp(d), s);
        expect(put(x)).toBeGreaterThan(call(x));
        fc.pre(Math.abs(x - y) > 1e-6);
        const [near, far] = x < y ? [x, y] : [y, x];
        expect(put(far)).toBeGreaterThan(put(near));
      }),
      { numRuns: 2000 },
    );
  });

  it('the implied volatility of a premium is the volatility that priced it', () => {
    fc.assert(
      fc.property(
        spot,
        fc.double({ min: 0.8, max: 1.2, noNaN: true }),
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        fc.double({ min: 0.05, max: 0.8, noNaN: true }),
        (s, m, t, v) => {
          const k = s * m;
          const p = blackScholes('CE', s, k, t, v);
          // Deep in or out of the money the premium barely depends on volatility: skip those.
          fc.pre(p - intrinsic('CE', s, k) > s * 1e-4);
          expect(impliedVol('CE', p, s, k, t)).toBeCloseTo(v, 3);
        },
      ),
    );
  });

  it('calls have deltas in 0…1 falling with the strike, puts in −1…0', () => {
    const d = [24000, 25000, 26000, 27000].map((k) => delta('CE', 25_900, k, 10 / 365, 0.14));
    expect(d).toEqual([...d].sort((a, b) => b - a));
    for (const x of d) expect(x).toBeGreaterThanOrEqual(0);
    expect(delta('PE', 25_900, 25_900, 10 / 365, 0.14)).toBeCloseTo(
      delta('CE', 25_900, 25_900, 10 / 365, 0.14) - 1,
      10,
    );
    expect(delta('CE', 25_900, 25_000, 0, 0.14)).toBe(1);
  });

  it('a future trades at a premium to spot that shrinks to nothing at expiry, and gives the spot back', () => {
    expect(futurePrice(100, 0.5)).toBeCloseTo(103.5, 10);
    expect(futurePrice(100, 0)).toBe(100);
    expect(spotFromFuture(futurePrice(25_912.35, 0.1), 0.1)).toBeCloseTo(25_912.35, 9);
  });
});

/**
 * Reference figures computed outside this code base, in Python with mpmath 1.3.0 at 30 digits:
 * Black's (1976) formula on the forward with no discounting, and the Greeks by mpmath's numerical
 * differentiation of that price in the spot (forward = spot × (1 + 0.07 × T)). The script:
 *
 *   from mpmath import mp, mpf, ncdf, log, sqrt, diff; mp.dps = 30
 *   def black(kind, F, K, T, v):
 *       F, K, T, v = mpf(F), mpf(K), mpf(T), mpf(v); sd = v * sqrt(T)
 *       d1 = (log(F / K) + sd * sd / 2) / sd; c = F * ncdf(d1) - K * ncdf(d1 - sd)
 *       return c if kind == 'CE' else c - F + K
 *   def model(kind, S, K, T, v): return black(kind, mpf(S) * (1 + mpf('0.07') * mpf(T)), K, T, v)
 *   delta = diff(lambda s: model(kind, s, K, T, v), S); gamma = diff(…, S, 2)
 *   theta = -diff(lambda t: model(kind, S, K, t, v), T) / 365; vega = diff(lambda x: …, v) / 100
 *
 * Two of them are textbook examples with the discounting taken out (this model has no rates):
 * - Hull, "Options, Futures, and Other Derivatives", the worked example of Black's model: a put on
 *   a crude-oil future, F = K = 20, T = 4 months, σ = 25%, r = 9%, worth 1.12 — here 1.1506, and
 *   1.1506 × e^(−0.09 × 4/12) = 1.1166;
 * - Haug, "The Complete Guide to Option Pricing Formulas" (2nd ed.), the Black-76 example:
 *   F = K = 19, T = 0.75, σ = 28%, r = 10%, call and put 1.7011 — here 1.8335, and
 *   1.8335 × e^(−0.075) = 1.7010.
 */
const REFERENCE: ReadonlyArray<readonly ['CE' | 'PE', number, number, number, number, number]> = [
  ['CE', 100, 100, 0.5, 0.2, 5.63719777970166],
  ['PE', 100, 100, 0.5, 0.2, 5.63719777970166],
  ['CE', 25_900, 26_000, 7 / 365, 0.14, 154.66256740291],
  ['PE', 25_900, 26_000, 7 / 365, 0.14, 254.66256740291],
  ['CE', 1450, 1300, 30 / 365, 0.3, 155.72883791958],
  ['PE', 1450, 1300, 30 / 365, 0.3, 5.72883791957982],
  ['PE', 20, 20, 4 / 12, 0.25, 1.15064825171162], // Hull's example, undiscounted
  ['CE', 19, 19, 0.75, 0.28, 1.83353561658298], // Haug's example, undiscounted
];

/** NIFTY 26000 at a spot of 25,900, 10 days out, σ 14%: premium and Greeks from the script above. */
const GREEKS_REFERENCE = {
  CE: {
    premium: 215.798042126174,
    delta: 0.472193616754361,
    gamma: 0.000664254070004551,
    theta: -14.3046943330063,
    vega: 17.091057035059,
  },
  PE: {
    premium: 266.126809249462,
    delta: -0.529724191464817,
    gamma: 0.000664254070004551,
    theta: -9.33757104533509,
    vega: 17.091057035059,
  },
} as const;

describe('prices and Greeks against independent figures', () => {
  it.each(REFERENCE)('%s F=%d K=%d T=%f σ=%f is %f', (type, f, k, t, v, expected) => {
    // The normal CDF is Abramowitz–Stegun 26.2.17 (|error| < 7.5e-8): within 1e-7 of the forward.
    expect(Math.abs(blackScholes(type, f, k, t, v) - expected)).toBeLessThan(f * 2e-7);
  });

  it('the textbook examples agree once discounted at their rates', () => {
    expect(blackScholes('PE', 20, 20, 4 / 12, 0.25) * Math.exp(-0.09 * (4 / 12))).toBeCloseTo(1.12, 2);
    expect(blackScholes('CE', 19, 19, 0.75, 0.28) * Math.exp(-0.1 * 0.75)).toBeCloseTo(1.7011, 3);
  });

  it.each(['CE', 'PE'] as const)('the %s premium and Greeks on the spot, carry included', (type) => {
    const ref = GREEKS_REFERENCE[type];
    const g = greeks(type, 25_900, 26_000, 10 / 365, 0.14);
    expect(modelPremium(type, 25_900, 26_000, 10 / 365, 0.14)).toBeCloseTo(ref.premium, 2);
    expect(g.delta).toBeCloseTo(ref.delta, 6);
    expect(g.gamma / ref.gamma).toBeCloseTo(1, 5);
    expect(g.theta).toBeCloseTo(ref.theta, 4);
    expect(g.vega).toBeCloseTo(ref.vega, 4);
  });
});

describe('put–call parity', () => {
  it('a call less a put of the same strike and expiry is the forward less the strike, at any volatility', () => {
    fc.assert(
      fc.property(spot, moneyness, years, fc.double({ min: 0.01, max: 2, noNaN: true }), (s, m, t, v) => {
        const k = s * m;
        const f = futurePrice(s, t);
        const parity = modelPremium('CE', s, k, t, v) - modelPremium('PE', s, k, t, v);
        expect(Math.abs(parity - (f - k))).toBeLessThan(1e-6 * s);
      }),
      { numRuns: 2000 },
    );
  });

  it('so do the Greeks: the deltas differ by the carry, gamma, vega and the time decay net of carry agree', () => {
    fc.assert(
      fc.property(spot, fc.double({ min: 0.8, max: 1.2, noNaN: true }), years, atm, (s, m, t, v) => {
        const k = s * m;
        const call = greeks('CE', s, k, t, v);
        const put = greeks('PE', s, k, t, v);
        // ∂(C − P)/∂S = ∂F/∂S = 1 + c·T; ∂²(C − P)/∂S² = 0; ∂(C − P)/∂σ = 0; and a day costs
        // C − P exactly the forward's carry for that day: −S·c/365.
        expect(call.delta - put.delta).toBeCloseTo(1 + 0.07 * t, 9);
        expect(call.gamma).toBeCloseTo(put.gamma, 12);
        expect(call.vega).toBeCloseTo(put.vega, 9);
        expect((call.theta - put.theta) / s).toBeCloseTo(-0.07 / 365, 9);
      }),
    );
  });

  it('at expiry the Greeks are those of the payoff', () => {
    expect(greeks('CE', 26_100, 26_000, 0, 0.14)).toEqual({ delta: 1, gamma: 0, theta: 0, vega: 0 });
    expect(greeks('PE', 26_100, 26_000, 0, 0.14)).toEqual({ delta: 0, gamma: 0, theta: 0, vega: 0 });
    expect(greeks('PE', 25_900, 26_000, 0, 0.14).delta).toBe(-1);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blackScholes, delta, futurePrice, impliedVol, intrinsic, smileVol } from './pricing';

/**
 * Option and future pricing of the paper market (docs/api.md §Prices): what a trader expects of
 * premiums whatever the inputs, as properties.
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

  it('premiums are never below intrinsic value, and out-of-the-money puts carry more volatility than calls', () => {
    fc.assert(
      fc.property(spot, moneyness, years, atm, (s, m, t, v) => {
        const k = s * m;
        const vol = smileVol(v, k, s);
        expect(blackScholes('CE', s, k, t, vol)).toBeGreaterThanOrEqual(intrinsic('CE', s, k) - 1e-9 * s);
        expect(blackScholes('PE', s, k, t, vol)).toBeGreaterThanOrEqual(intrinsic('PE', s, k) - 1e-9 * s);
      }),
    );
    expect(smileVol(0.14, 90, 100)).toBeGreaterThan(smileVol(0.14, 110, 100));
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

  it('a future trades at a premium to spot that shrinks to nothing at expiry', () => {
    expect(futurePrice(100, 0.5)).toBeCloseTo(103.5, 10);
    expect(futurePrice(100, 0)).toBe(100);
  });
});

import { describe, expect, it } from 'vitest';
import { compactRupees, niceTicks, scalesFor, valueAt } from './payoff-chart-model';

/** The payoff chart's geometry (docs/strategy.md §The payoff chart). */
describe('the payoff chart’s geometry', () => {
  it('round ticks over a range', () => {
    expect(niceTicks(25_120, 26_890, 4)).toEqual([25_500, 26_000, 26_500]);
    expect(niceTicks(-2_212, 5_287, 4)).toEqual([-2_000, 0, 2_000, 4_000]);
    expect(niceTicks(5, 5, 4)).toEqual([]);
  });

  it('keeps zero in view and maps prices and P&L to the box', () => {
    const s = scalesFor(
      { xs: [100, 200], atExpiry: [50, 80], atTarget: [60, 70] },
      { width: 300, height: 200, left: 0, right: 0, top: 0, bottom: 0 },
    );
    expect(s.yMin).toBeLessThan(0);
    expect([s.x(100), s.x(200)]).toEqual([0, 300]);
    expect(s.y(s.yMax)).toBeCloseTo(0, 9);
    expect(s.price(150)).toBe(150);
  });

  it('reads a curve between its points, and writes rupees compactly with their sign', () => {
    expect(valueAt([0, 10, 20], [0, 100, -100], 15)).toBe(0);
    expect(valueAt([0, 10], [0, 1], 11)).toBeNull();
    expect([12_500, -120_000, 25_000_000, 0, 40].map(compactRupees)).toEqual(['+12.5K', '−1.2L', '+2.5Cr', '0', '+40']);
  });
});

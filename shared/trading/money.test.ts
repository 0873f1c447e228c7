import { describe, expect, it } from 'vitest';
import { fromUnits, isOnTick, PRICE_UNITS_PER_RUPEE, roundToTick, toUnits } from './money';

describe('price units of ₹0.0001', () => {
  it('hold every tick the Indian markets use as a whole number of units', () => {
    for (const tick of [0.05, 0.01, 0.005, 0.0025, 0.1, 0.5, 1]) {
      expect(Number.isInteger(toUnits(tick))).toBe(true);
      expect(toUnits(tick)).toBeGreaterThan(0);
      expect(fromUnits(toUnits(tick))).toBe(tick);
    }
  });

  it('keep the largest amount the app handles a safe integer', () => {
    expect(Number.isSafeInteger(9e11 * PRICE_UNITS_PER_RUPEE)).toBe(true);
  });

  it('accept CDS prices on the ₹0.0025 grid and refuse those between its steps', () => {
    expect(isOnTick(83.2525, 0.0025)).toBe(true);
    expect(isOnTick(83.255, 0.0025)).toBe(true);
    expect(isOnTick(83.2526, 0.0025)).toBe(false);
    expect(isOnTick(83.251, 0.0025)).toBe(false);
    expect(roundToTick(83.2537, 0.0025)).toBe(83.2525);
    expect(roundToTick(83.2538, 0.0025)).toBe(83.255);
  });

  it('never take a positive price too small to see for ₹0 on the grid', () => {
    expect(isOnTick(5e-324, 0.05)).toBe(false);
    expect(isOnTick(1e-9, 0.05)).toBe(false);
  });

  it('check the ₹0.05 grid without float noise, at equity and commodity magnitudes', () => {
    expect(isOnTick(101.15, 0.05)).toBe(true);
    expect(isOnTick(0.1 + 0.2, 0.05)).toBe(true);
    expect(isOnTick(101.12, 0.05)).toBe(false);
    expect(isOnTick(101.151, 0.05)).toBe(false);
    expect(isOnTick(148_765.35, 0.05)).toBe(true);
    expect(isOnTick(148_765.36, 0.05)).toBe(false);
    expect(isOnTick(9_87_65_432.05, 0.05)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { chartPriceFormat } from './use-candle-chart';

describe('chart price axis', () => {
  it('labels a CDS contract to ₹0.0001 in ₹0.0025 steps, and an equity to the paisa', () => {
    expect(chartPriceFormat(0.0025)).toEqual({ type: 'price', precision: 4, minMove: 0.0025 });
    expect(chartPriceFormat(0.05)).toEqual({ type: 'price', precision: 2, minMove: 0.05 });
  });
});

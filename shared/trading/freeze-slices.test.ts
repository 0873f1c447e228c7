import { describe, expect, it } from 'vitest';
import { freezeSlices } from './freeze-slices';

const NIFTY = { lotSize: 75, freezeQuantity: 1_800 };

describe('slicing at the freeze quantity', () => {
  it.each<[string, number, { lotSize: number; freezeQuantity: number }, number[]]>([
    ['3,600 NIFTY: two slices of 1,800', 3_600, NIFTY, [1_800, 1_800]],
    ['3,750 NIFTY: the rest last', 3_750, NIFTY, [1_800, 1_800, 150]],
    ['at the limit: one order', 1_800, NIFTY, [1_800]],
    ['under it: one order', 75, NIFTY, [75]],
    [
      'a freeze that is not whole lots: slices of whole lots within it',
      2_000,
      { lotSize: 75, freezeQuantity: 1_000 },
      [975, 975, 50],
    ],
    ['a freeze under one lot: one lot a slice', 60, { lotSize: 30, freezeQuantity: 20 }, [30, 30]],
    ['nothing held: no slice', 0, NIFTY, []],
  ])('%s', (_name, quantity, spec, legs) => {
    expect(freezeSlices(quantity, spec)).toEqual(legs);
    expect(legs.reduce((a, b) => a + b, 0)).toBe(quantity);
  });
});

import { describe, expect, it } from 'vitest';
import { alertMet, type AlertCondition } from './alert';

describe('alertMet', () => {
  const rows: Array<[title: string, condition: AlertCondition, previous: number | null, price: number, met: boolean]> =
    [
      ['above: at the price', 'above', null, 1500, true],
      ['above: under it', 'above', null, 1499.95, false],
      ['below: at the price', 'below', 1600, 1500, true],
      ['below: over it', 'below', null, 1500.05, false],
      ['crosses: from under to over', 'crosses', 1499, 1501, true],
      ['crosses: from over to exactly the price', 'crosses', 1502, 1500, true],
      ['crosses: staying over', 'crosses', 1502, 1501, false],
      ['crosses: the first price seen cannot cross', 'crosses', null, 1500, false],
    ];
  it.each(rows)('%s', (_t, condition, previous, price, met) => {
    expect(alertMet({ condition, price: 1500 }, previous, price)).toBe(met);
  });
});

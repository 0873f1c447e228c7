import { describe, expect, it } from 'vitest';
import { formatPnl, formatPrice, formatSignedQty, signClass } from './format';

describe('formatPrice', () => {
  it('shows every decimal the instrument tick needs, and pads to it so a column lines up', () => {
    expect(formatPrice(83.2525, 0.0025)).toBe('83.2525');
    expect(formatPrice(83.25, 0.0025)).toBe('83.2500');
    expect(formatPrice(83.255, 0.005)).toBe('83.255');
    expect(formatPrice(1480.05, 0.05)).toBe('1,480.05');
    expect(formatPrice(121500, 1)).toBe('1,21,500.00');
  });

  it('without a tick, keeps up to ₹0.0001 rather than rounding a CDS price away', () => {
    expect(formatPrice(83.2525)).toBe('83.2525');
    expect(formatPrice(1480.05)).toBe('1,480.05');
    expect(formatPrice(null)).toBe('–');
  });
});

describe('signed figures read without colour', () => {
  it('a position quantity carries its side as a sign: +75 long, −75 short, 0 flat', () => {
    expect(formatSignedQty(75)).toBe('+75');
    expect(formatSignedQty(-1_50_000)).toBe('−1,50,000');
    expect(formatSignedQty(0)).toBe('0');
  });

  it('a P&L carries its sign, and signClass colours only what is signed', () => {
    expect([formatPnl(1250), signClass(1250)]).toEqual(['+₹1,250.00', 'up']);
    expect([formatPnl(-320.5), signClass(-320.5)]).toEqual(['−₹320.50', 'down']);
    expect([formatPnl(0), signClass(0)]).toEqual(['₹0.00', '']);
  });
});

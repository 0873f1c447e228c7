import { describe, expect, it } from 'vitest';
import { formatPrice } from './format';

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

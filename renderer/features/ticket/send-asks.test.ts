import { describe, expect, it } from 'vitest';
import { asksBeforeSending, shortfallOf } from './send-asks';

describe('what the ticket asks before sending', () => {
  it('nothing for an order with its exits and the funds for it', () => {
    expect(asksBeforeSending({ exitsLeftOut: false, margin: { required: 1_000, available: 5_000 } })).toEqual([]);
  });

  it('names the shortfall in rupees when the account cannot fund the order', () => {
    const m = { required: 30_13_100, available: 8_97_937 };
    expect(shortfallOf(m)).toBe(21_15_163);
    expect(asksBeforeSending({ exitsLeftOut: false, margin: m })).toEqual([
      'Required ₹30,13,100.00 is ₹21,15,163.00 more than the ₹8,97,937.00 available: the broker is likely to reject it.',
    ]);
  });

  it('asks nothing about funds it does not know', () => {
    expect(shortfallOf(null)).toBeNull();
    expect(asksBeforeSending({ exitsLeftOut: false, margin: null })).toEqual([]);
  });

  it('says the typed exits would be left out', () => {
    expect(asksBeforeSending({ exitsLeftOut: true, margin: null })[0]).toMatch(/entry goes alone, with no exit/);
  });
});

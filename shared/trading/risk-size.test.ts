import { describe, expect, it } from 'vitest';
import { sizeFromRisk, type SizeInput } from './risk-size';

/** Size from risk (docs/brackets.md §Size from risk), as a table: lots, ticks, multipliers, and why not. */

const EQ = { lotSize: 1, tickSize: 0.05, multiplier: 1 };
const NIFTY_FUT = { lotSize: 75, tickSize: 0.1, multiplier: 1 };
const USDINR = { lotSize: 1, tickSize: 0.0025, multiplier: 1000 };
const GOLD = { lotSize: 1, tickSize: 1, multiplier: 100 };

const base = (over: Partial<SizeInput>): SizeInput => ({
  side: 'BUY',
  risk: { in: 'rupees', amount: 1000 },
  availableFunds: 100_000,
  entry: 100,
  stop: { by: 'price', value: 98 },
  instrument: EQ,
  ...over,
});

describe('size from risk', () => {
  it.each<[string, Partial<SizeInput>, number, number]>([
    ['₹1,000 at a ₹2 stop on an equity: 500 shares', {}, 500, 1000],
    ['a distance instead of a price: the same', { stop: { by: 'distance', value: 2 } }, 500, 1000],
    ['a sell: the stop above the entry', { side: 'SELL', stop: { by: 'price', value: 102 } }, 500, 1000],
    ['rounded down, never up: ₹1,000 at ₹3 is 333, risking ₹999', { stop: { by: 'price', value: 97 } }, 333, 999],
    ['1% of ₹1,00,000 funds is ₹1,000', { risk: { in: 'percent', amount: 1 } }, 500, 1000],
    [
      'NIFTY futures by whole lots of 75: ₹20,000 at 100 points is 2 lots',
      {
        entry: 24_000,
        stop: { by: 'distance', value: 100 },
        risk: { in: 'rupees', amount: 20_000 },
        instrument: NIFTY_FUT,
      },
      150,
      15_000,
    ],
    [
      'USDINR, a tick of ₹0.0025 and 1,000 a contract: 4 ticks away risks ₹10 a contract',
      { entry: 83.25, stop: { by: 'price', value: 83.24 }, risk: { in: 'rupees', amount: 105 }, instrument: USDINR },
      10,
      100,
    ],
    [
      'GOLD, quoted per 10 g and traded per kg (×100): ₹50 away risks ₹5,000 a lot',
      { entry: 72_000, stop: { by: 'price', value: 71_950 }, risk: { in: 'rupees', amount: 12_000 }, instrument: GOLD },
      2,
      10_000,
    ],
  ])('%s', (_name, over, quantity, atRisk) => {
    const r = sizeFromRisk(base(over));
    expect(r).toMatchObject({ ok: true, quantity, atRisk });
    if (r.ok) expect(r.atRisk).toBeLessThanOrEqual(r.budget);
  });

  it.each<[string, Partial<SizeInput>, string, RegExp]>([
    [
      'less than one lot can be had: it says what one lot risks',
      {
        entry: 24_000,
        stop: { by: 'distance', value: 100 },
        risk: { in: 'rupees', amount: 5_000 },
        instrument: NIFTY_FUT,
      },
      'risk',
      /^₹5,000 is less than one lot of 75 risks at a stop ₹100 away \(₹7,500\): risk more, or bring the stop closer$/,
    ],
    [
      'an off-tick stop names the two valid prices',
      { stop: { by: 'price', value: 98.03 } },
      'stop',
      /off the ₹0.05 tick — use ₹98.00 or ₹98.05/,
    ],
    ['a buy stop above the entry', { stop: { by: 'price', value: 101 } }, 'stop', /must be below the entry \(₹100\)/],
    ['a sell stop below the entry', { side: 'SELL' }, 'stop', /must be above the entry/],
    [
      'a percentage before the funds are known',
      { risk: { in: 'percent', amount: 1 }, availableFunds: null },
      'risk',
      /not known yet/,
    ],
    [
      'no funds available',
      { risk: { in: 'percent', amount: 1 }, availableFunds: -50 },
      'risk',
      /^No funds available: ₹-50$/,
    ],
    ['more than 100%', { risk: { in: 'percent', amount: 150 } }, 'risk', /at most 100%/],
    ['no entry price yet', { entry: null }, 'entry', /No entry price yet/],
    ['a zero risk', { risk: { in: 'rupees', amount: 0 } }, 'risk', /above zero/],
    ['a distance past zero', { stop: { by: 'distance', value: 150 } }, 'stop', /below zero/],
  ])('%s', (_name, over, field, reason) => {
    const r = sizeFromRisk(base(over));
    expect(r).toMatchObject({ ok: false, field });
    if (!r.ok) expect(r.reason).toMatch(reason);
  });
});

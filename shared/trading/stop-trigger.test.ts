import { describe, expect, it } from 'vitest';
import { crossedStopProblem, isStopCrossed } from './stop-trigger';

describe('a stop whose trigger is already crossed', () => {
  it.each([
    ['SELL', 'SL-M', 1405, 1400, true],
    ['SELL', 'SL', 1400, 1400, true],
    ['SELL', 'SL-M', 1380, 1400, false],
    ['BUY', 'SL', 1395, 1400, true],
    ['BUY', 'SL-M', 1400, 1400, true],
    ['BUY', 'SL', 1405, 1400, false],
    ['SELL', 'LIMIT', 1405, 1400, false],
    ['SELL', 'SL-M', 1405, 0, false],
    ['SELL', 'SL-M', 1405, null, false],
  ] as const)('%s %s trigger %s at last %s → crossed %s', (side, type, trigger, last, crossed) => {
    expect(isStopCrossed({ transactionType: side, orderType: type, triggerPrice: trigger }, last)).toBe(crossed);
  });

  it('says which way the trigger must be, with both prices', () => {
    expect(crossedStopProblem({ transactionType: 'SELL', orderType: 'SL-M', triggerPrice: 1405 }, 1400)).toBe(
      "A sell stop's trigger must be below the last price (₹1,400.00): at ₹1,405.00 it would trigger at once",
    );
    expect(crossedStopProblem({ transactionType: 'BUY', orderType: 'SL', triggerPrice: 99.5 }, 100)).toMatch(
      /^A buy stop's trigger must be above the last price \(₹100\.00\)/,
    );
  });
});

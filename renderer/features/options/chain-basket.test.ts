import { describe, expect, it } from 'vitest';
import { NIFTY_CE } from '../../test/fake-bridge';
import { chainLegOrder } from './chain-basket';

/** The leg the option chain adds to the basket: one lot, NRML, LIMIT at the live price on the tick. */
describe('chainLegOrder', () => {
  it('is one lot, NRML, a DAY LIMIT at the last price rounded to the tick, on the side asked', () => {
    expect(chainLegOrder(NIFTY_CE, 'SELL', 182.43)).toEqual({
      exchange: 'NFO',
      tradingsymbol: NIFTY_CE.tradingsymbol,
      transactionType: 'SELL',
      quantity: NIFTY_CE.lotSize,
      orderType: 'LIMIT',
      product: 'NRML',
      validity: 'DAY',
      price: 182.45,
      triggerPrice: null,
    });
  });

  it('is null when there is no price to start from, so no unplaceable leg reaches the basket', () => {
    expect(chainLegOrder(NIFTY_CE, 'BUY', 0)).toBeNull();
  });
});

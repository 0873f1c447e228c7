import { describe, expect, it } from 'vitest';
import { INFY } from '../../test/fake-bridge';
import { livePrefill, touchPrice } from './price-prefill';
import { draftForInstrument, EMPTY_DRAFT, orderTypeChosen } from './ticket-model';

const book = { bid: 1499.95, ask: 1500.05 };

describe('touchPrice: where a prefilled limit starts', () => {
  it('starts a sell at the best bid and a buy at the best offer', () => {
    expect(touchPrice('SELL', book, 1500)).toEqual({ price: 1499.95, from: 'bid' });
    expect(touchPrice('BUY', book, 1500)).toEqual({ price: 1500.05, from: 'ask' });
  });

  it('falls back to the live last price when that side of the book is empty, else nothing', () => {
    expect(touchPrice('BUY', { bid: 1499.95, ask: null }, 1500)).toEqual({ price: 1500, from: 'last' });
    expect(touchPrice('BUY', null, null)).toBeNull();
  });
});

describe('livePrefill: a LIMIT ticket opened on a stale list price', () => {
  // The instrument list was read at the previous close; the market has moved 3% since.
  const stale = { ...INFY, lastPrice: 1455.5 };
  const limit = { ...draftForInstrument({ ...EMPTY_DRAFT, orderType: 'LIMIT', side: 'SELL' }, stale) };

  it('prefills the previous close first, waiting for the live quote', () => {
    expect(limit.price).toBe('1455.5');
    expect(limit.priceFrom).toBe('pending');
  });

  it('moves the price to the live bid for a sell, on the tick', () => {
    expect(livePrefill(limit, stale, book, 1500)).toEqual({ price: '1499.95', priceFrom: 'bid' });
  });

  it('says so when there is no live quote yet, then takes the first one', () => {
    const none = livePrefill(limit, stale, null, null);
    expect(none).toEqual({ priceFrom: 'close' });
    const waiting = { ...limit, ...none };
    expect(livePrefill(waiting, stale, book, 1500)).toEqual({ price: '1499.95', priceFrom: 'bid' });
  });

  it('never moves a price the trader typed or clicked', () => {
    expect(livePrefill({ ...limit, priceFrom: undefined }, stale, book, 1500)).toBeNull();
    expect(livePrefill({ ...limit, priceFrom: 'bid' }, stale, book, 1500)).toBeNull();
  });

  it('re-prices when the trader picks LIMIT after MARKET', () => {
    const market = draftForInstrument({ ...EMPTY_DRAFT, side: 'BUY' }, stale);
    const chosen = { ...market, ...orderTypeChosen(market, 'LIMIT', stale, undefined) };
    expect(livePrefill(chosen, stale, book, 1500)).toEqual({ price: '1500.05', priceFrom: 'ask' });
  });
});

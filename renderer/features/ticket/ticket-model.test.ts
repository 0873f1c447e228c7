import { describe, expect, it } from 'vitest';
import { INFY, NIFTY_CE, NIFTY_FUT } from '../../test/fake-bridge';
import {
  type BrokerRules,
  draftForInstrument,
  EMPTY_DRAFT,
  evaluateTicket,
  ticketFieldOf,
  type TicketDraft,
} from './ticket-model';

/** A draft for `instrument` as the ticket builds it when the trader picks it, then edited. */
function draft(instrument: typeof INFY, patch: Partial<TicketDraft> = {}): TicketDraft {
  return { ...draftForInstrument(EMPTY_DRAFT, instrument), ...patch };
}

/** Kite's rules as the session reports them (the broker registry). */
const KITE: BrokerRules = { brokerLabel: 'Kite', iocRefusedOn: ['MCX'] };

describe('evaluateTicket: the shared rules as the trader types', () => {
  it('asks for an instrument before anything else', () => {
    const e = evaluateTicket(EMPTY_DRAFT, undefined);
    expect(e.request).toBeNull();
    expect(e.errors).toEqual({ symbol: 'Choose an instrument' });
  });

  it('accepts a plain MARKET buy and builds the order request', () => {
    const e = evaluateTicket(draft(INFY, { quantity: '10', product: 'CNC' }), INFY);
    expect(e.errors).toEqual({});
    expect(e.request).toEqual({
      exchange: 'NSE',
      tradingsymbol: 'INFY',
      transactionType: 'BUY',
      quantity: 10,
      orderType: 'MARKET',
      product: 'CNC',
      validity: 'DAY',
      price: null,
      triggerPrice: null,
    });
  });

  it('wants futures quantities in whole lots and names the lot size', () => {
    expect(evaluateTicket(draft(NIFTY_FUT, { quantity: '100' }), NIFTY_FUT).errors.quantity).toBe(
      'Quantity must be a multiple of the lot size (75)',
    );
    expect(evaluateTicket(draft(NIFTY_FUT, { quantity: '150' }), NIFTY_FUT).errors.quantity).toBeUndefined();
  });

  it('refuses a quantity above the freeze limit', () => {
    expect(evaluateTicket(draft(NIFTY_FUT, { quantity: '1875' }), NIFTY_FUT).errors.quantity).toMatch(
      /freeze limit of 1800/,
    );
  });

  it('says what is wrong with an empty or non-numeric quantity', () => {
    expect(evaluateTicket(draft(INFY, { quantity: '' }), INFY).errors.quantity).toBe('Enter a quantity');
    expect(evaluateTicket(draft(INFY, { quantity: '1.5' }), INFY).errors.quantity).toMatch(/whole number/);
    expect(evaluateTicket(draft(INFY, { quantity: 'ten' }), INFY).errors.quantity).toMatch(/whole number/);
  });

  it('accepts Indian digit grouping in what was typed', () => {
    const e = evaluateTicket(draft(INFY, { quantity: '1,000', orderType: 'LIMIT', price: '1,499.95' }), INFY);
    expect(e.errors).toEqual({});
    expect(e.request).toMatchObject({ quantity: 1000, price: 1499.95 });
  });

  it('refuses a stop whose trigger the live price has already crossed, on its trigger, and sends nothing', () => {
    const sell = draft(INFY, { side: 'SELL', orderType: 'SL-M', price: '', triggerPrice: '1405' });
    const crossed = evaluateTicket(sell, INFY, KITE, 1400);
    expect(crossed.request).toBeNull();
    expect(crossed.errors.triggerPrice).toBe(
      "A sell stop's trigger must be below the last price (₹1,400.00): at ₹1,405.00 it would trigger at once",
    );
    expect(evaluateTicket({ ...sell, triggerPrice: '1395' }, INFY, KITE, 1400).request).not.toBeNull();
    // Without a live price the broker judges it.
    expect(evaluateTicket(sell, INFY, KITE).request).not.toBeNull();
  });

  it('wants prices on the tick grid', () => {
    const e = evaluateTicket(draft(INFY, { orderType: 'LIMIT', price: '1500.07' }), INFY);
    expect(e.errors.price).toBe('₹1,500.07 is off the ₹0.05 tick — use ₹1,500.05 or ₹1,500.10');
    expect(e.request).toBeNull();
    expect(evaluateTicket(draft(INFY, { orderType: 'LIMIT', price: '1500.05' }), INFY).errors.price).toBeUndefined();
  });

  it('says a price that is not a number is not a number', () => {
    expect(evaluateTicket(draft(INFY, { orderType: 'LIMIT', price: '15OO' }), INFY).errors.price).toMatch(
      /must be a number/,
    );
    expect(
      evaluateTicket(draft(INFY, { orderType: 'SL', price: '1500', triggerPrice: 'x' }), INFY).errors.triggerPrice,
    ).toMatch(/must be a number/);
  });

  it('enables price only for LIMIT and SL, and trigger only for SL and SL-M', () => {
    const enabled = (orderType: TicketDraft['orderType']) => {
      const e = evaluateTicket(draft(INFY, { orderType }), INFY);
      return [e.priceEnabled, e.triggerEnabled];
    };
    expect(enabled('MARKET')).toEqual([false, false]);
    expect(enabled('LIMIT')).toEqual([true, false]);
    expect(enabled('SL')).toEqual([true, true]);
    expect(enabled('SL-M')).toEqual([false, true]);
  });

  it('ignores a leftover price on a MARKET order instead of sending it', () => {
    const e = evaluateTicket(draft(INFY, { orderType: 'MARKET', price: '1500', triggerPrice: '1490' }), INFY);
    expect(e.errors).toEqual({});
    expect(e.request).toMatchObject({ price: null, triggerPrice: null });
  });

  it('refuses CNC on an NFO future, on the Product field, in words', () => {
    const e = evaluateTicket(draft(NIFTY_FUT, { product: 'CNC' }), NIFTY_FUT);
    expect(e.request).toBeNull();
    expect(e.errors.product).toBe('CNC (delivery) is only for NSE/BSE equity, not NFO FUT; use MIS or NRML');
  });

  it('refuses NRML on cash equity', () => {
    expect(evaluateTicket(draft(INFY, { product: 'NRML' }), INFY).errors.product).toMatch(
      /NRML \(carry-forward\) is only for derivatives/,
    );
  });

  it('refuses IOC with SL, on the Validity field', () => {
    const e = evaluateTicket(
      draft(INFY, { orderType: 'SL', validity: 'IOC', price: '1510', triggerPrice: '1505' }),
      INFY,
    );
    expect(e.request).toBeNull();
    expect(e.errors).toEqual({ validity: 'IOC is only for MARKET and LIMIT orders, not SL; use DAY' });
  });

  it('refuses SL-M on an option, on the Order type field', () => {
    const e = evaluateTicket(draft(NIFTY_CE, { orderType: 'SL-M', triggerPrice: '150' }), NIFTY_CE);
    expect(e.errors.orderType).toMatch(/SL-M is not accepted on options/);
  });

  it('checks a stop trigger against its limit on the right side', () => {
    const buy = evaluateTicket(draft(INFY, { orderType: 'SL', price: '1500', triggerPrice: '1505' }), INFY);
    expect(buy.errors.triggerPrice).toBe('A buy stop triggers at or below its limit price');
    const sell = evaluateTicket(
      draft(INFY, { side: 'SELL', orderType: 'SL', price: '1500', triggerPrice: '1495' }),
      INFY,
    );
    expect(sell.errors.triggerPrice).toBe('A sell stop triggers at or above its limit price');
  });
});

describe('draftForInstrument: picking an instrument', () => {
  it('starts at one lot with a product the instrument accepts', () => {
    expect(draftForInstrument(EMPTY_DRAFT, NIFTY_FUT)).toMatchObject({
      quantity: '75',
      product: 'NRML',
      instrumentToken: NIFTY_FUT.instrumentToken,
    });
    expect(draftForInstrument(EMPTY_DRAFT, INFY)).toMatchObject({ quantity: '1', product: 'CNC' });
  });

  it('keeps a product the trader chose on purpose, so the clash shows instead of a silent fix', () => {
    const d = draftForInstrument({ ...EMPTY_DRAFT, product: 'CNC', productChosen: true }, NIFTY_FUT);
    expect(d.product).toBe('CNC');
    expect(evaluateTicket(d, NIFTY_FUT).errors.product).toMatch(/CNC/);
  });

  it('fills a LIMIT price from the last price, rounded to the tick', () => {
    const d = draftForInstrument({ ...EMPTY_DRAFT, orderType: 'LIMIT' }, { ...INFY, lastPrice: 1500.03 });
    expect(d.price).toBe('1500.05');
  });

  it('moves an option off SL-M', () => {
    expect(draftForInstrument({ ...EMPTY_DRAFT, orderType: 'SL-M' }, NIFTY_CE).orderType).toBe('SL');
  });
});

describe('ticketFieldOf: where a broker error goes', () => {
  it('maps camelCase, snake_case and prefixed fields to ticket fields', () => {
    expect(ticketFieldOf('triggerPrice')).toBe('triggerPrice');
    expect(ticketFieldOf('trigger_price')).toBe('triggerPrice');
    expect(ticketFieldOf('payload.order.quantity')).toBe('quantity');
    expect(ticketFieldOf('order.tradingsymbol')).toBe('symbol');
    expect(ticketFieldOf('exchange')).toBe('symbol');
  });

  it('returns null for fields the ticket does not have', () => {
    expect(ticketFieldOf(undefined)).toBeNull();
    expect(ticketFieldOf('client_order_id')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import {
  allowedOrderTypes,
  allowedProducts,
  allowedValidities,
  type InstrumentSpec,
  type OrderDraft,
  stepQuantity,
  validateModification,
  validateOrder,
  type WorkingOrder,
} from './rules';

/** One test per trading rule, on instruments shaped like the real ones. */

const INFY: InstrumentSpec = {
  exchange: 'NSE',
  tradingsymbol: 'INFY',
  instrumentType: 'EQ',
  lotSize: 1,
  tickSize: 0.05,
  freezeQuantity: 100_000,
};
const NIFTY_FUT: InstrumentSpec = {
  exchange: 'NFO',
  tradingsymbol: 'NIFTY26NOVFUT',
  instrumentType: 'FUT',
  lotSize: 75,
  tickSize: 0.1,
  freezeQuantity: 1800,
};
const NIFTY_CE: InstrumentSpec = {
  exchange: 'NFO',
  tradingsymbol: 'NIFTY26NOV26000CE',
  instrumentType: 'CE',
  lotSize: 75,
  tickSize: 0.05,
  freezeQuantity: 1800,
};
const SENSEX_PE: InstrumentSpec = {
  exchange: 'BFO',
  tradingsymbol: 'SENSEX26NOV84000PE',
  instrumentType: 'PE',
  lotSize: 20,
  tickSize: 0.05,
  freezeQuantity: 1000,
};
const GOLD: InstrumentSpec = {
  exchange: 'MCX',
  tradingsymbol: 'GOLD26DECFUT',
  instrumentType: 'FUT',
  lotSize: 1,
  tickSize: 1,
  freezeQuantity: 200,
};
const USDINR: InstrumentSpec = {
  exchange: 'CDS',
  tradingsymbol: 'USDINR26NOVFUT',
  instrumentType: 'FUT',
  lotSize: 1,
  tickSize: 0.0025,
  freezeQuantity: 10_000,
};

const base = (spec: InstrumentSpec, o: Partial<OrderDraft> = {}): OrderDraft => ({
  exchange: spec.exchange,
  transactionType: 'BUY',
  quantity: spec.lotSize,
  orderType: 'MARKET',
  product: 'MIS',
  validity: 'DAY',
  ...o,
});

const fields = (spec: InstrumentSpec, o: Partial<OrderDraft>) =>
  validateOrder(base(spec, o), spec).map((v) => `${v.field}:${v.code}`);

describe('products', () => {
  it('allows CNC only on NSE/BSE equity', () => {
    expect(fields(INFY, { product: 'CNC' })).toEqual([]);
    expect(fields({ ...INFY, exchange: 'BSE' }, { exchange: 'BSE', product: 'CNC' })).toEqual([]);
    for (const spec of [NIFTY_FUT, NIFTY_CE, GOLD, USDINR])
      expect(fields(spec, { product: 'CNC' })).toEqual(['product:invalid_combination']);
  });
  it('allows NRML only on derivatives', () => {
    expect(fields(INFY, { product: 'NRML' })).toEqual(['product:invalid_combination']);
    for (const spec of [NIFTY_FUT, NIFTY_CE, SENSEX_PE, GOLD, USDINR])
      expect(fields(spec, { product: 'NRML' })).toEqual([]);
  });
  it('allows MIS on every segment', () => {
    for (const spec of [INFY, NIFTY_FUT, NIFTY_CE, SENSEX_PE, GOLD, USDINR])
      expect(fields(spec, { product: 'MIS' })).toEqual([]);
    expect(allowedProducts(INFY)).toEqual(['MIS', 'CNC']);
    expect(allowedProducts(NIFTY_FUT)).toEqual(['MIS', 'NRML']);
  });
  it('says why and what to use instead', () => {
    const [v] = validateOrder(base(NIFTY_FUT, { product: 'CNC' }), NIFTY_FUT);
    expect(v?.message).toMatch(/delivery.*NSE\/BSE equity.*use MIS or NRML/);
  });
});

describe('validity', () => {
  it('DAY for every order type', () => {
    expect(fields(INFY, { orderType: 'LIMIT', price: 100 })).toEqual([]);
    expect(fields(INFY, { orderType: 'SL', price: 100, triggerPrice: 99 })).toEqual([]);
    expect(fields(INFY, { orderType: 'SL-M', triggerPrice: 99 })).toEqual([]);
  });
  it('IOC only with MARKET and LIMIT', () => {
    expect(fields(INFY, { validity: 'IOC' })).toEqual([]);
    expect(fields(INFY, { validity: 'IOC', orderType: 'LIMIT', price: 100 })).toEqual([]);
    expect(fields(INFY, { validity: 'IOC', orderType: 'SL', price: 100, triggerPrice: 99 })).toEqual([
      'validity:invalid_combination',
    ]);
    expect(fields(INFY, { validity: 'IOC', orderType: 'SL-M', triggerPrice: 99 })).toEqual([
      'validity:invalid_combination',
    ]);
    expect(allowedValidities('SL')).toEqual(['DAY']);
  });
});

describe('order types', () => {
  it('refuses SL-M on options (CE and PE), keeps it on futures and equity', () => {
    expect(fields(NIFTY_CE, { orderType: 'SL-M', triggerPrice: 100 })).toEqual(['orderType:invalid_combination']);
    expect(fields(SENSEX_PE, { orderType: 'SL-M', triggerPrice: 100 })).toEqual(['orderType:invalid_combination']);
    expect(fields(NIFTY_FUT, { orderType: 'SL-M', triggerPrice: 26000 })).toEqual([]);
    expect(allowedOrderTypes(NIFTY_CE)).toEqual(['MARKET', 'LIMIT', 'SL']);
  });
});

describe('quantity', () => {
  it('must be a positive whole number', () => {
    for (const quantity of [0, -1, 1.5, Number.NaN])
      expect(fields(INFY, { quantity })).toEqual(['quantity:invalid_field']);
  });
  it('must be a multiple of the lot size', () => {
    expect(fields(NIFTY_FUT, { quantity: 150 })).toEqual([]);
    const [v] = validateOrder(base(NIFTY_FUT, { quantity: 100 }), NIFTY_FUT);
    expect(v).toMatchObject({ field: 'quantity', code: 'invalid_field' });
    expect(v?.message).toContain('75');
  });
  it('must not exceed the freeze limit', () => {
    expect(fields(NIFTY_FUT, { quantity: 1800 })).toEqual([]);
    expect(fields(NIFTY_FUT, { quantity: 1875 })).toEqual(['quantity:invalid_field']);
  });
  it('steps by whole lots within one lot and the freeze limit', () => {
    expect(stepQuantity(75, 1, NIFTY_FUT)).toBe(150);
    expect(stepQuantity(75, -3, NIFTY_FUT)).toBe(75);
    expect(stepQuantity(1800, 2, NIFTY_FUT)).toBe(1800);
  });
});

describe('prices', () => {
  it('LIMIT and SL need a price above zero', () => {
    expect(fields(INFY, { orderType: 'LIMIT' })).toEqual(['price:invalid_field']);
    expect(fields(INFY, { orderType: 'LIMIT', price: 0 })).toEqual(['price:invalid_field']);
    expect(fields(INFY, { orderType: 'LIMIT', price: -5 })).toEqual(['price:invalid_field']);
    expect(fields(INFY, { orderType: 'SL', triggerPrice: 99 })).toEqual(['price:invalid_field']);
  });
  it('prices sit on the tick grid, compared in integer units (no float noise)', () => {
    expect(fields(INFY, { orderType: 'LIMIT', price: 101.15 })).toEqual([]);
    expect(fields(INFY, { orderType: 'LIMIT', price: 0.1 + 0.2 })).toEqual([]);
    expect(fields(INFY, { orderType: 'LIMIT', price: 101.12 })).toEqual(['price:invalid_field']);
    expect(fields(INFY, { orderType: 'LIMIT', price: 101.151 })).toEqual(['price:invalid_field']);
    expect(fields(GOLD, { orderType: 'LIMIT', price: 121500.5 })).toEqual(['price:invalid_field']);
    expect(fields(NIFTY_FUT, { orderType: 'LIMIT', price: 26000.3 })).toEqual([]);
  });
  it('an off-tick price is refused naming the two nearest valid prices, never rounded', () => {
    const message = (spec: InstrumentSpec, o: Partial<OrderDraft>) => validateOrder(base(spec, o), spec)[0]?.message;
    expect(message(INFY, { orderType: 'LIMIT', price: 101.08 })).toBe(
      '₹101.08 is off the ₹0.05 tick — use ₹101.05 or ₹101.10',
    );
    expect(message(INFY, { orderType: 'SL-M', triggerPrice: 1_01_234.51 })).toBe(
      '₹1,01,234.51 is off the ₹0.05 tick — use ₹1,01,234.50 or ₹1,01,234.55',
    );
    expect(message(USDINR, { orderType: 'LIMIT', price: 83.2526 })).toBe(
      '₹83.2526 is off the ₹0.0025 tick — use ₹83.2525 or ₹83.2550',
    );
    expect(message(GOLD, { orderType: 'LIMIT', price: 121500.5 })).toBe(
      '₹1,21,500.50 is off the ₹1 tick — use ₹1,21,500.00 or ₹1,21,501.00',
    );
  });
  it('refuses a price or trigger below one tick, which would be stored as ₹0.00', () => {
    for (const tiny of [1e-9, 5e-324]) {
      expect(validateOrder(base(INFY, { orderType: 'LIMIT', price: tiny }), INFY)).toEqual([
        { field: 'price', code: 'invalid_field', message: 'Price must be at least one tick (₹0.05)' },
      ]);
      expect(validateOrder(base(INFY, { orderType: 'SL-M', triggerPrice: tiny }), INFY)).toEqual([
        { field: 'triggerPrice', code: 'invalid_field', message: 'Trigger price must be at least one tick (₹0.05)' },
      ]);
    }
  });
  it('refuses a price above ₹100 crore in one short sentence, not a figure hundreds of digits long', () => {
    for (const huge of [1e308, 1_00_00_00_000.05]) {
      expect(validateOrder(base(INFY, { orderType: 'LIMIT', price: huge }), INFY)).toEqual([
        { field: 'price', code: 'invalid_field', message: 'Price must be at most ₹1,00,00,00,000' },
      ]);
      expect(validateOrder(base(INFY, { orderType: 'SL-M', triggerPrice: huge }), INFY)).toEqual([
        { field: 'triggerPrice', code: 'invalid_field', message: 'Trigger price must be at most ₹1,00,00,00,000' },
      ]);
    }
    expect(validateOrder(base(INFY, { orderType: 'LIMIT', price: 1_00_00_00_000 }), INFY)).toEqual([]);
  });
  it('MARKET and SL-M carry no price', () => {
    expect(fields(INFY, { price: 100 })).toEqual(['price:invalid_combination']);
    expect(fields(INFY, { orderType: 'SL-M', triggerPrice: 99, price: 100 })).toEqual(['price:invalid_combination']);
    expect(fields(INFY, { price: null })).toEqual([]);
  });
  it('SL and SL-M need a trigger price on the grid; others take none', () => {
    expect(fields(INFY, { orderType: 'SL-M' })).toEqual(['triggerPrice:invalid_field']);
    expect(fields(INFY, { orderType: 'SL', price: 100, triggerPrice: 99.99 })).toEqual(['triggerPrice:invalid_field']);
    expect(fields(INFY, { orderType: 'LIMIT', price: 100, triggerPrice: 99 })).toEqual([
      'triggerPrice:invalid_combination',
    ]);
    expect(fields(INFY, { triggerPrice: 99 })).toEqual(['triggerPrice:invalid_combination']);
  });
  it("a BUY stop's trigger is at or below its limit, a SELL stop's at or above", () => {
    expect(fields(INFY, { orderType: 'SL', price: 100, triggerPrice: 100 })).toEqual([]);
    expect(fields(INFY, { orderType: 'SL', price: 100, triggerPrice: 100.05 })).toEqual([
      'triggerPrice:invalid_combination',
    ]);
    expect(fields(INFY, { orderType: 'SL', transactionType: 'SELL', price: 100, triggerPrice: 100 })).toEqual([]);
    expect(fields(INFY, { orderType: 'SL', transactionType: 'SELL', price: 100, triggerPrice: 99.95 })).toEqual([
      'triggerPrice:invalid_combination',
    ]);
  });
});

describe('reporting', () => {
  it('names every broken field once, in words, and stops at an exchange mismatch', () => {
    const vs = validateOrder(
      base(NIFTY_CE, { quantity: 10, product: 'CNC', orderType: 'SL-M', validity: 'IOC', price: 5 }),
      NIFTY_CE,
    );
    expect(vs.map((v) => v.field)).toEqual(['quantity', 'product', 'orderType', 'validity', 'price', 'triggerPrice']);
    for (const v of vs) expect(v.message.length).toBeGreaterThan(15);
    expect(validateOrder(base(INFY, { exchange: 'BSE' }), INFY).map((v) => v.field)).toEqual(['exchange']);
  });
});

describe('validateModification', () => {
  const resting: WorkingOrder = {
    exchange: 'NFO',
    transactionType: 'BUY',
    quantity: 150,
    filledQuantity: 75,
    orderType: 'LIMIT',
    product: 'NRML',
    validity: 'DAY',
    price: 26000,
    triggerPrice: null,
  };

  it('accepts a new price on the tick grid and a quantity above what has filled', () => {
    expect(validateModification(resting, { price: 25990.1, quantity: 225 }, NIFTY_FUT)).toEqual([]);
  });

  it('names quantity when the new quantity is not above the filled 75', () => {
    expect(validateModification(resting, { quantity: 75 }, NIFTY_FUT)).toEqual([
      { field: 'quantity', code: 'invalid_field', message: 'Quantity must stay above the 75 already filled' },
    ]);
  });

  it('names the field a placement rule would: an off-tick price, a quantity off the lot size', () => {
    expect(validateModification(resting, { price: 25990.05 }, NIFTY_FUT).map((v) => v.field)).toEqual(['price']);
    expect(validateModification(resting, { quantity: 160 }, NIFTY_FUT).map((v) => v.field)).toEqual(['quantity']);
  });

  it('switching LIMIT → SL keeps the limit price and needs a trigger; → MARKET drops the price', () => {
    expect(validateModification(resting, { orderType: 'SL' }, NIFTY_FUT).map((v) => v.field)).toEqual(['triggerPrice']);
    expect(validateModification(resting, { orderType: 'SL', triggerPrice: 25990 }, NIFTY_FUT)).toEqual([]);
    expect(validateModification(resting, { orderType: 'MARKET' }, NIFTY_FUT)).toEqual([]);
  });

  it('refuses IOC on a switch to SL, naming validity', () => {
    const ioc = { ...resting, validity: 'IOC' as const };
    expect(validateModification(ioc, { orderType: 'SL', triggerPrice: 25990 }, NIFTY_FUT).map((v) => v.field)).toEqual([
      'validity',
    ]);
  });
});

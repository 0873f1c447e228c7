import { describe, expect, it } from 'vitest';
import type { OrderRequest } from '../domain/order';
import { NO_RISK_LIMITS, type RiskLimits } from '../domain/risk';
import { dayPnlOf, increasesRisk, NOT_JUDGED_ON_MODIFY, riskBreaches, riskStatus, type RiskFacts } from './risk-rules';

/** The risk guard's rules as a table: each row is an order, the facts main read, and what the trader is told. */

const BUY_LIMIT: OrderRequest = {
  exchange: 'NSE',
  tradingsymbol: 'RELIANCE',
  transactionType: 'BUY',
  quantity: 204,
  orderType: 'LIMIT',
  product: 'MIS',
  validity: 'DAY',
  price: 3000,
};
const FACTS: RiskFacts = {
  order: BUY_LIMIT,
  instrument: { lotSize: 1, multiplier: 1 },
  lastPrice: 3000,
  openOrders: 0,
  placedLastMinute: 0,
  dayPnl: 0,
  increasesRisk: true,
  lossReachedToday: false,
};
const hard = (value: number) => ({ value, hard: true });
const soft = (value: number) => ({ value, hard: false });
const limits = (l: Partial<RiskLimits>): RiskLimits => ({ ...NO_RISK_LIMITS, ...l });

describe('riskBreaches', () => {
  const rows: Array<[title: string, limits: RiskLimits, facts: Partial<RiskFacts>, expected: string[]]> = [
    ['no limit set: nothing is refused', NO_RISK_LIMITS, {}, []],
    [
      'order value over the limit names both figures in Indian grouping',
      limits({ maxOrderValue: hard(500_000) }),
      {},
      ['maxOrderValue hard: Order value ₹6,12,000 exceeds your limit of ₹5,00,000'],
    ],
    ['order value exactly at the limit passes', limits({ maxOrderValue: hard(612_000) }), {}, []],
    [
      'a MARKET order is valued at the last price',
      limits({ maxOrderValue: soft(100_000) }),
      { order: { ...BUY_LIMIT, orderType: 'MARKET', price: null, quantity: 40 }, lastPrice: 2600 },
      ['maxOrderValue soft: Order value ₹1,04,000 exceeds your limit of ₹1,00,000'],
    ],
    [
      'a MARKET order with no last price cannot be valued, so it is refused',
      limits({ maxOrderValue: hard(100_000) }),
      { order: { ...BUY_LIMIT, orderType: 'MARKET', price: null }, lastPrice: null },
      ['maxOrderValue hard: Order value could not be checked against your limit of ₹1,00,000: no last price'],
    ],
    [
      'the value counts the contract multiplier',
      limits({ maxOrderValue: hard(1_000_000) }),
      {
        order: { ...BUY_LIMIT, exchange: 'MCX', tradingsymbol: 'CRUDEOIL', quantity: 2, price: 6000 },
        instrument: { lotSize: 1, multiplier: 100 },
      },
      ['maxOrderValue hard: Order value ₹12,00,000 exceeds your limit of ₹10,00,000'],
    ],
    [
      'quantity over the limit',
      limits({ maxQuantity: soft(200) }),
      {},
      ['maxQuantity soft: Quantity 204 exceeds your limit of 200'],
    ],
    [
      'lots are the quantity over the lot size',
      limits({ maxLots: hard(2) }),
      {
        order: { ...BUY_LIMIT, exchange: 'NFO', tradingsymbol: 'NIFTY26NOVFUT', quantity: 225 },
        instrument: { lotSize: 75, multiplier: 1 },
      },
      ['maxLots hard: 3 lots exceed your limit of 2 lots'],
    ],
    [
      'a LIMIT price far from the last price',
      limits({ maxPriceDeviationPct: hard(5) }),
      { order: { ...BUY_LIMIT, price: 3300 } },
      ['maxPriceDeviationPct hard: Price is 10% away from the last price 3,000; your limit is 5%'],
    ],
    [
      'an SL trigger far from the last price counts too',
      limits({ maxPriceDeviationPct: hard(5) }),
      { order: { ...BUY_LIMIT, orderType: 'SL', price: 3000, triggerPrice: 2700 } },
      ['maxPriceDeviationPct hard: Price is 10% away from the last price 3,000; your limit is 5%'],
    ],
    [
      'a MARKET order has no price to stray',
      limits({ maxPriceDeviationPct: hard(1) }),
      { order: { ...BUY_LIMIT, orderType: 'MARKET', price: null }, lastPrice: null },
      [],
    ],
    [
      'open orders at the limit: one more is refused',
      limits({ maxOpenOrders: hard(3) }),
      { openOrders: 3 },
      ['maxOpenOrders hard: 3 orders are open already; your limit is 3'],
    ],
    ['open orders under the limit pass', limits({ maxOpenOrders: hard(3) }), { openOrders: 2 }, []],
    [
      'the order rate counts the last minute',
      limits({ maxOrdersPerMinute: soft(10) }),
      { placedLastMinute: 10 },
      ['maxOrdersPerMinute soft: 10 orders placed in the last minute; your limit is 10 a minute'],
    ],
    [
      'a day loss at the limit blocks an order that adds risk',
      limits({ dailyLossLimit: hard(50_000) }),
      { dayPnl: -52_300 },
      [
        "dailyLossLimit hard: Daily loss limit of ₹50,000 reached (today's P&L −₹52,300): only orders that reduce a position are allowed today",
      ],
    ],
    [
      'a day loss at the limit lets an exit through',
      limits({ dailyLossLimit: hard(50_000) }),
      { dayPnl: -52_300, increasesRisk: false },
      [],
    ],
    ['a loss under the limit passes', limits({ dailyLossLimit: hard(50_000) }), { dayPnl: -49_999 }, []],
    [
      'once reached today, a recovered P&L still blocks',
      limits({ dailyLossLimit: hard(50_000) }),
      { dayPnl: -10_000, lossReachedToday: true },
      [
        "dailyLossLimit hard: Daily loss limit of ₹50,000 reached (today's P&L −₹10,000): only orders that reduce a position are allowed today",
      ],
    ],
    [
      'hard breaches come before soft ones',
      limits({ maxQuantity: soft(100), maxOrderValue: hard(500_000) }),
      {},
      [
        'maxOrderValue hard: Order value ₹6,12,000 exceeds your limit of ₹5,00,000',
        'maxQuantity soft: Quantity 204 exceeds your limit of 100',
      ],
    ],
    [
      'no market data (a plan without it): a MARKET order’s value and a price’s distance are off, not refused',
      limits({ maxOrderValue: hard(100_000), maxPriceDeviationPct: hard(5) }),
      { order: { ...BUY_LIMIT, orderType: 'MARKET', price: null }, lastPrice: null, noMarketData: true },
      [],
    ],
    [
      'no market data: a LIMIT order’s value still counts (its own price), its distance is off',
      limits({ maxOrderValue: hard(500_000), maxPriceDeviationPct: hard(5) }),
      { order: { ...BUY_LIMIT, price: 3300 }, lastPrice: null, noMarketData: true },
      ['maxOrderValue hard: Order value ₹6,73,200 exceeds your limit of ₹5,00,000'],
    ],
  ];
  it.each(rows)('%s', (_title, l, facts, expected) => {
    const got = riskBreaches(l, { ...FACTS, ...facts }).map(
      (b) => `${b.limit} ${b.hard ? 'hard' : 'soft'}: ${b.message}`,
    );
    expect(got).toEqual(expected);
  });
});

describe('riskBreaches of a modification', () => {
  it('adds no order: the count limits do not apply, every other limit does', () => {
    const l = limits({ maxOpenOrders: hard(3), maxOrdersPerMinute: hard(5), maxQuantity: hard(100) });
    const full = { ...FACTS, openOrders: 3, placedLastMinute: 5 };
    expect(riskBreaches(l, full).map((b) => b.limit)).toEqual(['maxQuantity', 'maxOpenOrders', 'maxOrdersPerMinute']);
    expect(riskBreaches(l, { ...full, notJudged: NOT_JUDGED_ON_MODIFY }).map((b) => b.limit)).toEqual(['maxQuantity']);
  });
});

describe('increasesRisk', () => {
  const long = { exchange: 'NSE' as const, tradingsymbol: 'RELIANCE', product: 'MIS' as const, quantity: 300 };
  const rows: Array<[title: string, order: Partial<OrderRequest>, positions: (typeof long)[], expected: boolean]> = [
    ['a buy with no position opens one', {}, [], true],
    ['a buy adds to a long', {}, [long], true],
    ['a sell within a long reduces it', { transactionType: 'SELL', quantity: 300 }, [long], false],
    ['a sell beyond a long flips it short', { transactionType: 'SELL', quantity: 301 }, [long], true],
    ['a sell of another product does not reduce this one', { transactionType: 'SELL', product: 'CNC' }, [long], true],
    ['a buy within a short reduces it', { quantity: 100 }, [{ ...long, quantity: -100 }], false],
  ];
  it.each(rows)('%s', (_title, order, positions, expected) => {
    expect(increasesRisk({ ...BUY_LIMIT, ...order }, positions)).toBe(expected);
  });

  it('exits already working count: a second exit that together with the first flips the position adds risk', () => {
    const sell = { ...BUY_LIMIT, transactionType: 'SELL' as const, quantity: 300 };
    const working = (quantity: number, side: 'BUY' | 'SELL' = 'SELL') => [
      { exchange: 'NSE', tradingsymbol: 'RELIANCE', product: 'MIS', transactionType: side, pendingQuantity: quantity },
    ];
    expect(increasesRisk(sell, [long], [], [])).toBe(false);
    expect(increasesRisk(sell, [long], [], working(300))).toBe(true);
    expect(increasesRisk({ ...sell, quantity: 100 }, [long], [], working(200))).toBe(false);
    expect(increasesRisk({ ...sell, quantity: 101 }, [long], [], working(200))).toBe(true);
    // A working order that adds to the long is not counted as if it filled (that would allow more).
    expect(increasesRisk({ ...sell, quantity: 301 }, [long], [], working(100, 'BUY'))).toBe(true);
    // Another product's exits are not this one's.
    expect(increasesRisk(sell, [long], [], [{ ...working(300)[0]!, product: 'CNC' }])).toBe(false);
  });

  it('a CNC sell of delivery holdings reduces risk; beyond them it is a short', () => {
    const sell = { ...BUY_LIMIT, transactionType: 'SELL' as const, product: 'CNC' as const, quantity: 10 };
    const holdings = [{ exchange: 'NSE' as const, tradingsymbol: 'RELIANCE', quantity: 10 }];
    expect(increasesRisk(sell, [], holdings)).toBe(false);
    expect(increasesRisk({ ...sell, quantity: 11 }, [], holdings)).toBe(true);
    const selling = [
      {
        exchange: 'NSE',
        tradingsymbol: 'RELIANCE',
        product: 'CNC',
        transactionType: 'SELL' as const,
        pendingQuantity: 6,
      },
    ];
    expect(increasesRisk({ ...sell, quantity: 4 }, [], holdings, selling)).toBe(false);
    expect(increasesRisk({ ...sell, quantity: 5 }, [], holdings, selling)).toBe(true);
  });
});

describe('riskStatus', () => {
  it('a hard loss limit reached blocks and the header says only exits are allowed', () => {
    const s = riskStatus(
      limits({ dailyLossLimit: hard(50_000) }),
      dayPnlOf([{ m2m: -30_000 }, { m2m: -22_300 }]),
      false,
      1,
    );
    expect(s).toMatchObject({
      reached: true,
      blocked: true,
      detail: "Daily loss limit of ₹50,000 reached (today's P&L −₹52,300): only exits are allowed today",
    });
  });
  it('a soft loss limit reached does not block: new positions ask for confirmation', () => {
    const s = riskStatus(limits({ dailyLossLimit: soft(50_000) }), -50_000, false, 1);
    expect(s).toMatchObject({ reached: true, blocked: false });
    expect(s.detail).toContain('new positions ask for confirmation');
  });
  it('without market data the status says the price checks are off, and why', () => {
    expect(riskStatus(NO_RISK_LIMITS, 0, false, 1, true).priceChecksOff).toMatch(
      /^Price checks are off: no market data on this Kite plan/,
    );
    expect(riskStatus(NO_RISK_LIMITS, 0, false, 1).priceChecksOff).toBeUndefined();
  });
  it('under the limit the header has nothing to say', () => {
    expect(riskStatus(limits({ dailyLossLimit: hard(50_000) }), -100, false, 1)).toMatchObject({
      reached: false,
      blocked: false,
      detail: null,
    });
  });
});

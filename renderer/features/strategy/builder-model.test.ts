import { describe, expect, it } from 'vitest';
import type { Instrument } from '@shared/domain/instrument';
import type { OptionChain, OptionLeg } from '@shared/domain/market';
import type { Position } from '@shared/domain/portfolio';
import { TEMPLATES } from '@shared/strategy/templates';
import { expiryInstant } from '@shared/trading/market-hours';
import { futurePrice, greeks, modelPremium, yearsTo } from '@shared/trading/options-pricing';
import { positionOf } from '@shared/testing/portfolio-fixtures';
import { INFY, NIFTY_CE, NIFTY_FUT } from '../../test/fake-bridge';
import {
  legMoved,
  legOf,
  legVolatility,
  modelLegs,
  positionLegs,
  protectedBuyPrice,
  strategyOrders,
  templateLegs,
  type BuilderLeg,
} from './builder-model';
import { positionGroups } from './position-groups';

/**
 * The strategy builder's legs (docs/strategy.md §Building, §Placing): contracts found on the
 * instrument list, templates placed on a chain, positions as legs, the IV a leg is valued at, and
 * the orders that place them — buys first, each judged by the ticket's rules.
 */

const STRIKES = [24_300, 24_400, 24_500, 24_600, 24_700];
let token = 5_000_000;
const option = (kind: 'CE' | 'PE', strike: number, expiry = '2026-11-26'): Instrument => ({
  ...NIFTY_CE,
  instrumentToken: token++,
  tradingsymbol: `NIFTY${expiry.slice(2, 4)}${expiry.slice(5, 7)}${expiry.slice(8)}${strike}${kind}`,
  instrumentType: kind,
  strike,
  expiry,
  lastPrice: kind === 'CE' ? Math.max(5, 24_512 - strike + 120) : Math.max(5, strike - 24_512 + 110),
});
const LIST: Instrument[] = [
  ...STRIKES.flatMap((k) => [option('CE', k), option('PE', k)]),
  ...STRIKES.flatMap((k) => [option('CE', k, '2026-12-03'), option('PE', k, '2026-12-03')]),
  NIFTY_FUT,
  INFY,
];
const BY_TOKEN = new Map(LIST.map((i) => [i.instrumentToken, i]));
const find = (kind: 'CE' | 'PE', strike: number, expiry = '2026-11-26'): Instrument =>
  LIST.find((i) => i.instrumentType === kind && i.strike === strike && i.expiry === expiry)!;

function chainOf(expiry: string, iv = 14): OptionChain {
  const leg = (i: Instrument): OptionLeg => ({
    instrumentToken: i.instrumentToken,
    tradingsymbol: i.tradingsymbol,
    lastPrice: i.lastPrice,
    change: 0,
    oi: 1000,
    oiChange: 0,
    iv,
    delta: 0.5,
    bid: null,
    ask: null,
    volume: 0,
  });
  return {
    underlying: 'NIFTY',
    exchange: 'NFO',
    expiry,
    expiries: ['2026-11-26', '2026-12-03'],
    underlyingPrice: 24_512.35,
    atmStrike: 24_500,
    lotSize: 75,
    rows: STRIKES.map((strike) => ({
      strike,
      call: leg(find('CE', strike, expiry)),
      put: leg(find('PE', strike, expiry)),
    })),
    ts: '2026-11-23T10:41:27+05:30',
  };
}

describe('legs and their orders', () => {
  it('an iron condor from its template: four legs on the chain, and its orders buys first, each a one-lot LIMIT — the buys 2% above their entry (protected), the sells at theirs', () => {
    const condor = TEMPLATES.find((t) => t.id === 'iron-condor')!;
    // At 5% volatility with about three days left, 1σ is about 115 points: the shorts sit on the
    // strikes nearest 24,512 ± 1σ, the wings one strike beyond.
    const legs = templateLegs(condor, chainOf('2026-11-26', 5), undefined, BY_TOKEN, () => undefined)!;
    expect(legs.map((l) => [l.side, l.kind, l.strike])).toEqual([
      ['BUY', 'PE', 24_300],
      ['SELL', 'PE', 24_400],
      ['SELL', 'CE', 24_600],
      ['BUY', 'CE', 24_700],
    ]);
    const placed = strategyOrders(legs, BY_TOKEN);
    if (!('orders' in placed)) throw new Error(placed.error);
    expect(
      placed.orders.map((o) => [o.transactionType, o.tradingsymbol, o.quantity, o.orderType, o.product, o.price]),
    ).toEqual([
      ['BUY', find('PE', 24_300).tradingsymbol, 75, 'LIMIT', 'NRML', protectedBuyPrice(legs[0]!.price, 0.05)],
      ['BUY', find('CE', 24_700).tradingsymbol, 75, 'LIMIT', 'NRML', protectedBuyPrice(legs[3]!.price, 0.05)],
      ['SELL', find('PE', 24_400).tradingsymbol, 75, 'LIMIT', 'NRML', legs[1]!.price],
      ['SELL', find('CE', 24_600).tradingsymbol, 75, 'LIMIT', 'NRML', legs[2]!.price],
    ]);
  });

  it('a protected buy price is 2% above the entry, up to the next tick', () => {
    expect(protectedBuyPrice(50, 0.05)).toBe(51);
    expect(protectedBuyPrice(66.45, 0.05)).toBe(67.8);
    expect(protectedBuyPrice(0.05, 0.05)).toBe(0.1);
  });

  it('a buy leg whose price has risen since it was added is protected above the live price, not its old entry (else it rests and the sells never go)', () => {
    const buy = legOf(find('CE', 24_500), 'BUY', 50)!;
    const placed = strategyOrders([buy], BY_TOKEN, () => 60);
    if (!('orders' in placed)) throw new Error(placed.error);
    expect(placed.orders[0]?.price).toBe(61.2);
    // A live price below the entry leaves the entry's protection.
    const lower = strategyOrders([buy], BY_TOKEN, () => 40);
    if (!('orders' in lower)) throw new Error(lower.error);
    expect(lower.orders[0]?.price).toBe(51);
  });

  it('a leg the ticket’s rules refuse is named by its place, and nothing is to be sent', () => {
    const a = legOf(find('CE', 24_500), 'BUY', 120)!;
    const b = { ...legOf(find('CE', 24_600), 'SELL', 80)!, price: 80.02 };
    expect(strategyOrders([a, b], BY_TOKEN)).toEqual({ error: expect.stringMatching(/^Leg 2: .*80\.0[05]/) });
  });

  it('a calendar takes its far leg from the next expiry’s chain; a template off the chain is not placed', () => {
    const calendar = TEMPLATES.find((t) => t.id === 'calendar')!;
    const legs = templateLegs(calendar, chainOf('2026-11-26'), chainOf('2026-12-03'), BY_TOKEN, () => undefined)!;
    expect(legs.map((l) => [l.side, l.expiry])).toEqual([
      ['SELL', '2026-11-26'],
      ['BUY', '2026-12-03'],
    ]);
    const condor = TEMPLATES.find((t) => t.id === 'iron-condor')!;
    expect(templateLegs(condor, chainOf('2026-11-26'), undefined, BY_TOKEN, () => undefined, 1, 2)).toBeNull();
  });

  it('moving a leg to another strike or expiry takes that contract at its live price; lots and side stay', () => {
    const leg = { ...legOf(find('CE', 24_500), 'SELL', 120, 3)!, id: 42 };
    const moved = legMoved(leg, { strike: 24_600 }, LIST, (t) =>
      t === find('CE', 24_600).instrumentToken ? 77.5 : undefined,
    )!;
    expect(moved).toMatchObject({ id: 42, strike: 24_600, side: 'SELL', lots: 3, price: 77.5 });
    expect(legMoved(leg, { expiry: '2026-12-03' }, LIST, () => undefined)).toMatchObject({
      expiry: '2026-12-03',
      strike: 24_500,
    });
    expect(legMoved(leg, { strike: 99_999 }, LIST, () => undefined)).toBeNull();
  });
});

describe('the IV a leg is valued at', () => {
  const now = Date.parse('2026-11-23T10:41:27+05:30');
  const leg = legOf(find('CE', 24_500), 'BUY', 150)!;

  it('is the chain’s for its contract', () => {
    expect(legVolatility(leg, new Map([['2026-11-26', chainOf('2026-11-26', 13.5)]]), 24_512, 150, now)).toBe(0.135);
  });

  it('without a chain, the one its own last price implies: priced back, it gives that price', () => {
    const iv = legVolatility(leg, new Map(), 24_512, 150, now)!;
    const years = yearsTo(expiryInstant('NFO', '2026-11-26'), now);
    expect(modelPremium('CE', 24_512, 24_500, years, iv)).toBeCloseTo(150, 3);
    expect(futurePrice(24_512, years)).toBeGreaterThan(24_512);
  });
});

describe('positions as legs, grouped by underlying', () => {
  const position = (i: Instrument, quantity: number, averagePrice: number): Position =>
    positionOf({
      exchange: i.exchange,
      tradingsymbol: i.tradingsymbol,
      instrumentToken: i.instrumentToken,
      product: i.instrumentType === 'EQ' ? 'CNC' : 'NRML',
      quantity,
      averagePrice,
      closePrice: averagePrice,
      lastPrice: averagePrice,
      buyQuantity: Math.max(0, quantity),
      buyValue: Math.max(0, quantity) * averagePrice,
      sellQuantity: Math.max(0, -quantity),
      sellValue: Math.max(0, -quantity) * averagePrice,
    });
  const held = [
    position(find('CE', 24_600), -150, 80),
    position(find('PE', 24_400), 75, 95),
    position({ ...find('PE', 24_300) }, 10, 50), // not a whole lot: left out
    position(INFY, 20, 1500),
  ];

  it('an underlying’s derivative positions become legs: short as sells, long as buys, in lots, at their average', () => {
    const { legs, skipped } = positionLegs(held, 'NIFTY', BY_TOKEN);
    expect(legs.map((l) => [l.side, l.kind, l.strike, l.lots, l.price])).toEqual([
      ['SELL', 'CE', 24_600, 2, 80],
      ['BUY', 'PE', 24_400, 1, 95],
    ]);
    expect(skipped).toBe(1);
  });

  it('groups carry their net Greeks: the legs’ by the shared model at the spot the future implies; a stock’s delta is its shares', () => {
    const now = Date.parse('2026-11-23T10:41:27+05:30');
    const last = new Map<number, number>([
      [NIFTY_FUT.instrumentToken, 24_560],
      [find('CE', 24_600).instrumentToken, 82],
      [find('PE', 24_400).instrumentToken, 90],
      [INFY.instrumentToken, 1510],
    ]);
    const groups = positionGroups(held, BY_TOKEN, LIST, (t) => last.get(t), now);
    expect(groups.map((g) => g.underlying)).toEqual(['NIFTY', 'INFY']);
    const [nifty, infy] = groups as [(typeof groups)[0], (typeof groups)[0]];
    expect(infy.greeks).toEqual({ delta: 20, gamma: 0, theta: 0, vega: 0 });
    const spot = nifty.spot!;
    expect(futurePrice(spot, yearsTo(expiryInstant('NFO', NIFTY_FUT.expiry!), now))).toBeCloseTo(24_560, 6);
    const legs: BuilderLeg[] = positionLegs(held, 'NIFTY', BY_TOKEN).legs;
    const model = modelLegs(legs, (l) => legVolatility(l, new Map(), spot, last.get(l.instrumentToken), now));
    const years = yearsTo(expiryInstant('NFO', '2026-11-26'), now);
    const expected = model.reduce(
      (d, l) =>
        d + (l.side === 'BUY' ? 1 : -1) * l.quantity * greeks(l.kind as 'CE' | 'PE', spot, l.strike, years, l.iv).delta,
      0,
    );
    expect(nifty.greeks?.delta).toBeCloseTo(expected, 9);
    expect(nifty.derivatives).toBe(true);
  });
});

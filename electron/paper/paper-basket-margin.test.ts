import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WireBasketMargin } from '../wire/rest-schemas';
import { type Api, startTestBroker } from './test-helpers';

/**
 * POST /v1/margins/basket against the real paper broker: each leg's margin by the calculator's
 * rules and the basket's hedging benefit (docs/market.md §Basket margin and hedging).
 */

let api: Api;
let lot: number;
let near: { strike: number; call: { tradingsymbol: string } }[];
let farCall: string;
beforeAll(async () => {
  api = await startTestBroker();
  const chain = (await api.call('GET', '/option-chain?underlying=NIFTY&strikes=2')).body;
  lot = chain.lot_size;
  near = chain.strikes;
  const far = (await api.call('GET', `/option-chain?underlying=NIFTY&strikes=2&expiry=${chain.expiries[1]}`)).body;
  farCall = far.strikes[2].call.tradingsymbol;
});
afterAll(() => api.close());

const leg = (tradingsymbol: string, side: 'BUY' | 'SELL', price: number, exchange = 'NFO') => ({
  exchange,
  tradingsymbol,
  transaction_type: side,
  quantity: lot,
  order_type: 'LIMIT',
  product: 'NRML',
  validity: 'DAY',
  price,
});

const basket = async (orders: unknown[]) => {
  const r = await api.call('POST', '/margins/basket', { orders });
  expect(r.status).toBe(200);
  return WireBasketMargin.parse(r.body).margin;
};

describe('POST /margins/basket', () => {
  it('a bull call spread blocks the long premium less the short premium, plus the short leg, and creates nothing', async () => {
    const n = api.broker.orderCount();
    const m = await basket([
      leg(near[1]!.call.tradingsymbol, 'BUY', 100),
      leg(near[3]!.call.tradingsymbol, 'SELL', 40),
    ]);
    // Long: the whole premium (₹100 a unit); short: ₹40 ÷ NRML's 4 = ₹10 a unit.
    expect(m.orders.map((o) => o.total)).toEqual([100 * lot, 10 * lot]);
    expect(m.initial).toBe(110 * lot);
    // The ₹40 the short brings in pays for ₹40 of the long's premium.
    expect(m.final).toBe(70 * lot);
    expect(m.orders[1]).toMatchObject({ tradingsymbol: near[3]!.call.tradingsymbol, order_value: 40 * lot });
    expect(api.broker.orderCount()).toBe(n);
  });

  it('a credit spread offsets no more than the long leg blocks', async () => {
    const m = await basket([
      leg(near[1]!.call.tradingsymbol, 'SELL', 100),
      leg(near[3]!.call.tradingsymbol, 'BUY', 40),
    ]);
    expect(m.initial).toBe(25 * lot + 40 * lot);
    expect(m.final).toBe(25 * lot);
  });

  it('legs of different expiries, or a future, are not hedged: final equals initial', async () => {
    const expiries = await basket([leg(near[1]!.call.tradingsymbol, 'BUY', 100), leg(farCall, 'SELL', 40)]);
    expect(expiries.final).toBe(expiries.initial);
    const fut = (await api.call('GET', '/instruments?exchange=NFO')).body.instruments.find(
      (i: { name: string; instrument_type: string }) => i.instrument_type === 'FUT' && i.name === 'NIFTY',
    );
    const withFuture = await basket([
      leg(near[1]!.call.tradingsymbol, 'BUY', 100),
      leg(fut.tradingsymbol, 'SELL', 25000),
    ]);
    expect(withFuture.final).toBe(withFuture.initial);
  });

  it('names the broken leg and field: orders.1.price, orders.0.tradingsymbol, orders', async () => {
    const tick = await api.call('POST', '/margins/basket', {
      orders: [leg(near[1]!.call.tradingsymbol, 'BUY', 100), leg(near[3]!.call.tradingsymbol, 'SELL', 40.01)],
    });
    expect(tick.status).toBe(400);
    expect(tick.body.errors[0].field).toBe('orders.1.price');
    const unknown = await api.call('POST', '/margins/basket', { orders: [leg('NOSUCH', 'BUY', 1)] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].field).toBe('orders.0.tradingsymbol');
    const empty = await api.call('POST', '/margins/basket', { orders: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0].field).toBe('orders');
  });
});

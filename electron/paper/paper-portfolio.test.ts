import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  WireFunds,
  WireHoldingList,
  WireOrderMargin,
  WirePositionList,
  WireTradeList,
} from '../../shared/wire/schemas';
import { type Api, startTestBroker } from './test-helpers';

let api: Api;
beforeAll(async () => {
  api = await startTestBroker({ seed: 7 });
});
afterAll(() => api.close());

const funds = async () => WireFunds.parse((await api.call('GET', '/funds')).body).funds;

describe('positions, holdings, funds, trades, margins', () => {
  it('starts with the opening balance and nothing used', async () => {
    expect(await funds()).toEqual({
      available_cash: 1_000_000,
      used_margin: 0,
      available_margin: 1_000_000,
      opening_balance: 1_000_000,
      realised_pnl: 0,
      unrealised_pnl: 0,
    });
  });

  it('quotes margin without creating an order (MIS 5x)', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const n = api.broker.orderCount();
    const r = await api.call('POST', '/margins/orders', {
      exchange: 'NSE',
      tradingsymbol: 'INFY',
      transaction_type: 'BUY',
      quantity: 10,
      order_type: 'MARKET',
      product: 'MIS',
      validity: 'DAY',
    });
    const m = WireOrderMargin.parse(r.body).margin;
    expect(m.leverage).toBe(5);
    expect(m.order_value).toBeCloseTo(infy.last_price * 10, 2);
    expect(m.total).toBeCloseTo((infy.last_price * 10) / 5, 2);
    expect(api.broker.orderCount()).toBe(n);
    const bad = await api.call('POST', '/margins/orders', {
      exchange: 'NSE',
      tradingsymbol: 'INFY',
      transaction_type: 'BUY',
      quantity: 10,
      order_type: 'LIMIT',
      product: 'MIS',
      validity: 'DAY',
    });
    expect(bad.status).toBe(400);
  });

  it('nets a position with realised and unrealised P&L at the LTP', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const L = infy.last_price;
    await api.place({ quantity: 10 });
    api.broker.setPrice(infy.instrument_token, L + 10);
    let pos = WirePositionList.parse((await api.call('GET', '/positions')).body).positions.find(
      (p) => p.tradingsymbol === 'INFY',
    );
    expect(pos).toMatchObject({
      quantity: 10,
      average_price: L,
      last_price: L + 10,
      unrealised_pnl: 100,
      realised_pnl: 0,
      product: 'MIS',
    });
    await api.place({ quantity: 4, transaction_type: 'SELL' });
    pos = WirePositionList.parse((await api.call('GET', '/positions')).body).positions.find(
      (p) => p.tradingsymbol === 'INFY',
    );
    expect(pos).toMatchObject({
      quantity: 6,
      realised_pnl: 40,
      unrealised_pnl: 60,
      pnl: 100,
      day_buy_quantity: 10,
      day_sell_quantity: 4,
    });
    const f = await funds();
    expect(f.realised_pnl).toBe(40);
    expect(f.unrealised_pnl).toBe(60);
    expect(f.available_cash).toBe(1_000_040);
    expect(f.used_margin).toBeCloseTo((6 * L) / 5, 1);
    expect(f.available_margin + f.used_margin).toBeCloseTo(f.available_cash, 2);
    // Flip through zero: the short side opens at the fill price.
    await api.place({ quantity: 10, transaction_type: 'SELL' });
    pos = WirePositionList.parse((await api.call('GET', '/positions')).body).positions.find(
      (p) => p.tradingsymbol === 'INFY',
    );
    expect(pos).toMatchObject({ quantity: -4, average_price: L + 10, realised_pnl: 100 });
  });

  it('settles CNC buys into holdings and realises on CNC sells', async () => {
    const itc = await api.instrument('NSE', 'ITC');
    const before = await funds();
    await api.place({ tradingsymbol: 'ITC', product: 'CNC', quantity: 20 });
    let h = WireHoldingList.parse((await api.call('GET', '/holdings')).body).holdings;
    expect(h).toEqual([expect.objectContaining({ tradingsymbol: 'ITC', quantity: 20, average_price: itc.last_price })]);
    const paid = await funds();
    expect(paid.available_cash).toBeCloseTo(before.available_cash - 20 * itc.last_price, 2);
    api.broker.setPrice(itc.instrument_token, itc.last_price + 2);
    const sell = await api.place({ tradingsymbol: 'ITC', product: 'CNC', quantity: 5, transaction_type: 'SELL' });
    expect(sell.body.status).toBe('COMPLETE');
    h = WireHoldingList.parse((await api.call('GET', '/holdings')).body).holdings;
    expect(h[0]).toMatchObject({ quantity: 15, pnl: 30 });
    expect((await funds()).realised_pnl).toBeCloseTo(before.realised_pnl + 10, 2);
    expect(
      (await api.call('GET', '/positions')).body.positions.some((p: { product: string }) => p.product === 'CNC'),
    ).toBe(false);
  });

  it('lists every fill as a trade', async () => {
    const trades = WireTradeList.parse((await api.call('GET', '/trades')).body).trades;
    expect(trades.length).toBe(5);
    expect(trades[0]?.filled_at).toMatch(/\+05:30$/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WireFunds, WireHoldingList, WireOrderMargin, WirePositionList, WireTradeList } from '../wire/rest-schemas';
import { type Api, findInstrument, startTestBroker } from './test-helpers';

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
    await api.fillAt({ quantity: 10 }, L);
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
    await api.fillAt({ quantity: 4, transaction_type: 'SELL' }, L + 10);
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
    await api.fillAt({ quantity: 10, transaction_type: 'SELL' }, L + 10);
    pos = WirePositionList.parse((await api.call('GET', '/positions')).body).positions.find(
      (p) => p.tradingsymbol === 'INFY',
    );
    expect(pos).toMatchObject({ quantity: -4, average_price: L + 10, realised_pnl: 100 });
  });

  it("shows a CNC buy as the day's CNC position holding its full cost, and lets it be sold the same day", async () => {
    const itc = await api.instrument('NSE', 'ITC');
    const before = await funds();
    await api.fillAt({ tradingsymbol: 'ITC', product: 'CNC', quantity: 20 }, itc.last_price);
    // T+1: not in holdings today (docs/api.md §Margins, positions, holdings, funds, "Holdings").
    expect(WireHoldingList.parse((await api.call('GET', '/holdings')).body).holdings).toEqual([]);
    const cnc = async () =>
      WirePositionList.parse((await api.call('GET', '/positions')).body).positions.find((p) => p.product === 'CNC');
    expect(await cnc()).toMatchObject({ tradingsymbol: 'ITC', quantity: 20, average_price: itc.last_price });
    const paid = await funds();
    expect(paid.available_cash).toBe(before.available_cash);
    expect(paid.used_margin).toBeCloseTo(before.used_margin + 20 * itc.last_price, 2);
    const sell = await api.fillAt(
      { tradingsymbol: 'ITC', product: 'CNC', quantity: 5, transaction_type: 'SELL' },
      itc.last_price + 2,
    );
    expect((await api.order(sell.body.order_id)).status).toBe('COMPLETE');
    expect(await cnc()).toMatchObject({ quantity: 15, realised_pnl: 10, day_sell_quantity: 5 });
    expect((await funds()).realised_pnl).toBeCloseTo(before.realised_pnl + 10, 2);
  });

  it('lists every fill as a trade', async () => {
    const trades = WireTradeList.parse((await api.call('GET', '/trades')).body).trades;
    expect(trades.length).toBe(5);
    expect(trades[0]?.filled_at).toMatch(/\+05:30$/);
  });
});

describe('positions carry exact values, the contract multiplier and the overnight quantity', () => {
  it('reports fills of 100, 100.05, 100.05 at LTP 101 as ₹2.90 exactly, with the values that make it', async () => {
    const b = await startTestBroker();
    try {
      const irfc = await b.instrument('NSE', 'IRFC');
      await b.fillAt({ tradingsymbol: 'IRFC' }, 100);
      await b.fillAt({ tradingsymbol: 'IRFC' }, 100.05);
      await b.fillAt({ tradingsymbol: 'IRFC' }, 100.05);
      b.broker.setPrice(irfc.instrument_token, 101);
      const [pos] = WirePositionList.parse((await b.call('GET', '/positions')).body).positions;
      expect(pos).toMatchObject({
        quantity: 3,
        multiplier: 1,
        average_price: 100.0333,
        buy_quantity: 3,
        buy_value: 300.1,
        sell_value: 0,
        day_buy_value: 300.1,
        pnl: 2.9,
        unrealised_pnl: 2.9,
        m2m: 2.9,
      });
    } finally {
      await b.close();
    }
  });

  it('values an MCX contract by its multiplier (GOLDM: ₹10 of P&L per ₹1 of price)', async () => {
    const b = await startTestBroker();
    try {
      const goldm = await findInstrument(b, (i) => i.exchange === 'MCX' && i.name === 'GOLDM');
      expect(goldm.multiplier).toBe(10);
      await b.fillAt({ exchange: 'MCX', tradingsymbol: goldm.tradingsymbol, product: 'NRML' }, 121300);
      b.broker.setPrice(goldm.instrument_token, 121305);
      const [pos] = WirePositionList.parse((await b.call('GET', '/positions')).body).positions;
      expect(pos).toMatchObject({ quantity: 1, multiplier: 10, average_price: 121300, buy_value: 12_13_000, pnl: 50 });
      // Margin on the contract's value: 12,13,000 / 4 (NRML).
      expect(WireFunds.parse((await b.call('GET', '/funds')).body).funds).toMatchObject({
        used_margin: 3_03_250,
        unrealised_pnl: 50,
      });
    } finally {
      await b.close();
    }
  });

  it('carries an NRML position into the next day: day P&L (m2m) runs from the previous close, total P&L from cost', async () => {
    // Wed 25 and Thu 26 Nov 2026: two trading days in a row (the 24th is a holiday).
    let now = Date.parse('2026-11-25T10:00:00+05:30');
    const b = await startTestBroker({ clock: () => now, tokenTtlMs: 7 * 24 * 3600_000 });
    try {
      const fut = await findInstrument(b, (i) => /^NIFTY\d\d[A-Z]{3}FUT$/.test(String(i.tradingsymbol)));
      const order = { exchange: 'NFO', tradingsymbol: fut.tradingsymbol, product: 'NRML', quantity: 75 };
      await b.fillAt(order, 26000);
      now += 3600_000;
      b.broker.setPrice(fut.instrument_token, 26100); // the day's last price: tomorrow's previous close
      now = Date.parse('2026-11-26T10:00:00+05:30');
      b.broker.setPrice(fut.instrument_token, 26150);
      const positions = async () => WirePositionList.parse((await b.call('GET', '/positions')).body).positions;
      expect(await positions()).toEqual([
        expect.objectContaining({
          quantity: 75,
          overnight_quantity: 75,
          close_price: 26100,
          buy_quantity: 75,
          buy_value: 19_50_000,
          day_buy_quantity: 0,
          day_buy_value: 0,
          pnl: 75 * 150,
          m2m: 75 * 50,
        }),
      ]);
      // Closing it today realises the whole move, but the day's share is still from the close.
      await b.fillAt({ ...order, transaction_type: 'SELL' }, 26150);
      expect(await positions()).toEqual([
        expect.objectContaining({
          quantity: 0,
          overnight_quantity: 75,
          day_sell_quantity: 75,
          day_sell_value: 19_61_250,
          realised_pnl: 75 * 150,
          pnl: 75 * 150,
          m2m: 75 * 50,
        }),
      ]);
      // A flat position does not carry into the day after.
      now = Date.parse('2026-11-27T10:00:00+05:30');
      expect(await positions()).toEqual([]);
    } finally {
      await b.close();
    }
  });
});

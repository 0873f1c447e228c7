import { afterEach, describe, expect, it } from 'vitest';
import { WireMarketStatus, WireOrder, WireOrderHistory } from '../wire/rest-schemas';
import { type Api, findInstrument, startTestBroker } from './test-helpers';

/**
 * Sessions, after-market orders, the close and T+1, over HTTP on a broker whose market clock is
 * the test's (docs/api.md §Sessions and the calendar, §After-market orders, §The close,
 * §Margins, positions, holdings, funds). Mon 23 and Wed 25 Nov 2026 are trading days, Tue 24 a
 * holiday.
 */

let now = 0;
const at = (ist: string): number => Date.parse(`${ist}+05:30`);
let api: Api;

async function broker(start: string): Promise<Api> {
  now = at(start);
  api = await startTestBroker({ clock: () => now, marketClock: 'wall', tokenTtlMs: 30 * 24 * 3600_000 });
  return api;
}
afterEach(() => api.close());

const order = async (id: string) => WireOrder.parse(await api.order(id));
const history = async (id: string) =>
  WireOrderHistory.parse((await api.call('GET', `/orders/${id}/history`)).body).history;

describe('outside market hours', () => {
  it('refuses a regular order naming variety and the next open, and creates nothing', async () => {
    await broker('2026-11-23T16:00:00');
    const before = api.broker.orderCount();
    const r = await api.place();
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('market_closed');
    expect(r.body.errors).toEqual([
      {
        field: 'variety',
        message:
          'NSE is closed (after hours); it opens at 09:15 IST on Wed 25 Nov. Place it as an after-market order (variety amo) to send it at the open',
      },
    ]);
    expect(api.broker.orderCount()).toBe(before);
  });

  it('holds an after-market order with its margin blocked, and at the open releases it to take the book', async () => {
    await broker('2026-11-24T20:00:00');
    const infy = await api.instrument('NSE', 'INFY');
    const r = await api.place({ variety: 'amo', quantity: 5 });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('AMO REQ RECEIVED');
    expect((await api.call('GET', '/funds')).body.funds.used_margin).toBeGreaterThan(0);
    // Still an order: it can be changed while it waits.
    const m = await api.call('PATCH', `/orders/${r.body.order_id}`, { quantity: 6 });
    expect(m.body.status).toBe('AMO REQ RECEIVED');
    expect((await order(r.body.order_id)).variety).toBe('amo');

    now = at('2026-11-25T09:15:01');
    const { ask } = await api.quote(infy.instrument_token);
    const o = await order(r.body.order_id);
    expect(o).toMatchObject({ status: 'COMPLETE', filled_quantity: 6, average_price: ask });
    const h = await history(o.order_id);
    expect(h.map((e) => e.status)).toEqual(['AMO REQ RECEIVED', 'AMO REQ RECEIVED', 'OPEN', 'COMPLETE']);
    expect(h[2]?.message).toBe('Released at the open');
  });

  it('refuses an after-market order while the exchange is in session, naming variety', async () => {
    await broker('2026-11-25T11:00:00');
    const r = await api.place({ variety: 'amo' });
    expect([r.status, r.body.code, r.body.errors[0].field]).toEqual([400, 'market_open', 'variety']);
  });

  it('collects orders in the pre-open without matching, and at the open they take the book', async () => {
    await broker('2026-11-25T09:05:00');
    const infy = await api.instrument('NSE', 'INFY');
    const r = await api.place({ order_type: 'LIMIT', price: Math.round((infy.last_price + 5) * 20) / 20 });
    expect(r.body.status).toBe('OPEN');
    expect((await order(r.body.order_id)).filled_quantity).toBe(0);
    api.broker.setPrice(infy.instrument_token, infy.last_price);
    expect((await order(r.body.order_id)).filled_quantity).toBe(0);

    now = at('2026-11-25T09:16:00');
    const { ask } = await api.quote(infy.instrument_token);
    // At the open it is a marketable limit: it takes the best ask, not its own (worse) limit.
    expect(await order(r.body.order_id)).toMatchObject({ status: 'COMPLETE', average_price: ask });
  });

  it('does not tick while closed: market ticks move nothing', async () => {
    await broker('2026-11-28T11:00:00');
    expect((await api.call('POST', '/_control/tick', { count: 20 })).body.moved).toBe(0);
  });
});

describe('the close', () => {
  it('cancels working DAY orders, squares off MIS at the last price, keeps NRML, and delivers CNC buys the next day', async () => {
    await broker('2026-11-25T15:00:00');
    const infy = await api.instrument('NSE', 'INFY');
    const fut = await findInstrument(api, (i) => /^NIFTY\d\d[A-Z]{3}FUT$/.test(String(i.tradingsymbol)));
    await api.fillAt({ quantity: 10 }, 1500);
    await api.fillAt({ exchange: 'NFO', tradingsymbol: fut.tradingsymbol, product: 'NRML', quantity: 75 }, 26000);
    await api.fillAt({ tradingsymbol: 'ITC', product: 'CNC', quantity: 5 }, 400);
    const resting = await api.place({ order_type: 'LIMIT', price: 1400 });
    api.broker.setPrice(infy.instrument_token, 1510);

    now = at('2026-11-25T15:31:00');
    expect(await order(resting.body.order_id)).toMatchObject({
      status: 'CANCELLED',
      status_message: 'Cancelled at the close: a DAY order lives one session',
    });
    const squareOff = (await api.call('GET', '/orders')).body.orders.find(
      (o: { status_message: string | null }) => o.status_message === 'Squared off at the close (MIS)',
    );
    expect(squareOff).toMatchObject({
      tradingsymbol: 'INFY',
      transaction_type: 'SELL',
      quantity: 10,
      status: 'COMPLETE',
      average_price: 1510,
      client_order_id: null,
    });
    const positions = (await api.call('GET', '/positions')).body.positions;
    expect(positions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tradingsymbol: 'INFY', product: 'MIS', quantity: 0, realised_pnl: 100 }),
        expect.objectContaining({ tradingsymbol: fut.tradingsymbol, product: 'NRML', quantity: 75 }),
        expect.objectContaining({ tradingsymbol: 'ITC', product: 'CNC', quantity: 5 }),
      ]),
    );
    expect((await api.call('GET', '/holdings')).body.holdings).toEqual([]);

    now = at('2026-11-26T09:20:00');
    expect((await api.call('GET', '/positions')).body.positions).toEqual([
      expect.objectContaining({ tradingsymbol: fut.tradingsymbol, quantity: 75, overnight_quantity: 75 }),
    ]);
    expect((await api.call('GET', '/holdings')).body.holdings).toEqual([
      expect.objectContaining({ tradingsymbol: 'ITC', quantity: 5, average_price: 400 }),
    ]);
  });

  it('settles a contract expiring today at its intrinsic value and takes it out of the universe', async () => {
    await broker('2026-11-23T11:00:00');
    const chain = (await api.call('GET', '/option-chain?underlying=NIFTY&expiry=2026-11-23&strikes=3')).body;
    const spot = chain.underlying_price as number;
    // The lowest strike: its call is in the money, its put out of it.
    const itm = chain.strikes[0];
    const otm = itm;
    expect(itm.strike).toBeLessThan(spot);
    const call = { exchange: 'NFO', tradingsymbol: itm.call.tradingsymbol, product: 'NRML', quantity: 75 };
    await api.fillAt(call, itm.call.last_price);
    await api.fillAt({ ...call, tradingsymbol: otm.put.tradingsymbol }, otm.put.last_price);

    now = at('2026-11-23T15:31:00');
    const settled = (await api.call('GET', '/orders')).body.orders.filter((o: { status_message: string | null }) =>
      o.status_message?.startsWith('Settled at expiry'),
    );
    const price = (symbol: string) =>
      settled.find((o: { tradingsymbol: string }) => o.tradingsymbol === symbol)?.average_price;
    expect(Math.abs(price(itm.call.tradingsymbol) - (spot - itm.strike))).toBeLessThanOrEqual(0.05);
    expect(price(otm.put.tradingsymbol)).toBe(0);
    expect(
      (await api.call('GET', '/positions')).body.positions.every((p: { quantity: number }) => p.quantity === 0),
    ).toBe(true);
    const listed = (await api.call('GET', '/instruments?exchange=NFO')).body.instruments;
    expect(listed.some((i: { tradingsymbol: string }) => i.tradingsymbol === itm.call.tradingsymbol)).toBe(false);
    expect(listed.some((i: { expiry: string | null }) => i.expiry === '2026-11-23')).toBe(false);
  });
});

describe('the market clock', () => {
  it("meets a new user with an open market whatever the hour: on a Saturday night it starts at Monday's open", async () => {
    now = at('2026-11-28T23:00:00');
    api = await startTestBroker({ clock: () => now, tokenTtlMs: 30 * 24 * 3600_000 });
    const status = WireMarketStatus.parse((await api.call('GET', '/market/status')).body);
    expect(status).toMatchObject({ now: '2026-11-30T09:15:00+05:30', simulated: true, speed: 1 });
    expect(status.exchanges.find((e) => e.exchange === 'NSE')?.phase).toBe('open');
    const r = await api.place();
    expect((await order(r.body.order_id)).status).toBe('COMPLETE');
  });

  it("reports each exchange's phase and moves only forward through the control interface", async () => {
    await broker('2026-11-23T11:00:00');
    const status = WireMarketStatus.parse((await api.call('GET', '/market/status')).body);
    expect(status).toMatchObject({ now: '2026-11-23T11:00:00+05:30', simulated: false, speed: 1 });
    expect(status.exchanges.find((e) => e.exchange === 'NSE')).toMatchObject({
      phase: 'open',
      next_close: '2026-11-23T15:30:00+05:30',
    });

    const back = await api.call('POST', '/_control/clock', { at: '2026-11-23T10:00:00+05:30' }, { token: null });
    expect([back.status, back.body.errors[0].field]).toEqual([400, 'at']);
    const fast = await api.call('POST', '/_control/clock', { speed: 0 }, { token: null });
    expect([fast.status, fast.body.errors[0].field]).toEqual([400, 'speed']);
    const moved = await api.call(
      'POST',
      '/_control/clock',
      { at: '2026-11-23T16:00:00+05:30', speed: 60 },
      { token: null },
    );
    expect(moved.status).toBe(200);
    expect(WireMarketStatus.parse(moved.body)).toMatchObject({
      now: '2026-11-23T16:00:00+05:30',
      simulated: true,
      speed: 60,
    });
    expect(moved.body.exchanges.find((e: { exchange: string }) => e.exchange === 'NSE').phase).toBe('closed');
  });
});

describe("the option chain's open interest change", () => {
  it('runs from the previous day’s end: nothing changed at the first open, the day’s trading since the next one', async () => {
    await broker('2026-11-23T09:20:00');
    type Leg = { tradingsymbol: string; oi: number; oi_change: number };
    const legs = async (): Promise<Map<string, Leg>> => {
      const chain = (await api.call('GET', '/option-chain?underlying=NIFTY&expiry=2026-12-29&strikes=3')).body;
      return new Map(
        (chain.strikes as Array<{ call: Leg; put: Leg }>)
          .flatMap((s) => [s.call, s.put])
          .map((l) => [l.tradingsymbol, l]),
      );
    };
    // No trading yet: nothing changed.
    for (const l of (await legs()).values()) expect(l.oi_change, l.tradingsymbol).toBe(0);
    expect((await api.call('POST', '/_control/tick', { count: 200 }, { token: null })).status).toBe(200);
    const monday = await legs();
    // The day's trading moved open interest, and the change says by how much.
    expect([...monday.values()].some((l) => l.oi_change !== 0)).toBe(true);

    now = at('2026-11-25T09:20:00');
    expect((await api.call('POST', '/_control/tick', { count: 200 }, { token: null })).status).toBe(200);
    const both = [...(await legs()).values()].filter((l) => monday.has(l.tradingsymbol));
    expect(both.length).toBeGreaterThan(0);
    for (const l of both) expect(l.oi - l.oi_change, l.tradingsymbol).toBe(monday.get(l.tradingsymbol)!.oi);
  });
});

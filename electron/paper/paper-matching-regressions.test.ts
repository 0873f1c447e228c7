import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Api, findInstrument, startTestBroker } from './test-helpers';

/**
 * Disagreements the reference model (paper-property.test.ts) found between the broker and
 * docs/api.md, each pinned by the smallest sequence that shows it, over HTTP.
 */

let api: Api;
beforeEach(async () => {
  api = await startTestBroker({ startingCash: 500_000 });
});
afterEach(() => api.close());

const order = (o: Record<string, unknown>) =>
  api.place({ order_type: 'MARKET', validity: 'DAY', ...o }).then(async (r) => {
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return api.order(r.body.order_id);
  });
const funds = async () => (await api.call('GET', '/funds')).body.funds;

describe('a CNC sell never sells more than the holdings (docs/api.md §Margins, holdings)', () => {
  it('refuses to raise a resting CNC sell above the shares held, and sells only what is held', async () => {
    const yes = { exchange: 'NSE', tradingsymbol: 'YESBANK' };
    const ltp = (await api.instrument('NSE', 'YESBANK')).last_price;
    expect((await order({ ...yes, transaction_type: 'BUY', quantity: 2, product: 'CNC' })).status).toBe('COMPLETE');
    const stop = await order({
      ...yes,
      transaction_type: 'SELL',
      quantity: 2,
      product: 'CNC',
      order_type: 'SL-M',
      trigger_price: Math.round((ltp - 0.5) * 100) / 100,
    });
    expect(stop.status).toBe('TRIGGER PENDING');

    const r = await api.call('PATCH', `/orders/${stop.order_id}`, { quantity: 3 });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ field: 'quantity', message: expect.stringMatching(/holdings/) }]);
    expect((await api.order(stop.order_id)).quantity).toBe(2);

    // Triggered, it sells the two shares bought today (T+1: not yet holdings) and realises exactly
    // the difference between the two fills.
    const before = (await funds()).realised_pnl;
    api.broker.setPrice((await api.instrument('NSE', 'YESBANK')).instrument_token, Math.round((ltp - 1) * 100) / 100);
    expect(await api.order(stop.order_id)).toMatchObject({ status: 'COMPLETE', filled_quantity: 2 });
    expect((await api.call('GET', '/holdings')).body.holdings).toEqual([]);
    const fills = (await api.call('GET', '/trades')).body.trades as Array<{ transaction_type: string; price: number }>;
    const bought = fills.find((t) => t.transaction_type === 'BUY')!.price;
    const sold = fills.find((t) => t.transaction_type === 'SELL')!.price;
    expect((await funds()).realised_pnl - before).toBeCloseTo(2 * (sold - bought), 4);
    expect((await api.call('GET', '/positions')).body.positions).toEqual([
      expect.objectContaining({ tradingsymbol: 'YESBANK', product: 'CNC', quantity: 0 }),
    ]);
  });
});

describe('exits need no margin (docs/api.md §Margins)', () => {
  it('closes a position and sells holdings while a realised loss has left the free margin negative', async () => {
    const fut = await findInstrument(
      api,
      (i) => i.exchange === 'NFO' && i.name === 'ITC' && i.instrument_type === 'FUT',
    );
    const futOrder = { exchange: 'NFO', tradingsymbol: fut.tradingsymbol, product: 'MIS' };
    expect((await order({ ...futOrder, transaction_type: 'BUY', quantity: 2 * fut.lot_size })).status).toBe('COMPLETE');
    const itc = { exchange: 'NSE', tradingsymbol: 'ITC' };
    expect((await order({ ...itc, transaction_type: 'BUY', quantity: 100, product: 'MIS' })).status).toBe('COMPLETE');
    expect((await order({ ...itc, transaction_type: 'BUY', quantity: 4, product: 'CNC' })).status).toBe('COMPLETE');

    // The future falls 39% and is sold: the realised loss exceeds what the ITC position leaves free.
    api.broker.setPrice(fut.instrument_token, Math.round(fut.last_price * 0.61 * 20) / 20);
    expect((await order({ ...futOrder, transaction_type: 'SELL', quantity: 2 * fut.lot_size })).status).toBe(
      'COMPLETE',
    );
    expect((await funds()).available_margin).toBeLessThan(0);

    const exitPosition = await order({ ...itc, transaction_type: 'SELL', quantity: 100, product: 'MIS' });
    expect([exitPosition.status, exitPosition.status_message]).toEqual(['COMPLETE', null]);
    const sellHoldings = await order({ ...itc, transaction_type: 'SELL', quantity: 4, product: 'CNC' });
    expect([sellHoldings.status, sellHoldings.status_message]).toEqual(['COMPLETE', null]);
    expect((await api.call('GET', '/holdings')).body.holdings).toEqual([]);
    expect((await funds()).used_margin).toBe(0);
  });

  it('lets a resting exit be repriced while the free margin is negative', async () => {
    const fut = await findInstrument(
      api,
      (i) => i.exchange === 'NFO' && i.name === 'ITC' && i.instrument_type === 'FUT',
    );
    const futOrder = { exchange: 'NFO', tradingsymbol: fut.tradingsymbol, product: 'MIS' };
    const itc = await api.instrument('NSE', 'ITC');
    await order({ ...futOrder, transaction_type: 'BUY', quantity: 2 * fut.lot_size });
    await order({ exchange: 'NSE', tradingsymbol: 'ITC', transaction_type: 'BUY', quantity: 100, product: 'MIS' });
    const target = Math.round(itc.last_price * 1.1 * 20) / 20;
    const exit = await order({
      exchange: 'NSE',
      tradingsymbol: 'ITC',
      transaction_type: 'SELL',
      quantity: 100,
      product: 'MIS',
      order_type: 'LIMIT',
      price: target,
    });
    expect(exit.status).toBe('OPEN');
    api.broker.setPrice(fut.instrument_token, Math.round(fut.last_price * 0.61 * 20) / 20);
    await order({ ...futOrder, transaction_type: 'SELL', quantity: 2 * fut.lot_size });
    expect((await funds()).available_margin).toBeLessThan(0);

    const r = await api.call('PATCH', `/orders/${exit.order_id}`, { price: target + 1 });
    expect([r.status, r.body.code]).toEqual([200, undefined]);
    expect((await api.order(exit.order_id)).price).toBe(target + 1);
  });
});

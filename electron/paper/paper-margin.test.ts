import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WireFunds, WireOrderMargin } from '../wire/rest-schemas';
import { type Api, startTestBroker } from './test-helpers';

/**
 * Margin for orders that reduce a position, over HTTP against the real paper broker: only the
 * part of the position not already being closed by earlier working orders is margin-free.
 */

let api: Api;
beforeAll(async () => {
  api = await startTestBroker({ startingCash: 1_00_000 });
});
afterAll(() => api.close());

const funds = async () => WireFunds.parse((await api.call('GET', '/funds')).body).funds;
const sell100At1600 = { transaction_type: 'SELL', quantity: 100, order_type: 'LIMIT', price: 1600 };

describe('margin for reducing orders', () => {
  it('frees only the first of five SELL 100 against a long 100; the rest block margin or are refused', async () => {
    const long = await api.fillAt({ quantity: 100 }, 1500);
    expect((await api.order(long.body.order_id)).status).toBe('COMPLETE');
    // The long carries 1,50,000 / 5 = ₹30,000; ₹70,000 is free.
    expect(await funds()).toMatchObject({ used_margin: 30_000, available_margin: 70_000 });

    const statuses: string[] = [];
    for (let n = 0; n < 5; n++) statuses.push((await api.place(sell100At1600)).body.status);
    // The first closes the long (free); each further one would open a short of 100 at ₹1,600:
    // 1,60,000 / 5 = ₹32,000 each. Two fit in ₹70,000, the last two do not.
    expect(statuses).toEqual(['OPEN', 'OPEN', 'OPEN', 'REJECTED', 'REJECTED']);
    expect(await funds()).toMatchObject({ used_margin: 94_000, available_margin: 6_000 });
    const orders = (await api.call('GET', '/orders?status=REJECTED')).body.orders;
    expect(orders[0].status_message).toMatch(/^Insufficient funds: this order needs ₹32,000.00 margin/);

    // The calculator agrees: one more SELL 100 needs full margin, the position being spoken for.
    const quote = await api.call('POST', '/margins/orders', {
      exchange: 'NSE',
      tradingsymbol: 'INFY',
      product: 'MIS',
      validity: 'DAY',
      ...sell100At1600,
    });
    expect(WireOrderMargin.parse(quote.body).margin.total).toBe(32_000);
  });

  it('keeps the earliest reducing order free when it is modified', async () => {
    const working = (await api.call('GET', '/orders?status=OPEN')).body.orders;
    const first = working.find((o: { transaction_type: string }) => o.transaction_type === 'SELL');
    const r = await api.call('PATCH', `/orders/${first.order_id}`, { price: 1601 });
    expect(r.status).toBe(200);
    expect(await funds()).toMatchObject({ used_margin: 94_000 });
  });
});

import { describe, expect, it } from 'vitest';
import type { Order, OrderRequest } from '@shared/domain/order';
import type { PlaceOutcome } from '@shared/domain/placement';
import { placeBuysFirst, type BuysFirstDeps } from '@shared/trading/buys-first';
import { useAppOnPaper } from './testing/app-on-paper';

/**
 * Multi-leg orders that rely on a hedge (docs/strategy.md §Placing): the legs go through the
 * dispatcher to the real paper broker, and a sell goes only after the buys before it FILLED. The
 * deadline runs on a clock the test turns, so nothing here depends on the machine's speed.
 */
describe('sells wait for the buys to fill', () => {
  const app = useAppOnPaper({ name: 'buysfirst', prices: { INFY: 1500 } });
  const { dispatch } = app;
  let n = 0;
  let t = 0;

  const deps: BuysFirstDeps = {
    place: async (order) => {
      const r = await dispatch('orders.place', { order, requestId: `req-buysfirst-${(n += 1)}` });
      const data = r.ok ? (r.data as PlaceOutcome) : null;
      return data?.state === 'placed'
        ? { goOn: data.status !== 'REJECTED', orderId: data.orderId }
        : { goOn: false, orderId: null };
    },
    read: async (orderId) => {
      const r = await dispatch('orders.get', { orderId });
      if (!r.ok) throw new Error(r.error.message);
      return r.data as Order;
    },
    wait: async (ms) => {
      t += ms;
      await new Promise((resolve) => setImmediate(resolve));
    },
    now: () => t,
  };
  const leg = (side: 'BUY' | 'SELL', price: number): OrderRequest => ({
    exchange: 'NSE',
    tradingsymbol: 'INFY',
    transactionType: side,
    quantity: 1,
    orderType: 'LIMIT',
    product: 'MIS',
    validity: 'DAY',
    price,
    triggerPrice: null,
  });
  const orders = async (): Promise<Order[]> => {
    const r = await dispatch('orders.list', undefined);
    if (!r.ok) throw new Error(r.error.message);
    return r.data as Order[];
  };

  it('a buy that does not fill: the sell is never sent, and the answer names the buy still working', async () => {
    const before = (await orders()).length;
    const result = await placeBuysFirst([leg('BUY', 1400), leg('SELL', 1495)], deps);
    const placed = (await orders()).slice(before);
    expect(placed.map((o) => [o.transactionType, o.status])).toEqual([['BUY', 'OPEN']]);
    expect(result).toMatchObject({
      kind: 'held',
      n: 1,
      working: [{ n: 0, orderId: placed[0]?.orderId, status: 'OPEN', filledQuantity: 0, quantity: 1 }],
    });
    // Moving the price does not send it later either: nothing is left waiting.
    app.setPrice('INFY', 1390);
    expect((await orders()).slice(before).map((o) => o.transactionType)).toEqual(['BUY']);
    app.setPrice('INFY', 1500);
  });

  it('a buy at a protected limit fills at once: then the sell goes', async () => {
    const before = (await orders()).length;
    const result = await placeBuysFirst([leg('BUY', 1530), leg('SELL', 1470)], deps);
    expect(result).toEqual({ kind: 'done' });
    const placed = (await orders()).slice(before);
    expect(placed.map((o) => [o.transactionType, o.status])).toEqual([
      ['BUY', 'COMPLETE'],
      ['SELL', 'COMPLETE'],
    ]);
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, OrderRequest } from '@shared/domain/order';
import type { PlaceOutcome } from '@shared/domain/placement';
import { placeBuysFirst, type BuysFirstDeps } from '@shared/trading/buys-first';
import { createDispatcher } from './dispatcher';
import { createAppServices, type AppServices } from './app-services';
import { startPaperBroker, type PaperBroker } from '../paper';

/**
 * Multi-leg orders that rely on a hedge (docs/strategy.md §Placing): the legs go through the
 * dispatcher to the real paper broker, and a sell goes only after the buys before it FILLED. The
 * deadline runs on a clock the test turns, so nothing here depends on the machine's speed.
 */
describe('sells wait for the buys to fill', () => {
  let dir: string;
  let paper: PaperBroker;
  let services: AppServices;
  let dispatch: ReturnType<typeof createDispatcher>;
  let token = 0;
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

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-buysfirst-'));
    paper = await startPaperBroker({ port: 0, tickIntervalMs: 0 });
    services = await createAppServices({ dataDir: dir, brokerUrl: paper.url, apiKey: 'paper', apiSecret: 'paper' });
    dispatch = createDispatcher(services.handlers);
    const list = await dispatch('instruments.list', { exchange: 'NSE' });
    if (!list.ok) throw new Error(list.error.message);
    token = (list.data as Array<{ instrumentToken: number; tradingsymbol: string }>).find(
      (i) => i.tradingsymbol === 'INFY',
    )!.instrumentToken;
    paper.setPrice(token, 1500);
  });
  afterAll(async () => {
    await services.close();
    await paper.close();
    await rm(dir, { recursive: true, force: true });
  });

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
    paper.setPrice(token, 1390);
    expect((await orders()).slice(before).map((o) => o.transactionType)).toEqual(['BUY']);
    paper.setPrice(token, 1500);
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

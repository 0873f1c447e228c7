import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@shared/ipc/app-error';
import { marketBuy, startCoreFixture, type CoreFixture } from '../../core/testing/core-fixture';
import type { TradingCore } from '../../core/trading-core';
import type { OrderChangesPage } from '../broker';

/** The REST adapter's change listing (the core holds it as a `Broker`, where it is optional). */
function sinceOf(core: TradingCore): (cursor: string | null) => Promise<OrderChangesPage> {
  const list = core.broker.listOrdersSince?.bind(core.broker);
  if (!list) throw new Error('this adapter lists no changes');
  return list;
}

describe('REST adapter: order ids in paths', () => {
  let fx: CoreFixture;
  let core: TradingCore;
  beforeAll(async () => {
    fx = await startCoreFixture();
    core = await fx.newCore();
    await core.start();
  });
  afterAll(() => fx.close());

  it('refuses an order id that could change the route (`..`, `a/b`) without sending anything', async () => {
    for (const id of ['..', '.', 'a/b', 'x?y', '']) {
      const before = core.stats.sent;
      const err = await core.broker.cancelOrder(id).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).info).toMatchObject({ kind: 'bad_request', field: 'orderId' });
      expect(core.stats.sent).toBe(before);
    }
  });
});

describe('REST adapter: incremental order reads (docs/api.md §Incremental reads)', () => {
  let fx: CoreFixture;
  let core: TradingCore;
  beforeAll(async () => {
    fx = await startCoreFixture();
    core = await fx.newCore({ rate: null });
    await core.start();
  });
  afterAll(() => fx.close());

  it('reads everything with a cursor first, then only what changed, and an idle re-read is a 304 with the same empty page', async () => {
    const buy = marketBuy(await core.broker.listInstruments('NSE'));
    const place = (n: number) => core.broker.placeOrder({ ...buy, clientOrderId: `since-${n}` });
    await place(1);
    const first = await sinceOf(core)(null);
    expect(first.full).toBe(true);
    expect(first.orders.map((o) => o.clientOrderId)).toEqual(['since-1']);
    expect(first.cursor).toEqual(expect.any(String));

    const second = await place(2);
    const delta = await sinceOf(core)(first.cursor);
    expect(delta).toMatchObject({ full: false, orders: [{ orderId: second.orderId }] });

    const notModified = core.stats.notModified;
    const idle = await sinceOf(core)(delta.cursor);
    const again = await sinceOf(core)(delta.cursor);
    expect(idle).toEqual({ orders: [], cursor: delta.cursor, full: false });
    expect(again).toEqual(idle);
    expect(core.stats.notModified).toBe(notModified + 1);
  });
});

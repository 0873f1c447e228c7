import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketBuy, startCoreFixture, type CoreFixture } from '../testing/core-fixture';

describe('an intent a placement gave up on is settled while the app keeps running', () => {
  let fx: CoreFixture;

  beforeAll(async () => {
    fx = await startCoreFixture({ rate: { perSecond: 100_000, burst: 100_000 } });
  });
  afterAll(async () => fx.close());

  it('every reply lost → the ticket gets a clear "not confirmed" error; once the broker answers, the background pass finds exactly one order', async () => {
    const core = await fx.newCore({
      rate: null,
      resolutionBackoff: { baseMs: 5, capMs: 20, maxRetries: 4 },
      reconcileEveryMs: 50,
    });
    await core.start();
    const order = marketBuy(await core.broker.listInstruments());
    await core.catalog.find(order.exchange, order.tradingsymbol); // the rules check needs the instrument list
    const before = fx.paper.orderCount();

    // The broker acts on every request but every reply is lost: the app cannot know.
    fx.paper.setFaults('drop_reply=1');
    await expect(core.orders.place(order)).rejects.toMatchObject({
      message: expect.stringMatching(/did not confirm the order in time/),
    });
    expect(core.openIntents()).toBe(1);
    // The order may well exist; the ledger must not forget it.
    const placedWhileBlind = fx.paper.orderCount() - before;
    expect(placedWhileBlind).toBe(1);

    fx.paper.setFaults({});
    await expect.poll(() => core.openIntents(), { timeout: 10_000 }).toBe(0);
    // Found by its client_order_id, not sent again.
    expect(fx.paper.orderCount() - before).toBe(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Placement } from '@shared/domain/placement';
import { marketBuy, startCoreFixture, type CoreFixture } from '../testing/core-fixture';

describe('an intent whose replies are lost keeps being checked after the caller is answered', () => {
  let fx: CoreFixture;

  beforeAll(async () => {
    fx = await startCoreFixture({ rate: { perSecond: 100_000, burst: 100_000 } });
  });
  afterAll(async () => fx.close());

  it('every reply lost → OrderService.place resolves "unconfirmed" (not a rejection) while the intent is still being checked; once replies flow, the same intent settles "placed" with exactly one order at the broker', async () => {
    const lists: Placement[][] = [];
    const core = await fx.newCore({
      rate: null,
      placementTimings: { answerDeadlineMs: 500 },
      events: { onPlacements: (p) => lists.push(p) },
    });
    await core.start();
    const order = marketBuy(await core.broker.listInstruments());
    await core.catalog.find(order.exchange, order.tradingsymbol); // the rules check needs the instrument list
    const before = fx.paper.orderCount();

    // The broker acts on every request but every reply is lost: the app cannot know.
    fx.paper.setFaults('drop_reply=1');
    const answer = await core.orders.place(order);
    expect(answer).toMatchObject({ state: 'unconfirmed', detail: expect.stringMatching(/^Checking with the broker/) });
    // Answered while the intent is still open: the deadline answered, not the settlement.
    const cid = answer.clientOrderId;
    expect(core.orders.placements().map((p) => [p.clientOrderId, p.state])).toEqual([[cid, 'checking']]);
    expect(lists.at(-1)?.map((p) => [p.clientOrderId, p.state])).toEqual([[cid, 'checking']]);
    expect(core.orders.openIntents()).toBe(1);
    expect(fx.paper.orderCount() - before).toBe(1);

    fx.paper.setFaults({});
    await expect.poll(() => lists.at(-1)?.[0]?.state, { timeout: 10_000 }).toBe('placed');
    expect(core.orders.openIntents()).toBe(0);
    // Found by its client reference, not sent again.
    const held = (await core.broker.listOrders()).filter((o) => o.clientOrderId === cid);
    expect(held.map((o) => o.orderId)).toEqual([lists.at(-1)?.[0]?.orderId]);
    expect(fx.paper.orderCount() - before).toBe(1);
  });
});

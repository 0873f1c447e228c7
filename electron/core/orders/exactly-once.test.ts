import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketBuy, pool, startCoreFixture, type CoreFixture } from '../testing/core-fixture';

describe('exactly-once placement against the paper broker with faults on', () => {
  let fx: CoreFixture;

  beforeAll(async () => {
    // A generous server limit: this test is about lost replies and 5xx, not about pacing.
    fx = await startCoreFixture({ rate: { perSecond: 100_000, burst: 100_000 } });
  });
  afterAll(async () => fx.close());

  it('1,000 intents under drop_reply=0.2,server_error=0.1,rate_limit=0.1 → exactly 1,000 orders, one per intent', async () => {
    // Per-request Retry-After (not a global pause): the injected 429s are random, not a real limit.
    const core = await fx.newCore({ rate: null, pauseAllOnRetryAfter: false });
    await core.start();
    const order = marketBuy(await core.broker.listInstruments());
    const before = fx.paper.orderCount();
    fx.paper.setFaults('drop_reply=0.2,server_error=0.1,rate_limit=0.1');

    const results = await pool(1000, 64, () => core.orders.place(order));
    fx.paper.setFaults({});

    const failures = results.filter((r) => r.status === 'rejected');
    expect(failures.map((f) => String((f as PromiseRejectedResult).reason))).toEqual([]);
    const placements = results.map(
      (r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof core.orders.place>>>).value,
    );

    // The broker holds exactly one order per intent: none lost, none doubled.
    expect(fx.paper.orderCount() - before).toBe(1000);
    const onBroker = await core.broker.listOrders();
    const byClientId = new Map<string, string[]>();
    for (const o of onBroker)
      if (o.clientOrderId) byClientId.set(o.clientOrderId, [...(byClientId.get(o.clientOrderId) ?? []), o.orderId]);
    for (const p of placements) expect(byClientId.get(p.ack.clientOrderId ?? '')).toEqual([p.ack.orderId]);
    expect(new Set(placements.map((p) => p.ack.orderId)).size).toBe(1000);

    // The faults really fired, and some answers came from the recovery path.
    expect(placements.some((p) => p.recovered)).toBe(true);
    expect(core.openIntents()).toBe(0);
  });
});

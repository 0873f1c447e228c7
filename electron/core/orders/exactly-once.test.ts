import { afterEach, describe, expect, it } from 'vitest';
import type { Order, OrderRequest } from '@shared/domain/order';
import type { PlaceOutcome } from '@shared/domain/placement';
import { AppError } from '@shared/ipc/app-error';
import { AMBIGUOUS_KINDS } from '../../broker/broker-error';
import { newClientOrderId } from './client-order-id';
import { marketBuy, pool, startCoreFixture, type CoreFixture } from '../testing/core-fixture';
import type { TradingCore } from '../trading-core';

const FAULTS = 'drop_reply=0.2,server_error=0.1,rate_limit=0.1';

/** A client-side limiter that is on (it paces and queues) but does not hold this run for minutes. */
const CLIENT_LIMITER = {
  rate: { perSecond: 2_000, burst: 100 },
  placementRate: { perSecond: 1_000, burst: 50 },
  // The injected 429s are random, not a real limit: each waits its own Retry-After.
  pauseAllOnRetryAfter: false,
} as const;

/** Every reference the broker holds, with how many orders carry it. */
function ordersPerReference(orders: readonly Order[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const o of orders)
    if (o.clientOrderId) out.set(o.clientOrderId, [...(out.get(o.clientOrderId) ?? []), o.orderId]);
  return out;
}

/** Exactly one order per intent and no order without an intent. */
function expectExactlyOnce(references: readonly string[], orders: readonly Order[]): void {
  const perReference = ordersPerReference(orders);
  const doubled = [...perReference].filter(([, ids]) => ids.length > 1);
  expect(doubled, 'references placed more than once').toEqual([]);
  const missing = references.filter((r) => !perReference.has(r));
  expect(missing, 'intents with no order').toEqual([]);
  expect(orders.length).toBe(references.length);
}

/** A core whose new client references the test can see. */
async function coreRecordingReferences(fx: CoreFixture): Promise<{ core: TradingCore; references: string[] }> {
  const references: string[] = [];
  const core = await fx.newCore({
    ...CLIENT_LIMITER,
    newClientOrderId: () => {
      const id = newClientOrderId();
      references.push(id);
      return id;
    },
  });
  await core.start();
  return { core, references };
}

/** N placements through the order service under the faults; waits until every intent has settled. */
async function placeUnderFaults(
  fx: CoreFixture,
  n: number,
): Promise<{ references: string[]; outcomes: PlaceOutcome[]; orders: readonly Order[] }> {
  const { core, references } = await coreRecordingReferences(fx);
  const order = marketBuy(await core.broker.listInstruments());
  fx.paper.setFaults(FAULTS);
  const results = await pool(n, 64, () => core.orders.place(order));
  await core.orders.idle();
  fx.paper.setFaults({});
  const refused = results.filter((r) => r.status === 'rejected').map((r) => String(r.reason));
  expect(refused, 'placements answered as refused').toEqual([]);
  expect(core.orders.openIntents()).toBe(0);
  const outcomes = results.map((r) => (r as PromiseFulfilledResult<PlaceOutcome>).value);
  return { references, outcomes, orders: await core.broker.listOrders() };
}

describe('exactly-once placement against the paper broker with faults on and the client limiter on', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('broker without unique references (--no-idempotency): 1,000 intents under drop_reply=0.2,server_error=0.1,rate_limit=0.1 → exactly 1,000 orders, each reference once', async () => {
    fx = await startCoreFixture({ rate: { perSecond: 100_000, burst: 100_000 }, idempotency: false });
    const before = fx.paper.orderCount();
    const { references, outcomes, orders } = await placeUnderFaults(fx, 1000);
    expect(fx.paper.orderCount() - before).toBe(1000);
    expectExactlyOnce(references, orders);
    // Every answer that named an order named the one the broker holds for that reference.
    const held = ordersPerReference(orders);
    for (const o of outcomes) if (o.state === 'placed') expect(held.get(o.clientOrderId)).toEqual([o.orderId]);
    // The faults really fired: some answers came from a lookup.
    expect(outcomes.some((o) => o.state === 'placed' && o.recovered)).toBe(true);
  });

  it('broker with unique references (409 on reuse): 300 intents under the same faults → exactly 300 orders, each reference once', async () => {
    fx = await startCoreFixture({ rate: { perSecond: 100_000, burst: 100_000 } });
    const { references, orders } = await placeUnderFaults(fx, 300);
    expectExactlyOnce(references, orders);
  });

  it('the same check catches a client that blindly re-POSTs after a lost reply: it doubles orders on a broker without unique references', async () => {
    fx = await startCoreFixture({ rate: { perSecond: 100_000, burst: 100_000 }, idempotency: false });
    const core = await fx.newCore({ ...CLIENT_LIMITER });
    await core.start();
    const order: OrderRequest = marketBuy(await core.broker.listInstruments());
    fx.paper.setFaults(FAULTS);
    const references: string[] = [];
    await pool(200, 32, async () => {
      const clientOrderId = newClientOrderId();
      references.push(clientOrderId);
      // Blind: any ambiguous failure → POST the same reference again, never look it up.
      for (;;) {
        try {
          return await core.broker.placeOrder({ ...order, clientOrderId });
        } catch (err) {
          const kind = err instanceof AppError ? err.info.kind : 'internal';
          if (!AMBIGUOUS_KINDS.has(kind) && kind !== 'rate_limited') throw err;
        }
      }
    });
    fx.paper.setFaults({});
    const orders = await core.broker.listOrders();
    expect(() => expectExactlyOnce(references, orders)).toThrow(/placed more than once/);
  });
});

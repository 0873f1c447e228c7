import { afterEach, describe, expect, it } from 'vitest';
import type { Order, OrderRequest } from '@shared/domain/order';
import type { PlaceOutcome } from '@shared/domain/placement';
import { AppError } from '@shared/ipc/app-error';
import { AMBIGUOUS_KINDS } from '../../broker/broker-error';
import { newClientOrderId } from './client-order-id';
import { marketBuy, pool, startCoreFixture, type CoreFixture, type CoreOverrides } from '../testing/core-fixture';
import type { TradingCore } from '../trading-core';

const FAULTS = 'drop_reply=0.2,server_error=0.1,rate_limit=0.1';

/**
 * The policy at a smaller time scale (3 s window and horizon): an intent whose send is in doubt
 * and never landed ends "not placed" only after both, and this run has dozens of them.
 */
const SHORT_WINDOW: CoreOverrides = {
  placementTimings: { resendWindowMs: 3_000, landingHorizonMs: 3_000 },
};

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

/** How each intent ended: the order it was placed as, or null when it ended not placed. */
type Settled = Map<string, string | null>;

/** A core whose new client references, and how each settled, the test can see. */
async function coreRecordingReferences(
  fx: CoreFixture,
  extra: CoreOverrides = {},
): Promise<{ core: TradingCore; references: string[]; settled: Settled }> {
  const references: string[] = [];
  const settled: Settled = new Map();
  const core = await fx.newCore({
    ...CLIENT_LIMITER,
    ...extra,
    newClientOrderId: () => {
      const id = newClientOrderId();
      references.push(id);
      return id;
    },
    events: {
      onPlacements: (list) => {
        for (const p of list) {
          if (p.state === 'placed') settled.set(p.clientOrderId, p.orderId);
          else if (p.state === 'not_placed') settled.set(p.clientOrderId, null);
        }
      },
    },
  });
  await core.start();
  return { core, references, settled };
}

/** N placements through the order service under the faults; waits until every intent has settled. */
async function placeUnderFaults(
  fx: CoreFixture,
  n: number,
  faults = FAULTS,
  extra: CoreOverrides = {},
): Promise<{ references: string[]; outcomes: PlaceOutcome[]; orders: readonly Order[]; settled: Settled }> {
  const { core, references, settled } = await coreRecordingReferences(fx, extra);
  const order = marketBuy(await core.broker.listInstruments());
  fx.paper.setFaults(faults);
  const results = await pool(n, 64, () => core.orders.place(order));
  await core.orders.idle();
  fx.paper.setFaults({});
  const refused = results.filter((r) => r.status === 'rejected').map((r) => String(r.reason));
  expect(refused, 'placements answered as refused').toEqual([]);
  expect(core.orders.openIntents()).toBe(0);
  const outcomes = results.map((r) => (r as PromiseFulfilledResult<PlaceOutcome>).value);
  for (const o of outcomes) if (o.state === 'placed') settled.set(o.clientOrderId, o.orderId);
  return { references, outcomes, orders: await core.broker.listOrders(), settled };
}

/**
 * What the trader was told matches the broker, intent by intent: an intent told placed has
 * exactly the order it was told of, one told not placed has none, and no reference has two.
 */
function expectToldTheTruth(references: readonly string[], settled: Settled, orders: readonly Order[]): void {
  const held = ordersPerReference(orders);
  const doubled = [...held].filter(([, ids]) => ids.length > 1);
  expect(doubled, 'references placed more than once').toEqual([]);
  const untold = references.filter((r) => !settled.has(r));
  expect(untold, 'intents that never settled').toEqual([]);
  for (const r of references) expect(held.get(r) ?? null, r).toEqual(settled.get(r) === null ? null : [settled.get(r)]);
}

describe('exactly-once placement against the paper broker with faults on and the client limiter on', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('broker without unique references (--no-idempotency): 1,000 intents under drop_reply=0.2,server_error=0.1,rate_limit=0.1 → every reference at most once, and each intent told what the broker holds', async () => {
    fx = await startCoreFixture({ rate: { perSecond: 100_000, burst: 100_000 }, idempotency: false });
    const { references, outcomes, orders, settled } = await placeUnderFaults(fx, 1000, FAULTS, SHORT_WINDOW);
    expectToldTheTruth(references, settled, orders);
    // The faults really fired: some answers came from a lookup, and a 5xx that came before the
    // broker acted cost its intent (in doubt: never sent again, so not placed).
    expect(outcomes.some((o) => o.state === 'placed' && o.recovered)).toBe(true);
    expect([...settled.values()].filter((id) => id === null).length).toBeGreaterThan(0);
  });

  it('broker without unique references whose order book trails by 1.5 s: 150 intents under late_server_error=0.3,drop_reply=0.1 → exactly 150 orders, each reference once', async () => {
    fx = await startCoreFixture({
      rate: { perSecond: 100_000, burst: 100_000 },
      idempotency: false,
      orderbookLagMs: 1_500,
    });
    const { references, orders } = await placeUnderFaults(fx, 150, 'late_server_error=0.3,drop_reply=0.1');
    // Every send that failed here was acted on (a 5xx after the broker committed, a reply
    // dropped after it): a re-send after a lookup of the lagging book would be a second order.
    expectExactlyOnce(references, orders);
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

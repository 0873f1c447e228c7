import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INFY_MARKET_BUY } from '@shared/testing/order-fixtures';
import { LEDGER_FORMAT } from '../ledger/ledger-record';
import { startCoreFixture, type CoreFixture } from '../testing/core-fixture';
import { coreOn, failure, NO_KITE_LIMITS, type Dialect } from '../testing/dialects';

/**
 * After a restart the next day, an intent the last run left open cannot be verified on a broker
 * whose order list shows only today's orders (Kite): not finding it proves nothing, so it is not
 * "the broker has no order", and Place again says it may make a second order
 * (docs/money-path.md §After a restart nothing is re-sent automatically).
 */

const DAY_MS = 86_400_000;

/** The ledger a run left yesterday: one intent, open (the process died after journaling it). */
async function leftOpenYesterday(fx: CoreFixture, vaultKey: string): Promise<string> {
  const clientOrderId = 'td-yesterday-0000000000001';
  const intent = { v: LEDGER_FORMAT, t: 'intent', clientOrderId, at: Date.now() - DAY_MS, order: INFY_MARKET_BUY };
  await writeFile(join(fx.dir, `intents-${vaultKey}.jsonl`), `${JSON.stringify(intent)}\n`);
  return clientOrderId;
}

const VAULT: Record<Dialect, string> = { rest: 'paper', kite: 'kite-conformance', upstox: 'upstox-conformance' };

describe('an intent from an earlier day, found open at start', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('on Kite it cannot be verified; Place again is refused until the trader accepts it may duplicate', async () => {
    fx = await startCoreFixture({ kiteRates: NO_KITE_LIMITS });
    const cid = await leftOpenYesterday(fx, VAULT.kite);
    const core = await coreOn(fx, 'kite', { placementTimings: { landingHorizonMs: 200 } });
    await core.recovery();
    const [p] = core.orders.placements();
    expect(p).toMatchObject({ clientOrderId: cid, state: 'unverifiable' });
    expect(p?.detail).toMatch(
      /^Cannot be verified: order td-yesterday-\S+ was placed on \d{1,2} \w{3}, and Kite shows only today’s orders/,
    );
    const refused = await failure(core.orders.placeAgain(cid));
    expect(refused).toMatchObject({ kind: 'bad_request', field: 'mayDuplicate' });
    expect(refused.message).toMatch(/may make a second order/);
    expect(fx.paper.orderCount()).toBe(0);
    await expect(core.orders.placeAgain(cid, { mayDuplicate: true })).resolves.toMatchObject({ state: 'placed' });
    expect(fx.paper.orderCount()).toBe(1);
  });

  it('Place again (may duplicate) from two windows at once sends one order, and both hear its answer', async () => {
    fx = await startCoreFixture({ kiteRates: NO_KITE_LIMITS });
    const cid = await leftOpenYesterday(fx, VAULT.kite);
    const core = await coreOn(fx, 'kite', { placementTimings: { landingHorizonMs: 200 } });
    await core.recovery();
    expect(core.orders.placements()).toMatchObject([{ clientOrderId: cid, state: 'unverifiable' }]);
    const [a, b] = await Promise.all([
      core.orders.placeAgain(cid, { mayDuplicate: true }),
      core.orders.placeAgain(cid, { mayDuplicate: true }),
    ]);
    expect(fx.paper.orderCount()).toBe(1);
    expect(a).toMatchObject({ state: 'placed' });
    expect(b).toEqual(a);
  });

  it('on Kite, when the broker\'s day has moved on but this computer\'s has not, an order that exists is "cannot be verified", and Place again never reuses its tag', async () => {
    fx = await startCoreFixture({ kiteRates: NO_KITE_LIMITS, control: true });
    // The last run journaled a buy of 5 and sent it; the broker filled it; the run died before the answer.
    const first = await coreOn(fx, 'kite');
    const cid = 'td-brokerday-000000000001';
    const order = { ...INFY_MARKET_BUY, quantity: 5 };
    await first.broker.placeOrder({ ...order, clientOrderId: cid });
    await first.close();
    const intent = { v: LEDGER_FORMAT, t: 'intent', clientOrderId: cid, at: Date.now(), order };
    await writeFile(join(fx.dir, `intents-${VAULT.kite}.jsonl`), `${JSON.stringify(intent)}\n`);
    // The broker's day runs ahead of this computer's (the paper market in the evening, or a
    // clock skewed around midnight): its list of today's orders no longer shows the order.
    const control = `${fx.paper.url}/_control/clock`;
    const next = await fetch(control, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Paper-Control': fx.paper.controlSecret ?? '' },
      body: JSON.stringify({ at: new Date(fx.paper.marketNow() + DAY_MS).toISOString() }),
    });
    expect(next.status).toBe(200);

    const core = await coreOn(fx, 'kite', { placementTimings: { landingHorizonMs: 200 } });
    await core.recovery();
    const [p] = core.orders.placements();
    expect(p).toMatchObject({ clientOrderId: cid, state: 'unverifiable' });
    expect(p?.detail).toMatch(/^Cannot be verified: .*It may exist: placing it again may make a second order/);
    expect(p?.detail).not.toMatch(/has no order/);

    expect(await failure(core.orders.placeAgain(cid))).toMatchObject({ field: 'mayDuplicate' });
    // (The close the jump passed squared the MIS buy off: count from here.)
    const orders = fx.paper.orderCount();
    const again = await core.orders.placeAgain(cid, { mayDuplicate: true });
    expect(again).toMatchObject({ state: 'placed' });
    // The trader accepted a possible second order, but never one under the same tag: lookups
    // by that reference stay one order each.
    expect(again.clientOrderId).not.toBe(cid);
    expect(fx.paper.orderCount()).toBe(orders + 1);
    expect(core.orders.placements().find((x) => x.clientOrderId === cid)).toMatchObject({ state: 'discarded' });
  });

  it('on a broker whose list shows every order, not finding it means the broker has none: it needs a decision', async () => {
    fx = await startCoreFixture();
    const cid = await leftOpenYesterday(fx, VAULT.rest);
    const core = await coreOn(fx, 'rest', { placementTimings: { landingHorizonMs: 200 } });
    await core.recovery();
    expect(core.orders.placements()).toMatchObject([{ clientOrderId: cid, state: 'needs_decision' }]);
  });
});

describe('a request id after a restart', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('is answered as the first time, from the ledger, and makes no second intent', async () => {
    fx = await startCoreFixture();
    const first = await coreOn(fx, 'rest');
    const placed = await first.orders.place(INFY_MARKET_BUY, { requestId: 'click-restart-01' });
    expect(placed).toMatchObject({ state: 'placed' });
    await first.close();
    const again = await coreOn(fx, 'rest');
    await expect(again.orders.place(INFY_MARKET_BUY, { requestId: 'click-restart-01' })).resolves.toEqual(placed);
    expect(fx.paper.orderCount()).toBe(1);
    // Another order under it is still refused, naming the field.
    expect(
      await failure(again.orders.place({ ...INFY_MARKET_BUY, quantity: 2 }, { requestId: 'click-restart-01' })),
    ).toMatchObject({ kind: 'bad_request', field: 'requestId' });
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { INFY_RESTING_BUY } from '@shared/testing/order-fixtures';
import { startCoreFixture, type CoreFixture } from '../testing/core-fixture';
import { coreOn, DIALECTS, NO_KITE_LIMITS } from '../testing/dialects';

/**
 * "Not placed" after the landing horizon is what is known, not more (docs/money-path.md §After
 * the landing horizon): an intent whose send was in doubt and which no lookup found by then is
 * "Not found at the broker after N s — most likely not placed", and its reference is watched for
 * the rest of the day. Here the broker's order book trails its order system by more than the
 * horizon: the order exists all along, and appears in the reads after the intent ended. It is
 * adopted — placed, counted by the risk guard, flagged for a loud alert — and never sent again.
 */

const BUY = INFY_RESTING_BUY;

const LAG_MS = 60_000;

describe.each(DIALECTS)('%s', (_, dialect) => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('an order reported not found that appears later is adopted and flagged, never sent again', async () => {
    // The broker's clock, moved by hand: the lag passes when the test says so.
    let shift = 0;
    fx = await startCoreFixture({
      kiteRates: NO_KITE_LIMITS,
      idempotency: false,
      orderbookLagMs: LAG_MS,
      clock: () => Date.now() + shift,
    });
    const overrides = {
      rate: null,
      // The app's proportions, smaller: a horizon as long as the window, so a lost reply is
      // never re-sent on this broker without unique references (docs/money-path.md §One policy).
      placementTimings: { answerDeadlineMs: 500, resendWindowMs: 1_000, landingHorizonMs: 1_000 },
    };
    const core = await coreOn(fx, dialect, overrides);
    // The POST is handled and committed; its reply is lost.
    const post = core.broker.placeOrder.bind(core.broker);
    core.broker.placeOrder = async (...args) => {
      fx.paper.setFaults('drop_reply=1');
      try {
        return await post(...args);
      } finally {
        fx.paper.setFaults({});
      }
    };
    const requestId = 'late-landing-click-1';
    const answer = await core.orders.place(BUY, { requestId });
    expect(answer.state).toBe('unconfirmed');
    const cid = answer.clientOrderId;
    await vi.waitFor(() => expect(core.orders.placement(cid)?.state).toBe('not_placed'), { timeout: 10_000 });
    const [ended] = core.orders.placements().filter((p) => p.clientOrderId === cid);
    expect(ended?.detail).toMatch(
      new RegExp(`^Not found at the broker after \\d+ s — most likely not placed \\(order ${cid}\\)$`),
    );
    expect(ended?.detail).not.toMatch(/confirmed it has no/);
    expect(fx.paper.orderCount()).toBe(1);

    // The order book catches up: the next read of the orders shows it.
    shift += LAG_MS + 1_000;
    await vi.waitFor(
      async () => {
        await core.book.sync();
        expect(core.orders.placement(cid)?.state).toBe('placed');
      },
      { timeout: 10_000 },
    );
    const adopted = core.orders.placements().find((p) => p.clientOrderId === cid);
    expect(adopted).toMatchObject({ state: 'placed', appearedLate: true });
    expect(adopted?.detail).toBe(
      `An order reported not found has appeared: BUY 10 INFY, order ${adopted?.orderId ?? ''}`,
    );
    // The risk guard counts it as an order on its way; nothing was sent again.
    expect(core.orders.pendingOrders().map((p) => p.orderId)).toContain(adopted?.orderId);
    expect(fx.paper.orderCount()).toBe(1);

    // After a restart the click's answer is the order, as the ledger keeps it: never "not placed"
    // (which would offer to place it again), and nothing is sent.
    await core.close();
    const again = await coreOn(fx, dialect, overrides);
    await expect(again.orders.place(BUY, { requestId })).resolves.toMatchObject({
      state: 'placed',
      orderId: adopted?.orderId,
    });
    expect(fx.paper.orderCount()).toBe(1);
  });
});

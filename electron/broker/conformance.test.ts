import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OrderRequest } from '@shared/domain/order';
import { AppError } from '@shared/ipc/app-error';
import type { ConnectionState } from '@shared/domain/session';
import { newClientOrderId } from '../core/orders/client-order-id';
import { FAST_BACKOFF, pool, type CoreFixture } from '../core/testing/core-fixture';
import { conformanceFixture, coreOn, DIALECTS, failure } from '../core/testing/dialects';
import { limitBuyInfy as limit } from './testing/orders';

/**
 * One conformance suite for every adapter (docs/brokers.md, "The Kite adapter"): the same
 * tests run against the REST adapter on the paper broker's `/v1`, the Kite adapter on its
 * `/kite` and the Upstox adapter on its `/upstox`, one account and one market behind all. What a trader relies on must hold whichever
 * broker is behind the `Broker` interface.
 */

/**
 * The broker's answer to a read made to check what it holds, asked again while it is not answered
 * in time: on a loaded machine a read after the run can outlast the client's timeout (a CI run
 * once did), which says nothing of what the broker holds.
 */
async function heldUnder<T>(read: () => Promise<T>, tries = 5): Promise<T> {
  for (let n = 1; ; n += 1) {
    try {
      return await read();
    } catch (err) {
      if (n >= tries || !(err instanceof AppError && err.info.kind === 'timeout')) throw err;
    }
  }
}

describe.each(DIALECTS)('conformance: %s', (_name, dialect) => {
  let fx: CoreFixture;
  let infy: number;
  beforeEach(async () => {
    ({ fx, infy } = await conformanceFixture());
  });
  afterEach(async () => fx.close());

  it('places, finds by reference, modifies and cancels one order', async () => {
    const core = await coreOn(fx, dialect);
    const outcome = await core.orders.place(limit(1450));
    expect(outcome.state).toBe('placed');
    const orderId = outcome.state === 'placed' ? outcome.orderId : '';
    expect(typeof orderId).toBe('string');
    const found = await core.broker.findOrders(outcome.clientOrderId);
    expect(found.map((o) => o.orderId)).toEqual([orderId]);
    expect(await core.broker.findOrders(newClientOrderId())).toEqual([]);
    await core.broker.modifyOrder(orderId, { price: 1440 });
    expect((await core.broker.getOrder(orderId)).price).toBe(1440);
    await core.broker.cancelOrder(orderId);
    await vi.waitFor(async () => expect((await core.broker.getOrder(orderId)).status).toBe('CANCELLED'));
  });

  it("the drift alarm finds nothing in the desk's own orders: one filled, one resting (docs/contract.md §Drift alarm)", async () => {
    const core = await coreOn(fx, dialect, { drift: { setTimer: () => () => undefined } });
    const filled = await core.orders.place({ ...limit(1500), quantity: 2, orderType: 'MARKET', price: null });
    const filledId = filled.state === 'placed' ? filled.orderId : '';
    await vi.waitFor(async () => expect((await core.broker.getOrder(filledId)).status).toBe('COMPLETE'));
    expect(await core.orders.place(limit(1450))).toMatchObject({ state: 'placed' });
    await core.drift.check();
    expect(await core.drift.check()).toMatchObject({ findings: [], suspected: 0, failure: null });
  });

  it('an unknown order is not_found; cancelling an order that filled answers its end, not a failure', async () => {
    const core = await coreOn(fx, dialect);
    expect((await failure(core.broker.getOrder('999999999999'))).kind).toBe('not_found');
    fx.paper.setPrice(infy, 1500);
    const outcome = await core.orders.place({ ...limit(1500), orderType: 'MARKET', price: null });
    const orderId = outcome.state === 'placed' ? outcome.orderId : '';
    await vi.waitFor(async () => expect((await core.broker.getOrder(orderId)).status).toBe('COMPLETE'));
    expect(await core.broker.cancelOrder(orderId)).toEqual({ orderId, status: 'COMPLETE' });
  });

  it('a bad field is refused as bad_request naming it, and nothing is created', async () => {
    const core = await coreOn(fx, dialect);
    const before = fx.paper.orderCount();
    const info = await failure(core.broker.placeOrder({ ...limit(1450.03), clientOrderId: newClientOrderId() }));
    expect(info).toMatchObject({ kind: 'bad_request', field: 'price' });
    expect(fx.paper.orderCount()).toBe(before);
  });

  it('a refused token is one re-login at most, never a loop: the read succeeds after it or the session expires once', async () => {
    const expiries: string[] = [];
    const core = await coreOn(fx, dialect, { events: { onSessionExpired: (reason) => expiries.push(reason) } });
    await core.recovery();
    await core.broker.listInstruments();
    const relogins = core.stats.relogins;
    fx.paper.setFaults('token_expiry=1');
    const result = await core.broker.listOrders().then(
      () => 'ok',
      (err: unknown) => (err instanceof AppError ? err.info.kind : 'thrown'),
    );
    fx.paper.setFaults({});
    expect(core.stats.relogins - relogins).toBe(1);
    if (result === 'ok') expect(expiries).toEqual([]);
    else {
      expect(result).toBe('unauthorized');
      expect(expiries).toHaveLength(1);
    }
  });

  it('429 and 5xx on a read are retried, then reported with their own kinds', async () => {
    const core = await coreOn(fx, dialect, {
      readBackoff: { ...FAST_BACKOFF, maxRetries: 2 },
      readBudgetMs: 60_000,
    });
    fx.paper.setFaults('rate_limit=1');
    expect((await failure(core.broker.listPositions())).kind).toBe('rate_limited');
    fx.paper.setFaults('server_error=1');
    expect((await failure(core.broker.listPositions())).kind).toBe('server_error');
    fx.paper.setFaults({});
    expect(core.stats.retries).toBeGreaterThanOrEqual(4);
    expect(Array.isArray(await core.broker.listPositions())).toBe(true);
  });

  it('basket margin: a bull call spread costs less hedged than its legs summed, the same on every adapter', async () => {
    if (dialect === 'upstox') {
      // The paper Upstox dialect serves no margin calculator (docs/upstox.md §The adapter): the
      // adapter says so as not_found, never as a figure.
      const core = await coreOn(fx, dialect);
      const none = await failure(core.broker.basketMargin([limit(1450)]));
      expect(none).toMatchObject({ kind: 'not_found', message: expect.stringMatching(/no basket margin/) });
      return;
    }
    const chain = await (await coreOn(fx, 'rest')).broker.optionChain({ underlying: 'NIFTY', strikes: 1 });
    const leg = (tradingsymbol: string, transactionType: 'BUY' | 'SELL', price: number): OrderRequest => ({
      exchange: 'NFO',
      tradingsymbol,
      transactionType,
      quantity: chain.lotSize,
      orderType: 'LIMIT',
      product: 'NRML',
      validity: 'DAY',
      price,
    });
    const core = await coreOn(fx, dialect);
    const before = fx.paper.orderCount();
    const m = await core.broker.basketMargin([
      leg(chain.rows[0]?.call?.tradingsymbol ?? '', 'BUY', 100),
      leg(chain.rows[2]?.call?.tradingsymbol ?? '', 'SELL', 40),
    ]);
    // docs/market.md §Basket margin and hedging: ₹100 + ₹40 ÷ 4 a unit, less the ₹40 the short brings in.
    expect(m).toEqual({
      initial: 110 * chain.lotSize,
      final: 70 * chain.lotSize,
      legs: [{ total: 100 * chain.lotSize }, { total: 10 * chain.lotSize }],
    });
    expect(fx.paper.orderCount()).toBe(before);
    const bad = await failure(core.broker.basketMargin([leg('NOSUCHSYMBOL', 'BUY', 100)]));
    expect(bad.kind).toBe('bad_request');
  });

  it('shape drift in a 2xx reply is unexpected_shape, never a list or figures', async () => {
    const core = await coreOn(fx, dialect);
    fx.paper.setFaults('shape_change=1');
    expect((await failure(core.broker.listOrders())).kind).toBe('unexpected_shape');
    expect((await failure(core.broker.getFunds())).kind).toBe('unexpected_shape');
    fx.paper.setFaults({});
  });

  it('exactly once under drop_reply=0.2, server_error=0.1, rate_limit=0.1: 150 intents, each reference at most once, each told what the broker holds', async () => {
    const references: string[] = [];
    const settled = new Map<string, string | null>();
    const core = await coreOn(fx, dialect, {
      rate: { perSecond: 2_000, burst: 100 },
      placementRate: { perSecond: 1_000, burst: 50 },
      pauseAllOnRetryAfter: false,
      // Where references are not unique, the policy at a smaller time scale: an intent in doubt
      // that never landed ends after the window and the horizon. Where they are, the product's
      // window: every intent must get through it (a shorter one could close on a loaded machine).
      ...(dialect !== 'rest' ? { placementTimings: { resendWindowMs: 3_000, landingHorizonMs: 3_000 } } : {}),
      newClientOrderId: () => {
        const id = newClientOrderId();
        references.push(id);
        return id;
      },
      events: {
        onPlacements: (list) => {
          for (const p of list)
            if (p.state === 'placed' || p.state === 'not_placed') settled.set(p.clientOrderId, p.orderId);
        },
      },
    });
    fx.paper.setFaults('drop_reply=0.2,server_error=0.1,rate_limit=0.1');
    const results = await pool(150, 32, () => core.orders.place(limit(1400)));
    await core.orders.idle();
    fx.paper.setFaults({});
    expect(results.filter((r) => r.status === 'rejected').map((r) => String(r.reason))).toEqual([]);
    expect(core.orders.openIntents()).toBe(0);
    for (const r of results)
      if (r.status === 'fulfilled' && r.value.state === 'placed') settled.set(r.value.clientOrderId, r.value.orderId);
    const told = references.map((ref) => settled.get(ref));
    expect(
      told.filter((t) => t === undefined),
      'intents that never settled',
    ).toEqual([]);
    for (const ref of references) {
      const held = (await heldUnder(() => core.broker.findOrders(ref))).map((o) => o.orderId);
      expect(held, ref).toEqual(settled.get(ref) ? [settled.get(ref)] : []);
    }
    // Where the broker keeps references unique every intent is placed; elsewhere a 5xx that came
    // before the broker acted is in doubt, so its intent is never sent again and ends not placed.
    if (core.broker.placementTraits().uniqueReferences) expect(told.every((t) => typeof t === 'string')).toBe(true);
  });

  it('the stream comes back after the broker cuts it and delivers order updates again', async () => {
    const states: ConnectionState['stream'][] = [];
    const updates: string[] = [];
    const core = await coreOn(fx, dialect, {
      stream: true,
      events: {
        onConnection: (c) => states.push(c.stream),
        onOrdersChanged: (d) => updates.push(...d.upserts.map((o) => o.orderId)),
      },
    });
    await vi.waitFor(() => expect(states.at(-1)).toBe('open'), { timeout: 5_000 });
    expect(fx.paper.setStreamAccepting(false)).toBeGreaterThan(0);
    await vi.waitFor(() => expect(states.at(-1)).not.toBe('open'), { timeout: 5_000 });
    fx.paper.setStreamAccepting(true);
    await vi.waitFor(() => expect(states.at(-1)).toBe('open'), { timeout: 15_000 });
    const outcome = await core.orders.place(limit(1430));
    const orderId = outcome.state === 'placed' ? outcome.orderId : '';
    await vi.waitFor(() => expect(updates).toContain(orderId), { timeout: 5_000 });
  });
});

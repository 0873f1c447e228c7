import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Instrument } from '@shared/domain/instrument';
import type { OrderRequest } from '@shared/domain/order';
import { NO_RISK_LIMITS } from '@shared/domain/risk';
import { isWorking } from '@shared/domain/order';
import type { ConnectionState } from '@shared/domain/session';
import { AppError } from '@shared/ipc/app-error';
import { startCoreFixture, type CoreFixture } from '../testing/core-fixture';
import { coreOn, NO_KITE_LIMITS, type Dialect } from '../testing/dialects';

/**
 * A 429 storm on the polls must not hold a safety action or a click: the kill switch and the
 * risk guard take main's own book, positions and ticks where fresh, and what they must ask
 * the broker goes in the order-action lane (docs/live-data.md §Main's own view of the account).
 * The core runs as the app runs it: the client limiter on, the stream open.
 */

const order = (i: Instrument, extra: Partial<OrderRequest>): OrderRequest => ({
  exchange: i.exchange,
  tradingsymbol: i.tradingsymbol,
  transactionType: 'BUY',
  quantity: 2,
  orderType: 'MARKET',
  product: 'MIS',
  validity: 'DAY',
  ...extra,
});

describe.each<[string, Dialect]>([
  ['REST adapter on /v1', 'rest'],
  ['Kite adapter on /kite', 'kite'],
])('a 429 storm on reads (read_rate_limit=1, Retry-After 30 s): %s', (_name, dialect) => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('the kill switch still cancels every working order and exits every position, and a click under hard limits is placed', async () => {
    // Kite's per-second order limits are another matter (docs/kite.md §Limits): out of the way here.
    fx = await startCoreFixture({ kiteRates: NO_KITE_LIMITS });
    const states: ConnectionState['stream'][] = [];
    const core = await coreOn(fx, dialect, {
      stream: true,
      safetyTimings: { retryDelaysMs: [5, 20, 50], settleWaitMs: 15_000, settlePollMs: 10 },
      events: { onConnection: (c) => states.push(c.stream) },
    });
    await vi.waitFor(() => expect(states.at(-1)).toBe('open'), { timeout: 10_000 });
    const eq = (await core.broker.listInstruments('NSE')).filter((i) => i.instrumentType === 'EQ').slice(0, 3);
    for (const i of eq) await core.catalog.find(i.exchange, i.tradingsymbol);
    const [a, b, c] = eq as [Instrument, Instrument, Instrument];
    const below = (i: Instrument): number =>
      Number((Math.floor((i.lastPrice * 0.95) / i.tickSize) * i.tickSize).toFixed(2));
    // Two positions and three resting orders.
    for (const o of [order(a, {}), order(b, { transactionType: 'SELL' })]) {
      expect(await core.orders.place(o)).toMatchObject({ state: 'placed' });
    }
    for (const i of [a, b, c]) {
      expect(await core.orders.place(order(i, { orderType: 'LIMIT', price: below(i), quantity: 1 }))).toMatchObject({
        state: 'placed',
        status: 'OPEN',
      });
    }
    // The panels have polled: main's book and positions are up to date.
    await vi.waitFor(async () => expect((await core.readPositions()).filter((p) => p.quantity !== 0)).toHaveLength(2));
    await core.book.sync();
    core.risk.setLimits({
      ...NO_RISK_LIMITS,
      maxOpenOrders: { value: 20, hard: true },
      maxOrderValue: { value: 1_00_00_000, hard: true },
      dailyLossLimit: { value: 1_00_00_000, hard: true },
    });

    fx.paper.setFaults('read_rate_limit=1,retry_after_s=30');
    // A poll meets the storm: the polls' lane is paused for 30 s.
    await expect(core.readPositions()).rejects.toBeInstanceOf(AppError);

    // A click: every figure the guard needs is main's own, so it is placed, not refused for an
    // unreadable figure, nor left "not yet confirmed" behind the pause.
    const click = await core.orders.place(order(c, { orderType: 'LIMIT', price: below(c), quantity: 1 }));
    expect(click).toMatchObject({ state: 'placed', status: 'OPEN' });

    core.safety.start({ kind: 'killSwitch', exitPositions: true });
    await core.safety.idle();
    const run = core.safety.current();
    // The read-back of positions meets the storm (the exits' fills are not in the last read), so
    // the run says it could not verify them, rather than that they are closed.
    expect(run?.detail).toMatch(/^4 of 4 orders cancelled, 2 of 2 exit orders placed — /);
    expect(run?.steps.filter((s) => s.kind === 'cancel').map((s) => s.state)).toEqual(['done', 'done', 'done', 'done']);
    expect(run?.steps.filter((s) => s.kind === 'exit').map((s) => s.state)).toEqual(['done', 'done']);

    // What the broker holds once the storm is over (read in the order-action lane: the polls'
    // lane is still paused): nothing working, every position flat.
    fx.paper.setFaults({});
    const urgent = { urgent: true };
    expect((await core.broker.listOrders({}, urgent)).filter((o) => isWorking(o.status))).toEqual([]);
    await vi.waitFor(async () =>
      expect((await core.broker.listPositions(urgent)).filter((p) => p.quantity !== 0)).toEqual([]),
    );
  });

  it("a placement's 429 holds back the order actions, never a cancel (its own lane) nor a poll", async () => {
    fx = await startCoreFixture({ kiteRates: NO_KITE_LIMITS });
    const core = await coreOn(fx, dialect);
    const [a] = (await core.broker.listInstruments('NSE')).filter((i) => i.instrumentType === 'EQ');
    if (!a) throw new Error('no equity');
    await core.catalog.find(a.exchange, a.tradingsymbol);
    const below = Number((Math.floor((a.lastPrice * 0.95) / a.tickSize) * a.tickSize).toFixed(2));
    const resting = await core.orders.place(order(a, { orderType: 'LIMIT', price: below, quantity: 1 }));
    if (resting.state !== 'placed') throw new Error('not placed');
    // A placement meets a 429 with Retry-After 30 s: its lane pauses for 30 s.
    fx.paper.setFaults('rate_limit=1,retry_after_s=30');
    await expect(core.orders.place(order(a, {}))).rejects.toBeInstanceOf(AppError);
    fx.paper.setFaults({});
    // The cancel and a poll go at once (a cancel waiting 30 s would fail this test's timeout).
    await expect(core.broker.cancelOrder(resting.orderId)).resolves.toMatchObject({ status: 'CANCELLED' });
    await expect(core.broker.getFunds()).resolves.toBeDefined();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Instrument } from '@shared/domain/instrument';
import type { OrderRequest } from '@shared/domain/order';
import { NO_RISK_LIMITS } from '@shared/domain/risk';
import type { SafetyRun } from '@shared/domain/safety-run';
import { brokerError, TransportFailure } from '../../broker/broker-error';
import { marketBuy, restingBuy, startCoreFixture, type CoreFixture } from '../testing/core-fixture';
import type { TradingCore } from '../trading-core';

/**
 * The kill switch and its siblings against the real paper broker: every working order ends
 * cancelled or listed still open, exits go through the exactly-once order service, and a
 * broker failing mid-way never makes the run claim what did not happen.
 */

const FAST = { retryDelaysMs: [5, 20, 50], settleWaitMs: 15_000, settlePollMs: 10 };

async function started(
  fx: CoreFixture,
  overrides: Parameters<CoreFixture['newCore']>[0] = {},
): Promise<{ core: TradingCore; runs: SafetyRun[]; eq: Instrument[] }> {
  const runs: SafetyRun[] = [];
  const core = await fx.newCore({
    rate: null,
    safetyTimings: FAST,
    events: { onSafety: (r) => runs.push(r) },
    ...overrides,
  });
  await core.start();
  const eq = (await core.broker.listInstruments('NSE')).filter((i) => i.instrumentType === 'EQ').slice(0, 3);
  return { core, runs, eq };
}

/** A BUY LIMIT 3% under the last price quoted now: it rests, OPEN. */
async function resting(core: TradingCore, i: Instrument, extra: Partial<OrderRequest> = {}): Promise<OrderRequest> {
  const [q] = await core.broker.getQuotes([i.instrumentToken]);
  return { ...restingBuy(i, q?.lastPrice), ...extra };
}

async function placeAll(core: TradingCore, orders: OrderRequest[]): Promise<string[]> {
  const ids: string[] = [];
  for (const o of orders) {
    const r = await core.orders.place(o);
    if (r.state !== 'placed') throw new Error('not placed');
    ids.push(r.orderId);
  }
  return ids;
}

/** Counts the quote requests the core's broker is asked for from now on. */
function countQuotes(core: TradingCore): { readonly asked: number } {
  const seen = { asked: 0 };
  const getQuotes = core.broker.getQuotes.bind(core.broker);
  core.broker.getQuotes = (...args) => {
    seen.asked += 1;
    return getQuotes(...args);
  };
  return seen;
}

async function finished(core: TradingCore): Promise<SafetyRun> {
  await core.safety.idle();
  const run = core.safety.current();
  if (!run) throw new Error('no run');
  return run;
}

describe('safety runs', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('the kill switch cancels every working order (OPEN and TRIGGER PENDING) and ends done with nothing open', async () => {
    fx = await startCoreFixture();
    const { core, runs, eq } = await started(fx);
    const [a, b] = eq as [Instrument, Instrument];
    const stop = await resting(core, b, { transactionType: 'SELL', orderType: 'SL' });
    const sl = { ...stop, triggerPrice: stop.price, price: Number(((stop.price ?? 0) - b.tickSize * 2).toFixed(2)) };
    const ids = await placeAll(core, [await resting(core, a), await resting(core, a), sl]);
    const statuses = (await core.broker.listOrders()).map((o) => o.status).sort();
    expect(statuses).toEqual(['OPEN', 'OPEN', 'TRIGGER PENDING']);

    const first = core.safety.start({ kind: 'killSwitch', exitPositions: false });
    expect(first.state).toBe('running');
    const run = await finished(core);
    expect(run.state).toBe('done');
    expect(run.steps.map((s) => [s.orderId, s.state, s.detail]).sort()).toEqual(
      ids.map((id) => [id, 'done', 'Cancelled']).sort(),
    );
    expect(run.stillOpen).toEqual({
      orders: [],
      positions: [],
      unconfirmed: [],
      verified: true,
      positionsUnknownSince: null,
    });
    expect(run.detail).toBe('3 of 3 orders cancelled — nothing is left open');
    expect((await core.broker.listOrders()).every((o) => o.status === 'CANCELLED')).toBe(true);
    // Progress was reported along the way, ending with the result.
    expect(runs.some((r) => r.steps.some((s) => s.state === 'working'))).toBe(true);
    expect(runs.at(-1)).toEqual(run);
  });

  it("cancel all of one symbol leaves the other symbols' orders working", async () => {
    fx = await startCoreFixture();
    const { core, eq } = await started(fx);
    const [a, b] = eq as [Instrument, Instrument];
    const [a1, a2, b1] = await placeAll(core, [await resting(core, a), await resting(core, a), await resting(core, b)]);
    core.safety.start({ kind: 'cancelSymbol', exchange: a.exchange, tradingsymbol: a.tradingsymbol });
    const run = await finished(core);
    expect(run.state).toBe('done');
    expect(run.steps.map((s) => s.orderId).sort()).toEqual([a1, a2].sort());
    const byId = new Map((await core.broker.listOrders()).map((o) => [o.orderId, o.status]));
    expect([a1, a2, b1].map((id) => byId.get(id ?? ''))).toEqual(['CANCELLED', 'CANCELLED', 'OPEN']);
  });

  it('when every cancel fails, the run ends incomplete and lists each order still open with the error — none reported cancelled', async () => {
    fx = await startCoreFixture();
    const { core, eq } = await started(fx);
    const ids = await placeAll(core, [
      await resting(core, eq[0] as Instrument),
      await resting(core, eq[1] as Instrument),
    ]);
    core.broker.cancelOrder = () =>
      Promise.reject(new TransportFailure({ kind: 'network', message: 'connection reset' }, 'not_sent'));
    core.safety.start({ kind: 'killSwitch', exitPositions: false });
    const run = await finished(core);
    expect(run.state).toBe('incomplete');
    expect(run.steps.map((s) => [s.state, s.attempts, s.detail])).toEqual([
      ['failed', 4, 'Still open after 4 tries: connection reset'],
      ['failed', 4, 'Still open after 4 tries: connection reset'],
    ]);
    expect(run.stillOpen?.orders.map((o) => o.orderId).sort()).toEqual([...ids].sort());
    expect(run.stillOpen?.verified).toBe(true);
    expect(run.detail).toBe('0 of 2 orders cancelled — 2 items still open');
  });

  it('with 40% of the replies failing and 20% lost, every order ends cancelled or listed still open, and the run never claims a cancel the broker lacks', async () => {
    fx = await startCoreFixture({ seed: 7 });
    // One transport retry only, so the run's own retries and read-backs do the work.
    const { core, eq } = await started(fx, { readBackoff: { baseMs: 5, capMs: 20, maxRetries: 1 } });
    const orders: OrderRequest[] = [];
    for (const i of eq) for (let n = 0; n < 4; n++) orders.push(await resting(core, i));
    const ids = await placeAll(core, orders);
    fx.paper.setFaults('server_error=0.4,drop_reply=0.2');
    core.safety.start({ kind: 'killSwitch', exitPositions: false });
    const run = await finished(core);
    fx.paper.setFaults({});
    const truth = new Map((await core.broker.listOrders()).map((o) => [o.orderId, o.status]));
    for (const step of run.steps) {
      expect(['done', 'failed']).toContain(step.state);
      if (step.state === 'done') expect(truth.get(step.orderId ?? '')).toBe('CANCELLED');
    }
    const reportedOpen = new Set(run.stillOpen?.orders.map((o) => o.orderId));
    for (const id of ids) {
      if (truth.get(id) !== 'CANCELLED' && run.stillOpen?.verified) expect(reportedOpen.has(id)).toBe(true);
    }
    expect(run.steps.length).toBe(ids.length);
  });

  it('exit positions: each open position gets one protected LIMIT through the order service (whatever the risk limits), and the run leaves it flat', async () => {
    fx = await startCoreFixture();
    const { core, eq } = await started(fx);
    const [a, b] = eq as [Instrument, Instrument];
    const market = (i: Instrument, side: 'BUY' | 'SELL', quantity: number): OrderRequest => ({
      exchange: i.exchange,
      tradingsymbol: i.tradingsymbol,
      transactionType: side,
      quantity,
      orderType: 'MARKET',
      product: 'MIS',
      validity: 'DAY',
    });
    await placeAll(core, [market(a, 'BUY', 10), market(b, 'SELL', 4)]);
    await expect.poll(async () => (await core.broker.listPositions()).filter((p) => p.quantity !== 0).length).toBe(2);
    const working = await placeAll(core, [await resting(core, a)]);
    // A risk limit must never keep the trader in a position: exits are not judged by it.
    core.risk.setLimits({ ...NO_RISK_LIMITS, maxOrderValue: { value: 1, hard: true } });

    core.safety.start({ kind: 'killSwitch', exitPositions: true });
    const run = await finished(core);
    expect(run.state).toBe('done');
    const exits = run.steps.filter((s) => s.kind === 'exit');
    expect(exits.map((s) => [s.tradingsymbol, s.transactionType, s.quantity, s.state]).sort()).toEqual(
      [
        [a.tradingsymbol, 'SELL', 10, 'done'],
        [b.tradingsymbol, 'BUY', 4, 'done'],
      ].sort(),
    );
    expect(run.steps.find((s) => s.kind === 'cancel')?.orderId).toBe(working[0]);
    const orders = await core.broker.listOrders();
    for (const s of exits) {
      const o = orders.find((x) => x.orderId === s.orderId);
      expect(o).toMatchObject({ orderType: 'LIMIT', clientOrderId: s.clientOrderId });
    }
    expect((await core.broker.listPositions()).every((p) => p.quantity === 0)).toBe(true);
  });

  it('exits priced from the positions just read ask for no quote (Kite allows one a second), and still go as protected LIMITs that leave the account flat', async () => {
    fx = await startCoreFixture();
    const { core, eq } = await started(fx);
    await placeAll(core, [{ ...marketBuy(eq), quantity: 7 }]);
    await expect.poll(async () => (await core.broker.listPositions()).some((p) => p.quantity === 7)).toBe(true);
    const quotes = countQuotes(core);

    core.safety.start({ kind: 'killSwitch', exitPositions: true });
    const run = await finished(core);
    expect(run.state).toBe('done');
    expect(run.steps.filter((s) => s.kind === 'exit').map((s) => [s.transactionType, s.quantity, s.state])).toEqual([
      ['SELL', 7, 'done'],
    ]);
    expect(quotes.asked).toBe(0);
    const exit = (await core.broker.listOrders()).find((o) => o.transactionType === 'SELL');
    expect(exit).toMatchObject({ orderType: 'LIMIT' });
    expect((await core.broker.listPositions()).every((p) => p.quantity === 0)).toBe(true);
  });

  it('exits priced from a fill main saw moments ago (its stream open, the positions known without a read) ask for no quote either', async () => {
    fx = await startCoreFixture();
    const { core, eq } = await started(fx, { stream: true });
    await expect.poll(() => core.connection().stream).toBe('open');
    await core.book.sync();
    await core.readPositions();
    const [id] = await placeAll(core, [{ ...marketBuy(eq), quantity: 5 }]);
    await expect.poll(() => core.book.order(id ?? '')?.status).toBe('COMPLETE');
    const quotes = countQuotes(core);

    core.safety.start({ kind: 'killSwitch', exitPositions: true });
    const run = await finished(core);
    expect(run.state).toBe('done');
    expect(run.steps.filter((s) => s.kind === 'exit').map((s) => [s.transactionType, s.quantity, s.state])).toEqual([
      ['SELL', 5, 'done'],
    ]);
    expect(quotes.asked).toBe(0);
    expect((await core.broker.listPositions()).every((p) => p.quantity === 0)).toBe(true);
  });

  it('an exit is priced from the fill main saw last, not from an older order the trader touched since: a cancel does not make its old average the market', async () => {
    // The broker's clock, stepped by hand so each change below is stamped later than the one before.
    let brokerNow = Date.now();
    fx = await startCoreFixture({ clock: () => brokerNow });
    const { core, eq } = await started(fx, { stream: true });
    await expect.poll(() => core.connection().stream).toBe('open');
    await core.book.sync();
    await core.readPositions();
    const i = eq[0] as Instrument;
    const tick = (x: number): number => Number((Math.round(x / i.tickSize) * i.tickSize).toFixed(2));
    // A BUY that takes the best offer and leaves 5 working at its limit: bought at the market then.
    const [q] = await core.broker.getQuotes([i.instrumentToken]);
    const best = q?.depth.sell[0];
    if (!q || !best) throw new Error('no offer');
    const [first] = await placeAll(core, [
      { ...(await resting(core, i)), price: best.price, quantity: best.quantity + 5 },
    ]);
    await expect.poll(() => core.book.order(first ?? '')?.filledQuantity).toBe(best.quantity);
    // Its rest moved out of the way, then the market falls 8% and another BUY fills there.
    expect(await core.actions.modify(first ?? '', { price: tick(q.lastPrice * 0.91) })).toMatchObject({
      state: 'done',
    });
    const fallen = tick(q.lastPrice * 0.92);
    brokerNow += 2_000;
    fx.paper.setPrice(i.instrumentToken, fallen);
    const [second] = await placeAll(core, [{ ...marketBuy(eq), tradingsymbol: i.tradingsymbol, quantity: 2 }]);
    await expect.poll(() => core.book.order(second ?? '')?.status).toBe('COMPLETE');
    // The trader cancels the first order's rest: it is now the order changed last, its average the old price.
    brokerNow += 2_000;
    expect(await core.actions.cancel(first ?? '')).toMatchObject({ state: 'done' });
    await expect.poll(() => core.book.order(first ?? '')?.status).toBe('CANCELLED');

    core.safety.start({ kind: 'killSwitch', exitPositions: true });
    const run = await finished(core);
    expect(run.steps.filter((s) => s.kind === 'exit').map((s) => [s.transactionType, s.quantity, s.state])).toEqual([
      ['SELL', best.quantity + 2, 'done'],
    ]);
    // Priced from the market after the fall, not from the first order's price before it: it filled.
    const exit = (await core.broker.listOrders()).find((o) => o.transactionType === 'SELL');
    expect(exit?.price ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(fallen);
    expect(run.state).toBe('done');
    expect((await core.broker.listPositions()).every((p) => p.quantity === 0)).toBe(true);
  });

  it('an exit above the freeze quantity goes as legs: one leg refused stops no other, is reported, and the run is not done while the position is not flat', async () => {
    // Enough cash for the margin of 3,600 NIFTY.
    fx = await startCoreFixture({ startingCash: 50_000_000 });
    const { core } = await started(fx);
    const future = (await core.broker.listInstruments('NFO')).find(
      (i) => i.instrumentType === 'FUT' && i.name === 'NIFTY',
    ) as Instrument;
    expect(future.freezeQuantity).toBe(1_800);
    const buy: OrderRequest = {
      exchange: 'NFO',
      tradingsymbol: future.tradingsymbol,
      transactionType: 'BUY',
      quantity: 1_800,
      orderType: 'MARKET',
      product: 'NRML',
      validity: 'DAY',
    };
    // Bought outside the desk's order service, in two orders the exchange accepts.
    await core.broker.placeOrder({ ...buy, clientOrderId: 'nifty1' });
    await core.broker.placeOrder({ ...buy, clientOrderId: 'nifty2' });
    await expect.poll(async () => (await core.broker.listPositions()).map((p) => p.quantity)).toEqual([3_600]);
    // The exchange refuses the first exit leg it is sent (nothing is created); the other goes.
    const place = core.broker.placeOrder.bind(core.broker);
    let refused = false;
    core.broker.placeOrder = async (...args) => {
      if (!refused) {
        refused = true;
        throw brokerError('bad_request', 'quantity: refused by the exchange');
      }
      return place(...args);
    };

    core.safety.start({ kind: 'killSwitch', exitPositions: true });
    const run = await finished(core);

    const exits = run.steps.filter((s) => s.kind === 'exit');
    expect(exits.map((s) => [s.transactionType, s.quantity, s.state]).sort()).toEqual([
      ['SELL', 1_800, 'done'],
      ['SELL', 1_800, 'failed'],
    ]);
    expect(exits.find((s) => s.state === 'failed')?.detail).toBe('Exit not placed: quantity: refused by the exchange');
    expect(run.state).toBe('incomplete');
    expect(run.detail).toBe('No working orders, 1 of 2 exit orders placed — 1 item still open');
    expect(run.stillOpen?.positions).toEqual([
      { exchange: 'NFO', tradingsymbol: future.tradingsymbol, product: 'NRML', quantity: 1_800 },
    ]);
    expect((await core.broker.listPositions()).map((p) => p.quantity)).toEqual([1_800]);
  });

  it('an exit whose reply is lost is settled by looking it up, never sent twice', async () => {
    fx = await startCoreFixture();
    const { core, eq } = await started(fx);
    const a = eq[0] as Instrument;
    await placeAll(core, [
      {
        exchange: a.exchange,
        tradingsymbol: a.tradingsymbol,
        transactionType: 'BUY',
        quantity: 3,
        orderType: 'MARKET',
        product: 'MIS',
        validity: 'DAY',
      },
    ]);
    await expect.poll(async () => (await core.broker.listPositions()).length).toBe(1);
    const place = core.broker.placeOrder.bind(core.broker);
    let posts = 0;
    core.broker.placeOrder = async (...args) => {
      posts += 1;
      await place(...args); // the broker creates it…
      throw new TransportFailure({ kind: 'network', message: 'socket hang up' }, 'in_doubt'); // …the reply is lost
    };
    core.safety.start({
      kind: 'exitPositions',
      positions: [{ exchange: a.exchange, tradingsymbol: a.tradingsymbol, product: 'MIS' }],
    });
    const run = await finished(core);
    expect(posts).toBe(1);
    expect(run.steps).toMatchObject([{ kind: 'exit', state: 'done', quantity: 3, transactionType: 'SELL' }]);
    expect(run.state).toBe('done');
    expect((await core.broker.listOrders()).filter((o) => o.transactionType === 'SELL')).toHaveLength(1);
  });

  it('an exit answered "not yet confirmed" is waited for, never sent again, and done once the lookup finds it', async () => {
    fx = await startCoreFixture();
    let confirmable = false;
    const { core, eq } = await started(fx, {
      placementTimings: { answerDeadlineMs: 300 },
      events: {
        onSafety: (r) => {
          // The step says so while the lookups fail: from then on the broker may answer them.
          if (r.steps.some((s) => s.detail.startsWith('Not yet confirmed'))) confirmable = true;
        },
      },
    });
    const a = eq[0] as Instrument;
    await placeAll(core, [
      {
        exchange: a.exchange,
        tradingsymbol: a.tradingsymbol,
        transactionType: 'BUY',
        quantity: 2,
        orderType: 'MARKET',
        product: 'MIS',
        validity: 'DAY',
      },
    ]);
    await expect.poll(async () => (await core.broker.listPositions()).length).toBe(1);
    const place = core.broker.placeOrder.bind(core.broker);
    const find = core.broker.findOrders.bind(core.broker);
    let posts = 0;
    core.broker.placeOrder = async (...args) => {
      posts += 1;
      await place(...args);
      throw new TransportFailure({ kind: 'timeout', message: 'no reply' }, 'in_doubt');
    };
    core.broker.findOrders = async (cid) => {
      if (!confirmable) throw new TransportFailure({ kind: 'network', message: 'unreachable' }, 'in_doubt');
      return find(cid);
    };
    core.safety.start({ kind: 'killSwitch', exitPositions: true });
    const run = await finished(core);
    expect(posts).toBe(1);
    expect(run.steps).toMatchObject([{ kind: 'exit', state: 'done', quantity: 2 }]);
    expect((await core.broker.listOrders()).filter((o) => o.transactionType === 'SELL')).toHaveLength(1);
  });

  it('a second run while one is running is refused as a conflict', async () => {
    fx = await startCoreFixture();
    const { core, eq } = await started(fx);
    await placeAll(core, [await resting(core, eq[0] as Instrument)]);
    core.safety.start({ kind: 'killSwitch', exitPositions: false });
    expect(() => core.safety.start({ kind: 'killSwitch', exitPositions: false })).toThrow(/already in progress/);
    await core.safety.idle();
  });

  it('a kill switch queued behind a Cancel all, stopped before its turn, never runs and keeps its barrier up', async () => {
    fx = await startCoreFixture();
    const { core, eq, runs } = await started(fx);
    const a = eq[0] as Instrument;
    await placeAll(core, [await resting(core, a)]);
    const held = fx.paper.hold({ method: 'DELETE', pathPrefix: '/v1/orders' });
    const cancelAll = core.safety.start({ kind: 'cancelSymbol', exchange: a.exchange, tradingsymbol: a.tradingsymbol });
    await vi.waitFor(() => expect(fx.paper.holds()[0]?.waiting).toBe(1));

    const kill = core.safety.start({ kind: 'killSwitch', exitPositions: true });
    expect(kill.detail).toMatch(/^Queued: the kill switch runs as soon as the run in progress ends/);
    expect(core.barrier.state()?.runId).toBe(kill.id);
    // Nothing else joins the queue: never two runs at once.
    expect(() =>
      core.safety.start({ kind: 'cancelSymbol', exchange: a.exchange, tradingsymbol: a.tradingsymbol }),
    ).toThrow(/already in progress/);

    expect(core.safety.stop()).toMatchObject({ id: kill.id, state: 'incomplete', steps: [], barrierUp: true });
    fx.paper.release(held);
    await core.safety.idle();
    expect(core.safety.current()).toMatchObject({ id: cancelAll.id, state: 'done' });
    expect(runs.filter((r) => r.id === kill.id).every((r) => r.steps.length === 0)).toBe(true);
    expect(core.barrier.state()?.runId).toBe(kill.id);
    core.safety.rearm();
    expect(core.barrier.state()).toBeNull();
  });
});

describe('safety runs outside market hours', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('the kill switch cancels an after-market order (AMO REQ RECEIVED)', async () => {
    const now = Date.parse('2026-11-23T16:00:00+05:30');
    fx = await startCoreFixture({ clock: () => now, marketClock: 'wall' });
    const { core, eq } = await started(fx);
    const [id] = await placeAll(core, [await resting(core, eq[0] as Instrument, { variety: 'amo' })]);
    expect((await core.broker.getOrder(id ?? '')).status).toBe('AMO REQ RECEIVED');
    core.safety.start({ kind: 'killSwitch', exitPositions: false });
    const run = await finished(core);
    expect(run.steps).toMatchObject([{ orderId: id, status: 'CANCELLED', state: 'done' }]);
    expect(run.state).toBe('done');
  });
});

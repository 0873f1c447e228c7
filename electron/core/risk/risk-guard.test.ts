import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderRequest } from '@shared/domain/order';
import { NO_RISK_LIMITS, type RiskLimits } from '@shared/domain/risk';
import { AppError } from '@shared/ipc/app-error';
import { systemClock, type Clock } from '../clock';
import { marketBuy, startCoreFixture, type CoreFixture } from '../testing/core-fixture';

/** The risk guard in the real order service, against the real paper broker: refusals before journaling. */

async function started(fx: CoreFixture) {
  const core = await fx.newCore({ rate: null });
  await core.start();
  const order = marketBuy(await core.broker.listInstruments('NSE'));
  const instrument = await core.catalog.find(order.exchange, order.tradingsymbol);
  if (!instrument) throw new Error('no instrument');
  const [quote] = await core.broker.getQuotes([instrument.instrumentToken]);
  return { core, order, instrument, ltp: quote?.lastPrice ?? 0 };
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw new Error(`expected a refusal, got ${JSON.stringify(err)}`);
  return err;
}

const limits = (l: Partial<RiskLimits>): RiskLimits => ({ ...NO_RISK_LIMITS, ...l });

/**
 * The order clock, held: from `hold()` time stands still and a sleep on it ends only when the test
 * moves time to its end, so when a cut happens is read off the clock, not the machine's speed.
 */
function heldClock() {
  let held: number | null = null;
  let offset = 0;
  let sleepers: Array<{ until: number; wake: () => void }> = [];
  const now = (): number => held ?? Date.now() + offset;
  const clock: Clock = {
    now,
    sleep: (ms) =>
      held === null ? systemClock.sleep(ms) : new Promise((wake) => sleepers.push({ until: now() + ms, wake })),
  };
  const wake = (due: (until: number) => boolean): void => {
    const woken = sleepers.filter((s) => due(s.until));
    sleepers = sleepers.filter((s) => !due(s.until));
    for (const s of woken) s.wake();
  };
  return {
    clock,
    hold(): number {
      held = now();
      return held;
    },
    waiting: (): number => sleepers.length,
    /** Moves time to `t`, wakes the sleeps that end by then and lets what they started run. */
    async moveTo(t: number): Promise<void> {
      held = t;
      wake((until) => until <= t);
      await new Promise((resolve) => setImmediate(resolve));
    },
    /** Time runs again from where it stood; every sleep still waiting ends. */
    release(): void {
      if (held !== null) offset = held - Date.now();
      held = null;
      wake(() => true);
    },
  };
}

describe('risk guard in the order service', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('an order over a hard value limit is refused naming the figures, and nothing is journaled or sent', async () => {
    fx = await startCoreFixture();
    const { core, order, ltp } = await started(fx);
    const big: OrderRequest = { ...order, quantity: 10 };
    core.risk.setLimits(limits({ maxOrderValue: { value: Math.floor(ltp * 5), hard: true } }));
    const err = await refusal(core.orders.place(big));
    expect(err.info.kind).toBe('bad_request');
    expect(err.info.field).toBe('risk.maxOrderValue');
    expect(err.info.message).toMatch(/^Not placed: Order value ₹[\d,.]+ exceeds your limit of ₹[\d,]+$/);
    expect(fx.paper.orderCount()).toBe(0);
    expect(core.orders.placements()).toEqual([]);
    // A hard limit has no way round it.
    expect((await refusal(core.orders.place(big, { risk: 'override' }))).info.field).toBe('risk.maxOrderValue');
    expect(fx.paper.orderCount()).toBe(0);
  });

  it('a soft limit refuses with field riskOverride; "Place anyway" places that one order and the next is asked again', async () => {
    fx = await startCoreFixture();
    const { core, order } = await started(fx);
    core.risk.setLimits(limits({ maxQuantity: { value: 5, hard: false } }));
    const big: OrderRequest = { ...order, quantity: 6 };
    const first = await refusal(core.orders.place(big));
    expect(first.info).toMatchObject({
      field: 'riskOverride',
      message: 'Not placed: Quantity 6 exceeds your limit of 5',
      fields: [{ field: 'risk.maxQuantity', message: 'Quantity 6 exceeds your limit of 5' }],
    });
    await expect(core.orders.place(big, { risk: 'override' })).resolves.toMatchObject({ state: 'placed' });
    expect(fx.paper.orderCount()).toBe(1);
    expect((await refusal(core.orders.place(big))).info.field).toBe('riskOverride');
    expect(fx.paper.orderCount()).toBe(1);
  });

  it('once the day loses the hard loss limit, a buy is refused but a sell that reduces the long goes through', async () => {
    fx = await startCoreFixture();
    const { core, order, instrument, ltp } = await started(fx);
    await expect(core.orders.place({ ...order, quantity: 100 })).resolves.toMatchObject({ state: 'placed' });
    await expect.poll(async () => (await core.broker.listPositions()).length).toBe(1);
    fx.paper.setPrice(instrument.instrumentToken, Math.round(ltp * 0.95));
    const loss = -(await core.broker.listPositions()).reduce((s, p) => s + p.m2m, 0);
    expect(loss).toBeGreaterThan(0);
    core.risk.setLimits(limits({ dailyLossLimit: { value: Math.floor(loss / 2), hard: true } }));

    const buy = await refusal(core.orders.place(order));
    expect(buy.info.field).toBe('risk.dailyLossLimit');
    expect(buy.info.message).toMatch(/Daily loss limit of ₹[\d,]+ reached .*only orders that reduce a position/);
    const state = await core.risk.state();
    expect(state.status).toMatchObject({ reached: true, blocked: true });
    expect(state.status.detail).toMatch(/only exits are allowed today/);

    const exit: OrderRequest = { ...order, transactionType: 'SELL', quantity: 40 };
    await expect(core.orders.place(exit)).resolves.toMatchObject({ state: 'placed' });

    // The price comes back: the limit stays reached for the rest of the day.
    fx.paper.setPrice(instrument.instrumentToken, ltp);
    expect((await refusal(core.orders.place(order))).info.field).toBe('risk.dailyLossLimit');
  });

  it('a figure the guard cannot read refuses the order that needs it, saying so, and sends nothing', async () => {
    fx = await startCoreFixture();
    const { core, order } = await started(fx);
    core.risk.setLimits(limits({ maxOpenOrders: { value: 10, hard: true } }));
    fx.paper.setFaults('server_error=1');
    const err = await refusal(core.orders.place(order));
    fx.paper.setFaults({});
    expect(err.info).toMatchObject({ kind: 'bad_request', field: 'risk.maxOpenOrders' });
    expect(err.info.message).toBe('Not placed: Open orders could not be counted to check your limit');
    expect(fx.paper.orderCount()).toBe(0);
  });

  it('open orders count working orders at the broker: at the limit, one more is refused', async () => {
    fx = await startCoreFixture();
    const { core, order, ltp, instrument } = await started(fx);
    core.risk.setLimits(limits({ maxOpenOrders: { value: 2, hard: true } }));
    const resting: OrderRequest = {
      ...order,
      orderType: 'LIMIT',
      price: Math.floor((ltp * 0.97) / instrument.tickSize) * instrument.tickSize,
    };
    await expect(core.orders.place(resting)).resolves.toMatchObject({ state: 'placed', status: 'OPEN' });
    await expect(core.orders.place(resting)).resolves.toMatchObject({ state: 'placed', status: 'OPEN' });
    const err = await refusal(core.orders.place(resting));
    expect(err.info.message).toBe('Not placed: 2 orders are open already; your limit is 2');
    expect(fx.paper.orderCount()).toBe(2);
  });

  it('a read the guard needs that does not come back is cut at half the answer deadline: refused, nothing sent', async () => {
    fx = await startCoreFixture();
    const time = heldClock();
    const core = await fx.newCore({ rate: null, orderClock: time.clock });
    await core.start();
    const order = marketBuy(await core.broker.listInstruments('NSE'));
    await core.catalog.find(order.exchange, order.tradingsymbol);
    const deadline = core.orders.timings.answerDeadlineMs;
    core.risk.setLimits(limits({ maxOrderValue: { value: 1_00_00_000, hard: true } }));
    // The quote a MARKET order's value needs never comes (a broker that stopped answering).
    core.broker.getQuotes = () => new Promise(() => undefined);
    const clickedAt = time.hold();
    let refusedAfter: number | null = null; // ms from the click
    const placing = refusal(core.orders.place(order)).then((err) => {
      refusedAfter = time.clock.now() - clickedAt;
      return err;
    });
    await vi.waitFor(() => expect(time.waiting()).toBeGreaterThan(0)); // the guard waits for its read
    // Time moves to just before half the deadline, to half of it, then to the whole deadline.
    for (const t of [deadline / 2 - 1, deadline / 2, deadline]) await time.moveTo(clickedAt + t);
    expect(refusedAfter).toBe(deadline / 2);
    const err = await placing;
    expect(err.info.field).toBe('risk.maxOrderValue');
    expect(err.info.message).toMatch(/could not be checked .*: no last price/);
    expect(fx.paper.orderCount()).toBe(0);
    time.release();
  });

  it('a guard slower than the answer deadline does not cost the order its answer: it is still answered placed', async () => {
    fx = await startCoreFixture();
    const { core, order } = await started(fx);
    const check = core.risk.check.bind(core.risk);
    const deadline = core.orders.timings.answerDeadlineMs;
    // The guard's reads take longer than the whole deadline (a slow broker answering positions).
    core.risk.check = async (...args) => {
      await new Promise((resolve) => setTimeout(resolve, deadline + 500));
      return check(...args);
    };
    await expect(core.orders.place(order)).resolves.toMatchObject({ state: 'placed' });
  });
});

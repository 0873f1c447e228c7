import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Instrument } from '@shared/domain/instrument';
import type { OrderRequest } from '@shared/domain/order';
import type { SafetyRun } from '@shared/domain/safety-run';
import type { SquareOffState, StoredSquareOff } from '@shared/domain/square-off';
import { DEFAULT_SQUARE_OFF } from '@shared/trading/square-off-rules';
import { startCoreFixture, type CoreFixture } from '../testing/core-fixture';
import type { TradingCore } from '../trading-core';
import { BARRIER_MESSAGE } from './kill-barrier';
import { intradayExposure, SquareOff } from './square-off';

/**
 * Square-off at a time on a paper clock: the real paper broker's calendar and market run off an
 * injected clock the test moves, so 15:08, 15:10 and a restart at 15:12 come when the test says.
 * The run is the kill switch's, against the real broker.
 */

const ist = (text: string): number => Date.parse(`${text}+05:30`);
const FAST = { retryDelaysMs: [5, 20, 50], settleWaitMs: 15_000, settlePollMs: 10 };

interface Rig {
  readonly core: TradingCore;
  readonly runs: SafetyRun[];
  /** The paper clock: the broker's market and the square-off both read it. */
  readonly clock: { now: number };
  readonly eq: Instrument[];
}

let fx: CoreFixture;
afterEach(async () => fx.close());

async function rig(at: string, startingCash?: number): Promise<Rig> {
  const clock = { now: ist(at) };
  fx = await startCoreFixture({
    clock: () => clock.now,
    marketClock: 'wall',
    ...(startingCash ? { startingCash } : {}),
  });
  const runs: SafetyRun[] = [];
  const core = await fx.newCore({ rate: null, safetyTimings: FAST, events: { onSafety: (r) => runs.push(r) } });
  await core.start();
  const eq = (await core.broker.listInstruments('NSE')).filter((i) => i.instrumentType === 'EQ').slice(0, 3);
  return { core, runs, clock, eq };
}

/** What main keeps, as the settings file would (one per profile). */
function memoryStore(): {
  stored: StoredSquareOff | null;
  load: () => Promise<StoredSquareOff | null>;
  save: (s: StoredSquareOff) => Promise<void>;
} {
  const box = {
    stored: { settings: { ...DEFAULT_SQUARE_OFF, enabled: true }, doneOn: {}, last: null } as StoredSquareOff | null,
    load: async () => structuredClone(box.stored),
    save: async (s: StoredSquareOff) => {
      box.stored = structuredClone(s);
    },
  };
  return box;
}

/** Main's square-off over the rig's core, on its paper clock. */
function squareOff(r: Rig, store: ReturnType<typeof memoryStore>, exposureEveryMs = 0) {
  const warnings: string[] = [];
  const states: SquareOffState[] = [];
  const so = new SquareOff({
    marketStatus: () => r.core.broker.marketStatus(),
    exposure: () => intradayExposure(r.core),
    safety: r.core.safety,
    load: store.load,
    save: store.save,
    onChange: (s) => states.push(s),
    onWarning: (w) => warnings.push(`${w.title}: ${w.body}`),
    clock: { now: () => r.clock.now, sleep: async () => undefined },
    // Every look reads afresh unless a test says otherwise: the test moves the clock between looks.
    statusEveryMs: 0,
    exposureEveryMs,
  });
  return { so, warnings, states };
}

function order(i: Instrument, extra: Partial<OrderRequest> = {}): OrderRequest {
  return {
    exchange: i.exchange,
    tradingsymbol: i.tradingsymbol,
    transactionType: 'BUY',
    quantity: 5,
    orderType: 'MARKET',
    product: 'MIS',
    validity: 'DAY',
    ...extra,
  };
}

/** Two intraday positions and one overnight (NRML… CNC on equity), plus a resting MIS and a resting CNC order. */
async function dayOfTrading(r: Rig): Promise<{ misOrder: string; cncOrder: string }> {
  const [a, b, c] = r.eq as [Instrument, Instrument, Instrument];
  for (const o of [order(a), order(b, { transactionType: 'SELL', quantity: 3 }), order(c, { product: 'CNC' })]) {
    expect((await r.core.orders.place(o)).state).toBe('placed');
  }
  const [q] = await r.core.broker.getQuotes([c.instrumentToken]);
  const low = Number((Math.floor(((q?.lastPrice ?? c.lastPrice) * 0.95) / c.tickSize) * c.tickSize).toFixed(2));
  const mis = await r.core.orders.place(order(c, { orderType: 'LIMIT', price: low, quantity: 1 }));
  const cnc = await r.core.orders.place(order(c, { orderType: 'LIMIT', price: low, quantity: 1, product: 'CNC' }));
  if (mis.state !== 'placed' || cnc.state !== 'placed') throw new Error('not placed');
  return { misOrder: mis.orderId, cncOrder: cnc.orderId };
}

async function held(core: TradingCore): Promise<string[]> {
  return (await core.broker.listPositions())
    .filter((p) => p.quantity !== 0)
    .map((p) => `${p.tradingsymbol} ${p.product} ${p.quantity}`)
    .sort();
}

async function statusOf(core: TradingCore, orderId: string): Promise<string> {
  return (await core.broker.getOrder(orderId)).status;
}

describe('square-off at a time, on a paper clock', () => {
  it('warns once at 15:08, at 15:10 exits only the intraday positions and cancels only their working orders, and says so', async () => {
    const r = await rig('2026-11-27T15:05:00');
    const [a, b, c] = r.eq as [Instrument, Instrument, Instrument];
    const { misOrder, cncOrder } = await dayOfTrading(r);
    const store = memoryStore();
    const { so, warnings } = squareOff(r, store);

    await so.tick();
    expect(await so.state()).toMatchObject({
      phase: 'waiting',
      next: { at: ist('2026-11-27T15:10:00'), warnAt: ist('2026-11-27T15:08:00') },
    });
    expect(warnings).toEqual([]);

    r.clock.now = ist('2026-11-27T15:08:00');
    await so.tick();
    r.clock.now = ist('2026-11-27T15:09:30');
    await so.tick();
    expect(await so.state()).toMatchObject({ phase: 'warning', next: { exchanges: ['NSE'] } });
    expect(warnings).toEqual([
      'Square-off at 15:10: Intraday (MIS) positions on NSE are exited at 15:10:00 IST, and their working orders cancelled.',
    ]);
    expect(r.runs).toEqual([]);

    r.clock.now = ist('2026-11-27T15:10:00');
    await so.tick();
    expect((await so.state()).phase).toBe('running');
    await r.core.safety.idle();
    await so.tick();
    await expect.poll(async () => (await so.state()).phase).toBe('done');

    expect(await held(r.core)).toEqual([`${c.tradingsymbol} CNC 5`]);
    expect(await statusOf(r.core, misOrder)).toBe('CANCELLED');
    expect(await statusOf(r.core, cncOrder)).toBe('OPEN');
    const run = r.core.safety.current();
    expect(run?.action).toEqual({ kind: 'squareOff', exchanges: ['NSE'] });
    expect(
      run?.steps
        .filter((s) => s.kind === 'exit')
        .map((s) => `${s.transactionType} ${s.quantity} ${s.tradingsymbol}`)
        .sort(),
    ).toEqual([`BUY 3 ${b.tradingsymbol}`, `SELL 5 ${a.tradingsymbol}`].sort());
    expect((await so.state()).last).toMatchObject({
      date: '2026-11-27',
      at: ist('2026-11-27T15:10:00'),
      positions: 2,
      state: 'done',
    });
    // Kept: the session is done, whatever happens next.
    expect(store.stored?.doneOn.NSE).toBe('2026-11-27');
    // The run is never started twice: later looks leave it be.
    r.clock.now = ist('2026-11-27T15:11:00');
    await so.tick();
    expect(new Set(r.runs.map((x) => x.id)).size).toBe(1);
  });

  it('a restart across the time asks at once instead of running, runs on "yes", and a restart after that never asks again', async () => {
    const r = await rig('2026-11-27T15:05:00');
    await dayOfTrading(r);
    const store = memoryStore();
    const before = squareOff(r, store);
    await before.so.tick();
    expect((await before.so.state()).phase).toBe('waiting');
    before.so.close();

    // Main was down from 15:05 to 15:12: the time passed while nothing watched.
    r.clock.now = ist('2026-11-27T15:12:00');
    const after = squareOff(r, store);
    await after.so.tick();
    expect((await after.so.state()).phase).toBe('asking');
    expect(r.runs).toEqual([]);

    // Two windows answer at once: one run.
    await Promise.all([after.so.answer(true), after.so.answer(true)]);
    await r.core.safety.idle();
    await after.so.tick();
    await expect.poll(async () => (await after.so.state()).phase).toBe('done');
    expect(new Set(r.runs.map((x) => x.id)).size).toBe(1);
    expect((await after.so.state()).last).toMatchObject({ positions: 2, state: 'done' });

    r.clock.now = ist('2026-11-27T15:13:00');
    const again = squareOff(r, store);
    await again.so.tick();
    expect((await again.so.state()).phase).toBe('done');
    expect(new Set(r.runs.map((x) => x.id)).size).toBe(1);
  });

  it('a kill switch running at the time is never run beside: the square-off waits for it, then runs once', async () => {
    const r = await rig('2026-11-27T15:09:00');
    const [a] = r.eq as [Instrument];
    await dayOfTrading(r);
    const { so } = squareOff(r, memoryStore());
    await so.tick();
    r.clock.now = ist('2026-11-27T15:10:00');
    // Cancel-only: the positions stay for the square-off.
    r.core.safety.start({ kind: 'killSwitch', exitPositions: false });
    await so.tick();
    expect(r.core.safety.current()?.action.kind).toBe('killSwitch');
    expect((await so.state()).phase).not.toBe('running');
    await r.core.safety.idle();
    await so.tick();
    await r.core.safety.idle();
    await so.tick();
    expect([...new Set(r.runs.map((x) => x.action.kind))]).toEqual(['killSwitch', 'squareOff']);
    expect(new Set(r.runs.filter((x) => x.action.kind === 'squareOff').map((x) => x.id)).size).toBe(1);
    expect(await held(r.core)).not.toContain(`${a.tradingsymbol} MIS 5`);
    expect((await held(r.core)).every((p) => p.includes(' CNC '))).toBe(true);
  });

  it("the trader's kill switch during the square-off's run acts at once: the barrier goes up, it is queued, then runs once after it", async () => {
    const r = await rig('2026-11-27T15:09:00');
    const [a] = r.eq as [Instrument];
    await dayOfTrading(r);
    const { so } = squareOff(r, memoryStore());
    await so.tick();
    // The square-off's exits are held at the broker's door: its run holds the runner.
    const exits = fx.paper.hold({ method: 'POST', pathPrefix: '/v1/orders' });
    r.clock.now = ist('2026-11-27T15:10:00');
    await so.tick();
    await vi.waitFor(() => expect(fx.paper.holds()[0]?.waiting).toBeGreaterThan(0));

    const kill = r.core.safety.start({ kind: 'killSwitch', exitPositions: true });
    expect(kill).toMatchObject({ action: { kind: 'killSwitch' }, state: 'running', barrierUp: true });
    expect(kill.detail).toMatch(/queued/i);
    expect(r.core.barrier.state()?.runId).toBe(kill.id);
    // Nothing that adds risk leaves while it waits its turn.
    await expect(r.core.orders.place(order(a))).rejects.toThrow(BARRIER_MESSAGE);
    // What the trader sees while it waits is the kill switch, queued.
    expect(r.core.safety.current()).toMatchObject({ id: kill.id, state: 'running' });
    expect(r.runs.at(-1)).toMatchObject({ id: kill.id, barrierUp: true });
    // A second click is not a second run.
    expect(() => r.core.safety.start({ kind: 'killSwitch', exitPositions: true })).toThrow(/already/);

    fx.paper.release(exits);
    await r.core.safety.idle();
    await expect.poll(async () => (await so.state()).phase).toBe('done');
    const square = r.runs.filter((x) => x.action.kind === 'squareOff');
    const killed = r.runs.filter((x) => x.id === kill.id);
    // One after the other, never beside: the kill switch began its work once the square-off ended.
    const squareEnd = r.runs.findIndex((x) => x.action.kind === 'squareOff' && x.finishedAt !== null);
    const killWork = r.runs.findIndex((x) => x.id === kill.id && x.steps.length > 0);
    expect(squareEnd).toBeGreaterThan(-1);
    expect(killWork).toBeGreaterThan(squareEnd);
    expect(new Set(square.map((x) => x.id)).size).toBe(1);
    expect((await so.state()).last).toMatchObject({ positions: 2, state: 'done' });
    // The intraday exits went once (by the square-off); the kill switch exited only what was left.
    const end = killed.at(-1);
    expect(end).toMatchObject({ state: 'done', barrierUp: true });
    expect(end?.steps.filter((s) => s.kind === 'exit').map((s) => s.product)).toEqual(['CNC']);
    expect(await held(r.core)).toEqual([]);
  });

  it('declined after a restart: kept declined for the session, the positions left as they are', async () => {
    const r = await rig('2026-11-27T15:12:00');
    await dayOfTrading(r);
    const store = memoryStore();
    const { so } = squareOff(r, store);
    await so.tick();
    expect((await so.state()).phase).toBe('asking');
    const state = await so.answer(false);
    expect(state.last).toMatchObject({ state: 'declined', positions: 0 });
    expect(state.phase).toBe('done');
    expect(r.runs).toEqual([]);
    expect((await held(r.core)).length).toBe(3);
  });

  it('on a holiday nothing runs: the next square-off is the next trading day’s', async () => {
    // Christmas, a Friday, at 15:10.
    const r = await rig('2026-12-25T15:10:00');
    const store = memoryStore();
    const { so } = squareOff(r, store);
    await so.tick();
    expect(await so.state()).toMatchObject({
      phase: 'waiting',
      next: { date: '2026-12-28', at: ist('2026-12-28T15:10:00') },
    });
    expect(r.runs).toEqual([]);
  });

  it('with nothing intraday open at the time it sends nothing and says so', async () => {
    const r = await rig('2026-11-27T15:10:00');
    const store = memoryStore();
    const { so } = squareOff(r, store);
    await so.tick();
    expect(await so.state()).toMatchObject({
      phase: 'done',
      last: { positions: 0, state: 'done', detail: 'Nothing intraday was open' },
    });
    expect(r.runs).toEqual([]);
  });

  it('a position opened seconds before the time is squared off: what was open before the time is read again at it', async () => {
    const r = await rig('2026-11-27T15:09:57');
    const store = memoryStore();
    // The app's pace of exposure reads: at most one every 5 s.
    const { so } = squareOff(r, store, 5_000);
    await so.tick();
    // Nothing intraday open: no warning.
    expect(await so.state()).toMatchObject({ phase: 'waiting' });
    r.clock.now = ist('2026-11-27T15:09:58');
    expect((await r.core.orders.place(order(r.eq[0] as Instrument))).state).toBe('placed');
    r.clock.now = ist('2026-11-27T15:10:00') + 500;
    await so.tick();
    await expect.poll(async () => (await so.state()).phase, { timeout: 15_000 }).toBe('done');
    expect((await so.state()).last).toMatchObject({ positions: 1 });
    expect(await held(r.core)).toEqual([]);
  });

  it('slices an intraday exit above the freeze quantity: 3,600 NIFTY MIS leaves as two legs of 1,800', async () => {
    const r = await rig('2026-11-27T15:09:00', 50_000_000);
    const future = (await r.core.broker.listInstruments('NFO')).find(
      (i) => i.instrumentType === 'FUT' && i.name === 'NIFTY',
    ) as Instrument;
    expect(future.freezeQuantity).toBe(1_800);
    for (let n = 0; n < 2; n++)
      await r.core.broker.placeOrder({ ...order(future, { quantity: 1_800 }), clientOrderId: `nifty${n}` });
    await expect.poll(async () => held(r.core)).toEqual([`${future.tradingsymbol} MIS 3600`]);
    const { so } = squareOff(r, memoryStore());
    await so.tick();
    r.clock.now = ist('2026-11-27T15:10:00');
    await so.tick();
    await r.core.safety.idle();
    const run = r.core.safety.current();
    expect(run?.steps.map((s) => [s.kind, s.quantity, s.state])).toEqual([
      ['exit', 1_800, 'done'],
      ['exit', 1_800, 'done'],
    ]);
    expect(new Set(run?.steps.map((s) => s.clientOrderId)).size).toBe(2);
    expect(await held(r.core)).toEqual([]);
  });
});

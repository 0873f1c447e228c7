import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Instrument } from '@shared/domain/instrument';
import type { SafetyRun } from '@shared/domain/safety-run';
import type { Clock } from '../clock';
import { restingBuy, startCoreFixture, type CoreFixture, type CoreOverrides } from '../testing/core-fixture';
import { coreOn, type Dialect } from '../testing/dialects';
import type { TradingCore } from '../trading-core';
import { SafetyRunner } from './safety-runner';

/**
 * The kill switch under throttling, against the real paper broker answering 429s
 * (docs/contract.md §Kill switch): a 429 is waited out as long as the broker asks, never
 * counted as a failed try, for as long as the storm lasts; the run says what it is waiting for;
 * the trader's Stop ends it without sending anything more.
 */

/** Every request answered 429, Retry-After 30 s (the longest main honours). */
const STORM = 'rate_limit=1,retry_after_s=30';

/** A clock that moves only when the test says: the runner's Retry-After waits end on `advance`. */
function manualClock(start: number): Clock & { advance(ms: number): void } {
  let now = start;
  let timers: Array<{ at: number; fire: () => void }> = [];
  return {
    now: () => now,
    sleep: (ms) => new Promise<void>((resolve) => void timers.push({ at: now + ms, fire: resolve })),
    advance(ms) {
      now += ms;
      const due = timers.filter((t) => t.at <= now);
      timers = timers.filter((t) => t.at > now);
      for (const t of due) t.fire();
    },
  };
}

async function withResting(
  fx: CoreFixture,
  dialect: Dialect,
  count: number,
  overrides: CoreOverrides = {},
): Promise<{ core: TradingCore; ids: string[] }> {
  const core = await coreOn(fx, dialect, overrides);
  const eq = (await core.broker.listInstruments('NSE')).filter((i) => i.instrumentType === 'EQ').slice(0, 3);
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const r = await core.orders.place(restingBuy(eq[n % eq.length] as Instrument));
    if (r.state !== 'placed') throw new Error('not placed');
    ids.push(r.orderId);
  }
  return { core, ids };
}

/**
 * Every order's status at the broker; during a storm, read in a lull of it (the runner is
 * waiting on the test's clock meanwhile, so nothing else is sent).
 */
async function truth(
  core: TradingCore,
  ids: readonly string[],
  lull?: { fx: CoreFixture; storm: string },
): Promise<string[]> {
  lull?.fx.paper.setFaults({});
  const byId = new Map((await core.broker.listOrders({}, { urgent: true })).map((o) => [o.orderId, o.status]));
  lull?.fx.paper.setFaults(lull.storm);
  return ids.map((id) => byId.get(id) ?? 'missing');
}

/**
 * A runner on the core's real broker and order service, with its own clock (its Retry-After
 * waits then pass when the test says) and a storm that begins the moment it has read the book.
 */
function runnerInStorm(
  fx: CoreFixture,
  core: TradingCore,
  clock: Clock,
  storm: string,
): { runner: SafetyRunner; runs: SafetyRun[] } {
  const runs: SafetyRun[] = [];
  const broker = core.broker;
  let calm = true;
  const runner = new SafetyRunner({
    broker: {
      listOrders: async (...args) => {
        const book = await broker.listOrders(...args);
        if (calm) fx.paper.setFaults(storm);
        calm = false;
        return book;
      },
      cancelOrder: (...args) => broker.cancelOrder(...args),
      getOrder: (...args) => broker.getOrder(...args),
      getQuotes: (...args) => broker.getQuotes(...args),
    },
    readPositions: (o) => core.readPositions(o),
    orders: core.orders,
    findInstrument: (e, s) => core.catalog.find(e, s),
    onProgress: (r) => runs.push(r),
    clock,
  });
  return { runner, runs };
}

/** How many times each step has been told to wait out a 429, from the progress pushed so far. */
function waitsPerStep(runs: readonly SafetyRun[]): Map<string, number> {
  const out = new Map<string, number>();
  let last = new Map<string, string>();
  for (const r of runs) {
    const now = new Map(r.steps.map((s) => [s.id, s.detail]));
    for (const [id, detail] of now) {
      if (detail !== last.get(id) && /asked to wait 30 s \(429\)/.test(detail)) out.set(id, (out.get(id) ?? 0) + 1);
    }
    last = now;
  }
  return out;
}

describe.each<[string, Dialect]>([
  ['REST adapter on /v1', 'rest'],
  ['Kite adapter on /kite', 'kite'],
])('the kill switch under throttling: %s', (_name, dialect) => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('half of all requests answered 429 (Retry-After 1 s): every order is cancelled, and the run says it is waiting for the broker', async () => {
    fx = await startCoreFixture();
    const runs: SafetyRun[] = [];
    const onSafety = (r: SafetyRun): void => {
      runs.push(r);
      // The storm ends with the last cancel, so the run's read-back is not what is tested here.
      if (r.steps.length > 0 && r.steps.every((s) => s.state !== 'pending' && s.state !== 'working'))
        fx.paper.setFaults({});
    };
    // The app's own client limits, following what the broker publishes.
    const { core, ids } = await withResting(fx, dialect, 12, { events: { onSafety } });
    fx.paper.setFaults('rate_limit=0.5');
    core.safety.start({ kind: 'killSwitch', exitPositions: false });
    await core.safety.idle();
    const run = core.safety.current();
    fx.paper.setFaults({});

    expect(run?.state).toBe('done');
    expect(run?.detail).toBe('12 of 12 orders cancelled — nothing is left open');
    // The only failures were 429s: none was counted as a failed try.
    expect(run?.steps.map((s) => [s.state, s.attempts])).toEqual(ids.map(() => ['done', 1]));
    // While it ran, the trader was told what it waited for.
    expect(runs.some((r) => /The broker is throttling \(429\): waiting 1 s as it asks/.test(r.detail))).toBe(true);
    expect(runs.some((r) => r.steps.some((s) => /asked to wait 1 s \(429\)/.test(s.detail)))).toBe(true);
    expect(await truth(core, ids)).toEqual(ids.map(() => 'CANCELLED'));
  });

  it('every request answered 429 with Retry-After 30 s: it keeps waiting it out, round after round, until the storm ends, then cancels everything', async () => {
    fx = await startCoreFixture();
    // No client limiter: the runner's own waits are what honour the Retry-After here.
    const { core, ids } = await withResting(fx, dialect, 5, { rate: null });
    const clock = manualClock(Date.now());
    const { runner, runs } = runnerInStorm(fx, core, clock, STORM);
    runner.start({ kind: 'killSwitch', exitPositions: false });

    // More rounds than a step has tries: a 429 is never a failed try.
    for (let round = 1; round <= 6; round++) {
      await vi.waitFor(
        () => {
          const waits = waitsPerStep(runs);
          expect(ids.map((id) => waits.get(`c-${id}`) ?? 0)).toEqual(ids.map(() => round));
        },
        { timeout: 10_000 },
      );
      const now = runner.current();
      expect(now?.state).toBe('running');
      expect(now?.detail).toMatch(
        /^Cancelling 5 orders… The broker is throttling \(429\): waiting 30 s as it asks, then going on until every order is settled \(Stop ends it\)$/,
      );
      expect(now?.steps.map((s) => [s.state, s.attempts])).toEqual(ids.map(() => ['working', 1]));
      // Nothing was cancelled behind the run's back.
      expect(await truth(core, ids, { fx, storm: STORM })).toEqual(ids.map(() => 'OPEN'));
      if (round < 6) clock.advance(30_000);
    }

    // The storm ends; once the last Retry-After has passed, every cancel goes through.
    fx.paper.setFaults({});
    clock.advance(30_000);
    await runner.idle();
    const run = runner.current();
    expect(run?.state).toBe('done');
    expect(run?.steps.map((s) => [s.state, s.attempts, s.detail])).toEqual(ids.map(() => ['done', 1, 'Cancelled']));
    expect(await truth(core, ids)).toEqual(ids.map(() => 'CANCELLED'));
  });
});

describe('the order book itself throttled', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('a kill switch whose first read of the order book is answered 429 waits it out as the broker asks, then cancels everything', async () => {
    fx = await startCoreFixture();
    const { core, ids } = await withResting(fx, 'rest', 3, { rate: null });
    const clock = manualClock(Date.now());
    const runs: SafetyRun[] = [];
    // No main's view: the book must be read, and every read is answered 429 (Retry-After 30 s).
    const runner = new SafetyRunner({
      broker: core.broker,
      readPositions: (o) => core.readPositions(o),
      orders: core.orders,
      findInstrument: (e, s) => core.catalog.find(e, s),
      onProgress: (r) => runs.push(r),
      clock,
    });
    fx.paper.setFaults('read_rate_limit=1,retry_after_s=30');
    runner.start({ kind: 'killSwitch', exitPositions: false });
    await vi.waitFor(() =>
      expect(runner.current()?.detail).toBe(
        'The order book is not readable: the broker asked to wait 30 s (429); reading it again then (Stop ends it)',
      ),
    );
    expect(await truth(core, ids, { fx, storm: 'read_rate_limit=1,retry_after_s=30' })).toEqual(ids.map(() => 'OPEN'));

    fx.paper.setFaults({});
    clock.advance(30_000);
    await runner.idle();
    expect(runner.current()).toMatchObject({ state: 'done', detail: '3 of 3 orders cancelled — nothing is left open' });
    expect(await truth(core, ids)).toEqual(ids.map(() => 'CANCELLED'));
  });
});

describe('stopping the kill switch under throttling', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('Stop while the cancels wait for the paused limiter: nothing more is sent, the run ends at once, every order listed still open, none claimed', async () => {
    fx = await startCoreFixture();
    // The app's client limits: a 429 pauses the cancels' lane for its Retry-After (30 s, real time).
    const { core, ids } = await withResting(fx, 'rest', 4);
    const clock = manualClock(Date.now());
    const { runner } = runnerInStorm(fx, core, clock, STORM);
    runner.start({ kind: 'killSwitch', exitPositions: true });
    await vi.waitFor(
      () =>
        expect(runner.current()?.steps.map((s) => s.detail)).toEqual(
          ids.map(() => expect.stringMatching(/asked to wait 30 s/)),
        ),
      { timeout: 10_000 },
    );
    // The storm is over at the broker, but the client's cancel lane is held for 30 s: the
    // runner's own wait passes, and its cancels queue in the limiter.
    fx.paper.setFaults({});
    clock.advance(30_000);
    await vi.waitFor(() => expect(runner.current()?.steps.map((s) => s.detail)).toEqual(ids.map(() => 'Cancelling…')), {
      timeout: 10_000,
    });
    const sent = core.stats.sent;

    const stopping = runner.stop();
    expect(stopping?.detail).toBe('Stopping: nothing more is sent; waiting for the answers to requests already sent…');
    await runner.idle();
    const run = runner.current();
    expect(run?.state).toBe('incomplete');
    expect(run?.detail).toBe('Stopped: 0 of 4 orders cancelled — 4 items still open');
    expect(run?.steps.map((s) => [s.kind, s.state, s.detail])).toEqual(
      ids.map(() => ['cancel', 'failed', 'Stopped before the broker confirmed a cancel']),
    );
    expect(run?.stillOpen?.orders.map((o) => o.orderId).sort()).toEqual([...ids].sort());
    // No cancel left after the Stop (only the read-back was sent), and no exit was placed.
    expect(core.stats.sent - sent).toBeLessThanOrEqual(2);
    expect(await truth(core, ids)).toEqual(ids.map(() => 'OPEN'));
    // A second Stop, once it is over, changes nothing.
    expect(runner.stop()).toEqual(run);
  });
});

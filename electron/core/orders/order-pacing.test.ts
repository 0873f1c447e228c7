import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Instrument } from '@shared/domain/instrument';
import { isWorking, type OrderRequest } from '@shared/domain/order';
import type { PlaceOutcome } from '@shared/domain/placement';
import { marketBuyOf, pool, startCoreFixture, type CoreFixture } from '../testing/core-fixture';
import { coreOn } from '../testing/dialects';

/**
 * Kite counts order writes per calendar second, minute and day (docs/kite.md §Limits; the paper
 * dialect enforces them). Every path that sends orders — a basket, the kill switch's cancels and
 * exits — is paced by main so that none is refused for them: no 429, every order placed. The
 * paper broker runs with Kite's real order figures (10/s, 400/min, 5,000/day); the client's
 * general bucket is generous here, so only the order pacer stands between a burst and Kite's
 * count (a token bucket lets its burst and a second's refill into one calendar second).
 */

/** A fast client: only the order pacer limits order writes. */
const FAST_READS = { rate: { perSecond: 100, burst: 100 } } as const;

/** The most order writes the client let out in any 1,000 ms. */
function mostInASecond(times: readonly number[]): number {
  let most = 0;
  for (const t of times) most = Math.max(most, times.filter((u) => u >= t && u < t + 1_000).length);
  return most;
}

/**
 * What the broker counted: 0 × 429 on a machine that runs the test's broker in step with the
 * client. This broker shares the test's process, so a stalled event loop (a loaded machine) can
 * deliver requests the client spaced out as one bunch: the client's own pace is what the test
 * pins (at most `most` in any 1,000 ms: 8 placements, or Kite's whole 10 once cancels are among
 * them), and a 429 the bunching still earns is waited out and the order placed — never refused,
 * never doubled.
 */
function expectPaced(sent: readonly number[], most = 8): void {
  expect(mostInASecond(sent)).toBeLessThanOrEqual(most);
}

describe('order writes on Kite, paced under its calendar-window limits', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('a 25-leg basket sent at once: paced at 8 a second, every leg placed once', async () => {
    // Reads out of the way (quotes, candles); the order limits are Kite's own.
    fx = await startCoreFixture({ kiteRates: { quotePerSecond: 1_000, defaultPerSecond: 1_000 } });
    const sent: number[] = [];
    const core = await coreOn(fx, 'kite', { ...FAST_READS, onOrderWrite: (at) => sent.push(at) });
    const eq = (await core.broker.listInstruments('NSE')).filter((i) => i.instrumentType === 'EQ').slice(0, 25);
    for (const i of eq) await core.catalog.find(i.exchange, i.tradingsymbol);
    const legs = await pool(eq.length, eq.length, (n) => core.orders.place(marketBuyOf(eq[n] as Instrument)));
    expect(legs.map((l) => l.status)).toEqual(eq.map(() => 'fulfilled'));
    await core.orders.idle();
    expect(
      legs
        .map((l) => (l as PromiseFulfilledResult<PlaceOutcome>).value.state)
        .every((s) => s === 'placed' || s === 'unconfirmed'),
    ).toBe(true);
    expect(core.orders.placements().filter((p) => p.state !== 'placed')).toEqual([]);
    expectPaced(sent);
    expect(sent.length).toBeGreaterThanOrEqual(25);
    expect(fx.paper.orderCount()).toBe(25);
  });

  it('a kill switch over 30 positions and 10 working orders: paced, every cancel and every exit done', async () => {
    fx = await startCoreFixture({ kiteRates: { quotePerSecond: 1_000, defaultPerSecond: 1_000 } });
    const sent: number[] = [];
    const core = await coreOn(fx, 'kite', {
      ...FAST_READS,
      onOrderWrite: (at) => sent.push(at),
      safetyTimings: { retryDelaysMs: [5, 20, 50], settleWaitMs: 15_000, settlePollMs: 10 },
    });
    const eq = (await core.broker.listInstruments('NSE')).filter((i) => i.instrumentType === 'EQ').slice(0, 30);
    for (const i of eq) await core.catalog.find(i.exchange, i.tradingsymbol);
    await pool(eq.length, 8, (n) => core.orders.place(marketBuyOf(eq[n] as Instrument)));
    const resting = eq.slice(0, 10).map((i) => ({
      ...marketBuyOf(i),
      orderType: 'LIMIT' as const,
      price: Number((Math.floor((i.lastPrice * 0.95) / i.tickSize) * i.tickSize).toFixed(2)),
    }));
    await pool(resting.length, 8, (n) => core.orders.place(resting[n] as OrderRequest));
    await core.orders.idle();
    await vi.waitFor(async () => expect((await core.readPositions()).filter((p) => p.quantity !== 0)).toHaveLength(30));

    core.safety.start({ kind: 'killSwitch', exitPositions: true });
    await core.safety.idle();
    const run = core.safety.current();
    expect(run?.steps.filter((s) => s.kind !== 'exit').map((s) => s.state)).toEqual(resting.map(() => 'done'));
    expect(run?.steps.filter((s) => s.kind === 'exit').map((s) => s.state)).toEqual(eq.map(() => 'done'));
    expectPaced(sent, 10);
    expect((await core.broker.listOrders()).filter((o) => isWorking(o.status))).toEqual([]);
    await vi.waitFor(async () =>
      expect((await core.broker.listPositions()).filter((p) => p.quantity !== 0)).toEqual([]),
    );
  });

  it('a kill switch over 28,800 NIFTY (freeze 1,800): sixteen legs of 1,800, paced at 8 a second, each placed once, and the broker ends flat', async () => {
    // Cash for the margin of 28,800 NIFTY; the order limits are Kite's own.
    fx = await startCoreFixture({
      startingCash: 5_000_000_000,
      // The market moves, so the book's depth refills and orders this large fill.
      tickIntervalMs: 50,
      kiteRates: { quotePerSecond: 1_000, defaultPerSecond: 1_000 },
    });
    const sent: number[] = [];
    const core = await coreOn(fx, 'kite', {
      ...FAST_READS,
      onOrderWrite: (at) => sent.push(at),
      safetyTimings: { retryDelaysMs: [5, 20, 50], settleWaitMs: 15_000, settlePollMs: 10 },
    });
    const future = (await core.broker.listInstruments('NFO')).find(
      (i) => i.instrumentType === 'FUT' && i.name === 'NIFTY',
    ) as Instrument;
    // Kite's dump names no freeze quantity: the index's published one is used.
    expect(future.freezeQuantity).toBe(1_800);
    await pool(16, 8, (n) =>
      core.broker.placeOrder({ ...marketBuyOf(future, 1_800), product: 'NRML', clientOrderId: `nifty${n}` }),
    );
    await vi.waitFor(async () => expect((await core.readPositions()).map((p) => p.quantity)).toEqual([28_800]), {
      timeout: 20_000,
    });
    sent.length = 0;
    const before = fx.paper.orderCount();

    core.safety.start({ kind: 'killSwitch', exitPositions: true });
    await core.safety.idle();
    const run = core.safety.current();
    const exits = run?.steps.filter((s) => s.kind === 'exit') ?? [];
    expect(exits.map((s) => [s.quantity, s.state])).toEqual(Array.from({ length: 16 }, () => [1_800, 'done']));
    expect(new Set(exits.map((s) => s.clientOrderId)).size).toBe(16);
    // Without the stream the run does not wait for the fills: exits resting on the paper book's
    // thin depth are listed still open; they fill as the market refills it.
    expect(run?.detail).toMatch(/^No working orders, 16 of 16 exit orders placed — /);
    expectPaced(sent);
    expect(fx.paper.orderCount() - before).toBe(16);
    await vi.waitFor(
      async () => expect((await core.broker.listPositions()).filter((p) => p.quantity !== 0)).toEqual([]),
      { timeout: 20_000 },
    );
  });
});

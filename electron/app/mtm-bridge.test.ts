import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { NO_MTM_SETTINGS, type MtmSettings, type MtmState, type MtmStatus } from '@shared/domain/mtm';
import type { Position } from '@shared/domain/portfolio';
import type { SafetyRun } from '@shared/domain/safety-run';
import { useAppOnPaper } from './testing/app-on-paper';

/**
 * The MTM stop and target through main's services on the paper broker (docs/contract.md §Risk
 * guard): a paper price move breaches a level, main's own measure (no window subscribed) runs the
 * kill switch once, the account ends flat, and the status says why and at what figure.
 */
describe('MTM stop and target over the bridge', () => {
  const runs: SafetyRun[] = [];
  const statuses: MtmStatus[] = [];
  /** The MTM guard's clock: its IST day is the test's, not the machine's. */
  const clock = { now: Date.parse('2026-11-27T15:00:00+05:30') };
  const app = useAppOnPaper({
    name: 'mtm',
    prices: { INFY: 1500 },
    config: { core: { mtmClock: { now: () => clock.now } } },
    // Its pushes recorded, again after a restart.
    started: (services) => {
      services.events.on('safety.progress', (run) => runs.push(run));
      services.events.on('mtm.changed', (s) => statuses.push(s));
    },
  });
  const { dispatch } = app;

  const buy = (quantity: number) =>
    dispatch('orders.place', {
      order: {
        exchange: 'NSE',
        tradingsymbol: 'INFY',
        transactionType: 'BUY',
        quantity,
        orderType: 'MARKET',
        product: 'MIS',
        validity: 'DAY',
      },
    });
  const positions = async (): Promise<Position[]> => {
    const r = await dispatch('positions.list', undefined);
    if (!r.ok) throw new Error(r.error.message);
    return r.data as Position[];
  };
  const mtm = async (): Promise<MtmState> => {
    const r = await dispatch('mtm.get', undefined);
    if (!r.ok) throw new Error(r.error.message);
    return r.data as MtmState;
  };
  const set = async (settings: MtmSettings): Promise<void> => {
    const r = await dispatch('mtm.set', { settings });
    if (!r.ok) throw new Error(r.error.message);
  };
  const runIds = (): string[] => [...new Set(runs.map((r) => r.id))];

  it('a level is refused naming its field, and nothing is stored', async () => {
    const r = await dispatch('mtm.set', {
      settings: {
        ...NO_MTM_SETTINGS,
        trail: { from: { value: 10_000, unit: 'rupees' }, lock: { value: 20_000, unit: 'rupees' } },
      },
    });
    expect(r).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'settings.trail.lock' } });
    expect((await mtm()).settings).toEqual(NO_MTM_SETTINGS);
  });

  it('a hard stop breached by a price move runs the kill switch once; flat after; the status says why and at what figure', async () => {
    expect(await buy(100)).toMatchObject({ ok: true, data: { state: 'placed' } });
    await vi.waitFor(async () =>
      expect((await positions()).find((p) => p.tradingsymbol === 'INFY')?.quantity).toBe(100),
    );
    await set({ ...NO_MTM_SETTINGS, stop: { value: 2_000, unit: 'rupees' }, hard: true });
    const stored = JSON.parse(await readFile(join(app.dir, 'settings.json'), 'utf8')) as {
      mtm: Record<string, unknown>;
    };
    expect(Object.values(stored.mtm)[0]).toMatchObject({ stop: { value: 2_000, unit: 'rupees' } });
    // Watching, with a figure, from main's own subscription to INFY.
    await vi.waitFor(async () => expect((await mtm()).status).toMatchObject({ state: 'watching', stop: -2_000 }), {
      timeout: 10_000,
    });
    expect((await mtm()).status.mtm).not.toBeNull();
    // The day's charges estimate beside the figure (the buy's brokerage, exchange fees, stamp).
    expect((await mtm()).status.charges).toBeGreaterThan(0);

    // −₹30 × 100 = −₹3,000 past the −₹2,000 stop; more ticks follow during the run.
    app.setPrice('INFY', 1470);
    app.setPrice('INFY', 1465);
    await vi.waitFor(() => expect(runs.at(-1)?.state).toBe('done'), { timeout: 15_000 });
    app.setPrice('INFY', 1460);
    await vi.waitFor(async () => expect((await positions()).find((p) => p.tradingsymbol === 'INFY')?.quantity).toBe(0));

    expect(runIds()).toHaveLength(1);
    expect(runs[0]?.action).toEqual({ kind: 'killSwitch', exitPositions: true });
    const status = (await mtm()).status;
    expect(status.state).toBe('fired');
    expect(status.trigger).toMatchObject({ level: 'stop', levelRupees: -2_000, runId: runs[0]?.id });
    expect(status.trigger!.mtm).toBeLessThanOrEqual(-2_000);
    expect(statuses.some((s) => s.state === 'fired')).toBe(true);
    expect(await dispatch('safety.rearm', undefined)).toMatchObject({ ok: true });

    // The trigger is of the guard's day, on its clock.
    expect(status.trigger!.at).toBe(clock.now);

    // A restart later the same IST day: the day's trigger is kept, so the level, still passed, does not fire again.
    clock.now = Date.parse('2026-11-27T23:59:00+05:30');
    await app.restart();
    expect((await mtm()).status).toMatchObject({
      state: 'fired',
      trigger: { level: 'stop', runId: runs[0]?.id, at: Date.parse('2026-11-27T15:00:00+05:30') },
    });
  });

  it('a soft target asks; two "Run now" at once start one run', async () => {
    runs.length = 0;
    app.setPrice('INFY', 1500);
    expect(await buy(50)).toMatchObject({ ok: true, data: { state: 'placed' } });
    await vi.waitFor(async () =>
      expect((await positions()).find((p) => p.tradingsymbol === 'INFY')?.quantity).toBe(50),
    );
    // The day so far is about −₹3,000 realised; a target ₹1,000 above that, asked for, 600 s to answer.
    const before = (await mtm()).status.mtm;
    await set({ ...NO_MTM_SETTINGS, target: { value: 1_000, unit: 'rupees' }, hard: false, countdownS: 600 });
    await vi.waitFor(async () => expect((await mtm()).status.state).toBe('watching'), { timeout: 10_000 });
    expect(before).not.toBeNull();
    // +₹120 × 50 = +₹6,000 on the open 50: the day turns positive, past the target.
    app.setPrice('INFY', 1620);
    await vi.waitFor(async () => expect((await mtm()).status.state).toBe('asking'), { timeout: 10_000 });
    expect(runs).toHaveLength(0);
    const [a, b] = await Promise.all([dispatch('mtm.confirm', undefined), dispatch('mtm.confirm', undefined)]);
    expect(a).toMatchObject({ ok: true });
    expect(b).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(runs.at(-1)?.state).toBe('done'), { timeout: 15_000 });
    expect(runIds()).toHaveLength(1);
    expect((await mtm()).status.trigger).toMatchObject({ level: 'target', runId: runs[0]?.id });
    await dispatch('safety.rearm', undefined);
  });
});

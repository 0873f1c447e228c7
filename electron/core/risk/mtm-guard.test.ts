import { describe, expect, it } from 'vitest';
import { NO_MTM_SETTINGS, type MtmSettings } from '@shared/domain/mtm';
import type { Position } from '@shared/domain/portfolio';
import type { SafetyAction, SafetyRun } from '@shared/domain/safety-run';
import { AppError } from '@shared/ipc/app-error';
import { positionOf } from '@shared/testing/portfolio-fixtures';
import type { KnownAccount } from '../known-positions';
import { MtmGuard, type MtmGuardDeps } from './mtm-guard';

/**
 * The guard's states around the run (docs/contract.md §Risk guard): unknown positions give no
 * figure and never a run; a soft level counts down, and "Keep positions" stops it; a level hit
 * while another run holds the runner waits for it, then runs.
 */

const infy: Position = positionOf({
  tradingsymbol: 'INFY',
  instrumentToken: 408065,
  quantity: 100,
  averagePrice: 1500,
  closePrice: 1490,
  lastPrice: 1500,
  buyQuantity: 100,
  buyValue: 150_000,
  dayBuyQuantity: 100,
  dayBuyValue: 150_000,
});

function rig(initial: { known: boolean; busy?: boolean }) {
  let price = 1500;
  let known = initial.known;
  let busy = initial.busy ?? false;
  let idle: () => void = () => undefined;
  const started: SafetyAction[] = [];
  const timers: Array<() => void> = [];
  const account = (): KnownAccount =>
    known
      ? { known: true, asOf: 0, since: null, positions: [{ ...infy, known: true, asOf: 0, live: true }] }
      : {
          known: false,
          asOf: null,
          since: 0,
          positions: [{ ...infy, known: false, since: 0, why: 'a fill came after the last positions read' }],
        };
  const deps: MtmGuardDeps = {
    view: {
      knownAccount: account,
      positions: () => (known ? [infy] : null),
      pricedPositions: () => (known ? [{ ...infy, lastPrice: price }] : null),
      orders: () => [],
    },
    readPositions: () => new Promise(() => undefined),
    openingFunds: async () => 1_000_000,
    safety: {
      start: (action) => {
        if (busy) throw new AppError({ kind: 'conflict', message: 'A safety run is already in progress' });
        started.push(action);
        return { id: `sr${started.length}` } as SafetyRun;
      },
      current: () => null,
      idle: () => new Promise<void>((resolve) => (idle = resolve)),
    },
    now: () => Date.parse('2026-11-27T08:32:11Z'),
    setTimer: (fire) => {
      timers.push(fire);
      return () => timers.splice(timers.indexOf(fire), 1);
    },
  };
  const guard = new MtmGuard(deps);
  return {
    guard,
    started,
    timers,
    move(to: number) {
      price = to;
      guard.evaluate();
    },
    know(v: boolean) {
      known = v;
      guard.evaluate();
    },
    release() {
      busy = false;
      idle();
    },
  };
}

const stop2k: MtmSettings = { ...NO_MTM_SETTINGS, stop: { value: 2_000, unit: 'rupees' } };

describe('MtmGuard', () => {
  it('while a position is unknown, the MTM is unknown (no figure) and no level is judged', () => {
    const r = rig({ known: false });
    r.guard.setSettings(stop2k);
    r.move(1400);
    expect(r.guard.state().status).toMatchObject({ state: 'unknown', mtm: null });
    expect(r.guard.state().status.why).toContain('INFY');
    expect(r.started).toEqual([]);
    r.know(true);
    expect(r.started).toEqual([{ kind: 'killSwitch', exitPositions: true }]);
  });

  it('a level in % of the opening funds resolves once they are read', async () => {
    const r = rig({ known: true });
    r.guard.setSettings({ ...NO_MTM_SETTINGS, stop: { value: 0.5, unit: 'percent' } });
    await Promise.resolve();
    await Promise.resolve();
    expect(r.guard.state().status).toMatchObject({ state: 'watching', stop: -5_000 });
    r.move(1460);
    expect(r.started).toHaveLength(0);
    r.move(1450);
    expect(r.started).toHaveLength(1);
  });

  it('a soft level asks and runs when its countdown ends; later ticks start nothing more', () => {
    const r = rig({ known: true });
    r.guard.setSettings({ ...stop2k, hard: false, countdownS: 30 });
    r.move(1470);
    expect(r.guard.state().status.state).toBe('asking');
    expect(r.guard.state().status.trigger?.runsAt).toBe(Date.parse('2026-11-27T08:32:41Z'));
    expect(r.started).toHaveLength(0);
    r.timers[0]!();
    r.move(1460);
    r.guard.confirm();
    expect(r.started).toHaveLength(1);
    expect(r.guard.state().status).toMatchObject({ state: 'fired', trigger: { runId: 'sr1', mtm: -3_000 } });
  });

  it('"Keep positions" stops a soft countdown: no run, not watched until saved again', () => {
    const r = rig({ known: true });
    r.guard.setSettings({ ...stop2k, hard: false });
    r.move(1470);
    r.guard.dismiss();
    expect(r.timers).toHaveLength(0);
    r.move(1400);
    r.guard.confirm();
    expect(r.started).toHaveLength(0);
    expect(r.guard.state().status.state).toBe('dismissed');
  });

  it("today's trigger kept across a restart: no second run; another day's is ignored", () => {
    const trigger = {
      level: 'stop' as const,
      mtm: -3_000,
      levelRupees: -2_000,
      at: Date.parse('2026-11-27T08:00:00Z'),
      runId: 'sr0',
      runsAt: null,
    };
    const r = rig({ known: true });
    r.guard.setSettings(stop2k);
    r.guard.restoreTrigger(trigger);
    r.move(1400);
    expect(r.started).toHaveLength(0);
    expect(r.guard.state().status).toMatchObject({ state: 'fired', trigger: { runId: 'sr0' } });
    const next = rig({ known: true });
    next.guard.setSettings(stop2k);
    next.guard.restoreTrigger({ ...trigger, at: Date.parse('2026-11-26T08:00:00Z') });
    next.move(1400);
    expect(next.started).toHaveLength(1);
  });

  it('a level hit while another run holds the runner: the kill switch runs once that one ends', async () => {
    const r = rig({ known: true, busy: true });
    r.guard.setSettings(stop2k);
    r.move(1470);
    expect(r.started).toHaveLength(0);
    expect(r.guard.state().status.state).toBe('fired');
    r.release();
    await Promise.resolve();
    await Promise.resolve();
    expect(r.started).toEqual([{ kind: 'killSwitch', exitPositions: true }]);
    r.move(1450);
    expect(r.started).toHaveLength(1);
  });
});

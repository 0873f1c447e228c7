import type { SafetyRun } from '../domain/safety-run';

/**
 * A kill switch run (cancel all, exit all) started and finished at `at` with nothing left open;
 * tests override what they are about (the MTM headline, the header's flattened notice).
 */
export function aKillSwitchRun(at: number, over: Partial<SafetyRun> = {}): SafetyRun {
  return {
    id: 'sr1',
    action: { kind: 'killSwitch', exitPositions: true },
    startedAt: at,
    finishedAt: at,
    state: 'done',
    steps: [],
    stillOpen: { orders: [], positions: [], unconfirmed: [], verified: true, positionsUnknownSince: null },
    detail: '',
    positionsUnreadableSince: null,
    barrierUp: true,
    ...over,
  };
}

/** A kill switch run at `at` that could not finish: 25 RELIANCE MIS still open after it. */
export function aRunLeavingReliance(at: number): SafetyRun {
  return aKillSwitchRun(at, {
    state: 'incomplete',
    stillOpen: {
      orders: [],
      positions: [{ exchange: 'NSE', tradingsymbol: 'RELIANCE', product: 'MIS', quantity: 25 }],
      unconfirmed: [],
      verified: true,
      positionsUnknownSince: null,
    },
  });
}

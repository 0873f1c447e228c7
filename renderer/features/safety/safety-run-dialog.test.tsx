import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SafetyRun, SafetyStep } from '@shared/domain/safety-run';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, type FakeBridge } from '../../test/fake-bridge';
import { useSafetyEvents } from './queries';
import { SafetyRunDialog } from './safety-run-dialog';
import { useSafetyActions } from './safety-store';

/**
 * The kill switch's progress as the trader reads it, driven by `safety.progress` pushes: each
 * order's state and result, and at the end what is still open — marked when the broker could
 * not be read back (docs/contract.md §Kill switch).
 */

let bridge: FakeBridge;
/** What main's `safety.current` answers: the run as last pushed. */
let current: SafetyRun | null = null;
beforeEach(() => {
  current = null;
  bridge = createFakeBridge({ 'safety.current': () => ({ ok: true, data: current }) });
  setBridgeForTests(bridge);
});

/** Main's push of a run (and what it answers when asked after it). */
async function push(run: SafetyRun): Promise<void> {
  current = run;
  await act(async () => bridge.emit('safety.progress', run));
}
afterEach(() => setBridgeForTests(null));

const STEP: SafetyStep = {
  id: 'c-1',
  kind: 'cancel',
  exchange: 'NSE',
  tradingsymbol: 'INFY',
  product: 'MIS',
  transactionType: 'BUY',
  quantity: 2,
  orderId: '1',
  clientOrderId: null,
  status: 'OPEN',
  state: 'working',
  attempts: 2,
  detail: 'Retrying (try 2)…',
};

/** The step's order, as the read-back lists it still open. */
const STILL_OPEN_ORDER: NonNullable<SafetyRun['stillOpen']>['orders'][number] = {
  orderId: '1',
  exchange: 'NSE',
  tradingsymbol: 'INFY',
  transactionType: 'BUY',
  pendingQuantity: 2,
  status: 'OPEN',
};

const RUN: SafetyRun = {
  id: 'sr1',
  action: { kind: 'killSwitch', exitPositions: false },
  startedAt: 1,
  finishedAt: null,
  state: 'running',
  steps: [STEP],
  stillOpen: null,
  detail: 'Cancelling 1 order…',
  positionsUnreadableSince: null,
  barrierUp: false,
};

function Harness() {
  useSafetyEvents();
  const { runShown } = useSafetyActions();
  return (
    <>
      <button type="button" onClick={runShown}>
        show
      </button>
      <SafetyRunDialog />
    </>
  );
}

describe('the safety run dialog', () => {
  it('follows the pushes: working, then failed with what is still open, marked unverified when the broker could not be read back', async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Harness />
      </QueryClientProvider>,
    );
    await push(RUN);
    act(() => screen.getByRole('button', { name: 'show' }).click());
    const dialog = await screen.findByRole('dialog', { name: 'Kill switch' });
    expect(within(dialog).getByTestId('safety-headline').textContent).toBe('Cancelling 1 order…');
    expect(within(dialog).getByRole('row', { name: /INFY/ }).textContent).toContain('Working…Retrying (try 2)…');
    expect(within(dialog).getByRole('button', { name: 'Hide (it keeps running)' })).toBeTruthy();

    await push({
      ...RUN,
      state: 'incomplete',
      finishedAt: 2,
      detail: '0 of 1 order cancelled — the broker could not be read back: check what is still open',
      steps: [{ ...STEP, state: 'failed', attempts: 4, detail: 'Still open after 4 tries: connection reset' }],
      stillOpen: {
        orders: [STILL_OPEN_ORDER],
        positions: [],
        unconfirmed: ['td-abc'],
        verified: false,
        positionsUnknownSince: null,
      },
    });
    // react-query tells its observers on the next macrotask: wait for the row to change.
    await waitFor(() =>
      expect(within(dialog).getByRole('row', { name: /INFY/ }).textContent).toContain(
        'Still openStill open after 4 tries: connection reset',
      ),
    );
    const open = within(dialog).getByTestId('still-open');
    expect(open.textContent).toContain('Still open (the broker could not be read back: last known)');
    expect(open.textContent).toContain('Order 1 BUY 2 INFY — OPEN');
    expect(open.textContent).toContain('Not yet confirmed: td-abc — it may still become an order');
    expect(within(dialog).getByRole('button', { name: 'Done' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Stop' })).toBeNull();
  });

  it('Stop, while a run waits out the broker’s 429s, asks main to stop it and says it is stopping until the run ends', async () => {
    const waiting: SafetyRun = {
      ...RUN,
      detail:
        'Cancelling 1 order… The broker is throttling (429): waiting 30 s as it asks, then going on until every order is settled (Stop ends it)',
      steps: [
        {
          ...STEP,
          attempts: 1,
          detail: 'The broker asked to wait 30 s (429): waiting, then trying again — not counted as a try',
        },
      ],
    };
    // Main's run, as a read from the dialog would find it.
    current = waiting;
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Harness />
      </QueryClientProvider>,
    );
    await push(waiting);
    bridge.answer('safety.stop', () => ({
      ok: true,
      data: { ...waiting, detail: 'Stopping: nothing more is sent; waiting for the answers to requests already sent…' },
    }));
    act(() => screen.getByRole('button', { name: 'show' }).click());
    const dialog = await screen.findByRole('dialog', { name: 'Kill switch' });
    expect(within(dialog).getByTestId('safety-headline').textContent).toMatch(/throttling \(429\): waiting 30 s/);
    act(() => within(dialog).getByRole('button', { name: 'Stop' }).click());
    await waitFor(() =>
      expect(within(dialog).getByTestId('safety-headline').textContent).toBe(
        'Stopping: nothing more is sent; waiting for the answers to requests already sent…',
      ),
    );
    expect(bridge.callsOf('safety.stop')).toHaveLength(1);
    expect((within(dialog).getByRole('button', { name: 'Stopping…' }) as HTMLButtonElement).disabled).toBe(true);

    await push({
      ...waiting,
      state: 'incomplete',
      finishedAt: 2,
      detail: 'Stopped: 0 of 1 order cancelled — 1 item still open',
      steps: [{ ...STEP, state: 'failed', attempts: 1, detail: 'Stopped before the broker confirmed a cancel' }],
      stillOpen: {
        orders: [STILL_OPEN_ORDER],
        positions: [],
        unconfirmed: [],
        verified: true,
        positionsUnknownSince: null,
      },
    });
    await waitFor(() =>
      expect(within(dialog).getByTestId('safety-headline').textContent).toBe(
        'Stopped: 0 of 1 order cancelled — 1 item still open',
      ),
    );
    expect(within(dialog).queryByRole('button', { name: /Stop/ })).toBeNull();
    expect(within(dialog).getByTestId('still-open').textContent).toContain('Order 1 BUY 2 INFY — OPEN');
  });

  it('positions that cannot be read say "Positions unknown" with for how long, never "Nothing"; the barrier stays until the trader re-arms', async () => {
    const since = Date.now() - 42_000;
    const waiting: SafetyRun = {
      ...RUN,
      action: { kind: 'killSwitch', exitPositions: true },
      steps: [],
      barrierUp: true,
      positionsUnreadableSince: since,
      detail:
        'Positions unknown: not readable for 42 s — check with your broker. The broker asked to wait 30 s (429): reading them again then, until they are known (Stop ends it)',
    };
    current = waiting;
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Harness />
      </QueryClientProvider>,
    );
    await push(waiting);
    act(() => screen.getByRole('button', { name: 'show' }).click());
    const dialog = await screen.findByRole('dialog', { name: 'Kill switch' });
    expect(within(dialog).getByTestId('positions-unknown').textContent).toMatch(
      /^Positions unknown: not readable for \d+ s — check with your broker$/,
    );
    // No re-arm while it runs.
    expect(within(dialog).queryByRole('button', { name: 'Re-arm trading' })).toBeNull();

    const ended: SafetyRun = {
      ...waiting,
      state: 'incomplete',
      finishedAt: since + 42_000,
      positionsUnreadableSince: since,
      detail: 'Stopped: No working orders — Positions unknown: not readable for 42 s — check with your broker.',
      stillOpen: { orders: [], positions: [], unconfirmed: [], verified: false, positionsUnknownSince: since },
    };
    await push(ended);
    await waitFor(() => expect(within(dialog).getByTestId('still-open')).toBeTruthy());
    const open = within(dialog).getByTestId('still-open');
    expect(open.textContent).toContain('Positions unknown: not readable for 42 s — check with your broker');
    expect(open.textContent).not.toContain('Nothing');
    expect(within(dialog).getByTestId('safety-barrier').textContent).toMatch(/until you re-arm it/);

    bridge.answer('safety.rearm', () => ({ ok: true, data: { ...ended, barrierUp: false } }));
    act(() => within(dialog).getByRole('button', { name: 'Re-arm trading' }).click());
    await waitFor(() => expect(within(dialog).queryByTestId('safety-barrier')).toBeNull());
    expect(bridge.callsOf('safety.rearm')).toHaveLength(1);
  });
});

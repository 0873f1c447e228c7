import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_MTM_SETTINGS, type MtmStatus } from '@shared/domain/mtm';
import type { SafetyRun } from '@shared/domain/safety-run';
import { aKillSwitchRun, aRunLeavingReliance } from '@shared/testing/safety-fixtures';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, type FakeBridge } from '../../test/fake-bridge';
import { MtmHeader } from './mtm-header';

/**
 * The header's MTM piece as the trader reads it (docs/desk.md §MTM stop and target): never a
 * figure while positions are unknown; the figure on its bar while watched; after a run, why and
 * at what figure, or what was left open.
 */

const status = (over: Partial<MtmStatus>): MtmStatus => ({
  state: 'watching',
  mtm: null,
  realised: null,
  unrealised: null,
  charges: null,
  stop: -20_000,
  target: 40_000,
  lockedAt: null,
  peak: null,
  why: null,
  trigger: null,
  asOf: 0,
  ...over,
});

// 14:02:11 IST.
const AT = Date.parse('2026-11-27T08:32:11Z');
const fired = status({
  state: 'fired',
  mtm: -20_140,
  trigger: { level: 'stop', mtm: -20_140, levelRupees: -20_000, at: AT, runId: 'sr1', runsAt: null },
});

let bridge: FakeBridge;
let current: MtmStatus;
let lastRun: SafetyRun | null;
beforeEach(() => {
  lastRun = null;
  bridge = createFakeBridge({
    'mtm.get': () => ({ ok: true, data: { settings: NO_MTM_SETTINGS, status: current } }),
    'safety.current': () => ({ ok: true, data: lastRun }),
  });
  setBridgeForTests(bridge);
});
afterEach(() => setBridgeForTests(null));

const show = () =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MtmHeader />
    </QueryClientProvider>,
  );

describe('the header MTM piece', () => {
  it('says "MTM unknown" with why, never a figure, while positions are unknown', async () => {
    current = status({ state: 'unknown', why: 'INFY: a fill came after the last positions read' });
    show();
    const unknown = await screen.findByText('MTM unknown');
    expect(unknown.getAttribute('title')).toBe('INFY: a fill came after the last positions read');
    expect(screen.queryByText(/₹/)).toBeNull();
  });

  it('shows the figure on the bar, and the next push moves it', async () => {
    current = status({ mtm: -1_005, charges: 33.53 });
    show();
    expect(await screen.findByText('MTM −₹1,005')).toBeTruthy();
    const meter = screen.getByRole('meter', { name: 'MTM between stop and target' });
    expect(meter.getAttribute('aria-valuenow')).toBe('-1005');
    await act(async () => bridge.emit('mtm.changed', status({ mtm: 2_500 })));
    expect(await screen.findByText('MTM +₹2,500')).toBeTruthy();
  });

  it('after the run: why and at what figure; a run that could not finish names what is open', async () => {
    current = fired;
    lastRun = aKillSwitchRun(AT);
    const { unmount } = show();
    expect(await screen.findByText('Flattened at 14:02:11 by MTM stop −₹20,140')).toBeTruthy();
    unmount();
    lastRun = aRunLeavingReliance(AT);
    show();
    expect(await screen.findByText('Not flat: MTM stop −₹20,140 at 14:02:11 — still open: RELIANCE +25')).toBeTruthy();
  });
});

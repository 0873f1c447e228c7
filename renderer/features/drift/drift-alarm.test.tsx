import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DriftFinding, DriftStatus } from '@shared/domain/drift';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, type FakeBridge } from '../../test/fake-bridge';
import { DriftDialogSlot, DriftHeaderButton } from './drift-alarm';

/**
 * The drift alarm as the trader sees it (docs/contract.md §Drift alarm): the header's warning
 * counts main's findings, the dialog names each with its time, Acknowledge and Check now go to
 * main, and a check that could not read the broker is said as such, never as "in sync".
 */

const FINDING: DriftFinding = {
  id: 'outside_order:260000000042',
  kind: 'outside_order',
  exchange: 'NSE',
  tradingsymbol: 'SBIN',
  orderId: '260000000042',
  message: 'Order 260000000042 for SBIN (BUY 3) was placed outside Tradedesk',
  // 10:31:05 IST
  firstSeenAt: Date.parse('2026-11-23T05:01:05Z'),
  lastSeenAt: Date.parse('2026-11-23T05:01:10Z'),
};
const CLEAR: DriftStatus = { findings: [], checking: false, checkedAt: 1, failure: null, suspected: 0 };

let bridge: FakeBridge;
let status: DriftStatus;
beforeEach(() => {
  status = CLEAR;
  bridge = createFakeBridge({
    'drift.status': () => ({ ok: true, data: status }),
    'drift.acknowledge': () => ({ ok: true, data: (status = CLEAR) }),
    'drift.check': () => ({ ok: true, data: status }),
  });
  setBridgeForTests(bridge);
});
afterEach(() => setBridgeForTests(null));

function mount(): void {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <DriftHeaderButton />
      <DriftDialogSlot />
    </QueryClientProvider>,
  );
}

describe('the drift alarm on screen', () => {
  it('a pushed finding turns the header amber with its count; the dialog names it and its time; Acknowledge clears it', async () => {
    mount();
    const chip = await screen.findByTestId('drift-chip');
    await waitFor(() => expect(chip.textContent).toBe('In sync'));
    expect(chip.className).not.toContain('drift-chip--warn');

    status = { ...CLEAR, findings: [FINDING] };
    await act(async () => bridge.emit('drift.changed', status));
    await waitFor(() => expect(chip.textContent).toBe('Drift: 1 difference'));
    expect(chip.className).toContain('drift-chip--warn');

    act(() => chip.click());
    const dialog = await screen.findByRole('dialog', { name: 'Drift from the broker' });
    const row = within(dialog).getByRole('row', { name: /SBIN/ });
    expect(row.textContent).toContain('10:31:05');
    expect(row.textContent).toContain('Placed elsewhere');
    expect(row.textContent).toContain('Order 260000000042 for SBIN (BUY 3) was placed outside Tradedesk');

    act(() => within(row).getByRole('button', { name: 'Acknowledge' }).click());
    await waitFor(() => expect(within(dialog).getByText('No differences')).toBeTruthy());
    expect(bridge.callsOf('drift.acknowledge').map((c) => c.payload)).toEqual([{ id: FINDING.id }]);
    await waitFor(() => expect(chip.textContent).toBe('In sync'));
  });

  it('a check that could not read the broker is amber "not checked" and says when, never "in sync"; Check now asks main', async () => {
    status = { ...CLEAR, failure: 'Could not check at 10:31 IST: the broker did not answer' };
    mount();
    const chip = await screen.findByTestId('drift-chip');
    await waitFor(() => expect(chip.textContent).toBe('Drift: not checked'));
    expect(chip.className).toContain('drift-chip--warn');
    act(() => chip.click());
    const dialog = await screen.findByRole('dialog', { name: 'Drift from the broker' });
    expect(within(dialog).getByTestId('drift-failure').textContent).toBe(
      'Could not check at 10:31 IST: the broker did not answer',
    );
    act(() => within(dialog).getByRole('button', { name: 'Check now' }).click());
    await waitFor(() => expect(bridge.callsOf('drift.check')).toHaveLength(1));
  });
});

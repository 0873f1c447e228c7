import { afterEach, describe, expect, it } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import type { UpdateStatus } from '@shared/domain/update';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge } from '../../test/fake-bridge';
import { UpdateNotice } from './update-notice';

afterEach(() => setBridgeForTests(null));

function renderWith(status: UpdateStatus) {
  const bridge = createFakeBridge({ 'updates.status': () => ({ ok: true, data: status }) });
  setBridgeForTests(bridge);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <UpdateNotice />
    </QueryClientProvider>,
  );
  return bridge;
}

describe("the header's update notice", () => {
  it('says nothing while the desk is current, the feed unread or off', async () => {
    const bridge = renderWith({ kind: 'current', version: '0.1.0', checkedAt: 0 });
    await expect.poll(() => bridge.callsOf('updates.status').length).toBeGreaterThan(0);
    expect(screen.queryByTestId('update-notice')).toBeNull();
  });

  it('announces a newer version, and its dialog says where to get it and that nothing installs during open work', async () => {
    const bridge = renderWith({ kind: 'current', version: '0.1.0', checkedAt: 0 });
    await expect.poll(() => bridge.callsOf('updates.status').length).toBeGreaterThan(0);
    act(() =>
      bridge.emit('updates.changed', {
        kind: 'available',
        version: '0.2.0',
        url: 'https://updates.example/tradedesk-0.2.0.AppImage',
        notes: 'Fixes the ladder',
        checkedAt: 1,
      }),
    );
    const chip = await screen.findByTestId('update-notice');
    expect(chip.textContent).toBe('Update 0.2.0');
    await userEvent.click(chip);
    const dialog = screen.getByRole('dialog', { name: 'Tradedesk 0.2.0' });
    expect(within(dialog).getByText('Fixes the ladder')).toBeTruthy();
    expect(dialog.textContent).toContain('https://updates.example/tradedesk-0.2.0.AppImage');
    expect(dialog.textContent).toMatch(/never during open work/);
  });
});

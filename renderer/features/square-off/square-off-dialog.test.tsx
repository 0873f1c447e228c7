import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge } from '../../test/fake-bridge';
import { describedText } from '../../test/ticket-harness';
import { SquareOffChip } from './square-off-chip';

/** The square-off's settings dialog as a screen reader reads it (docs/desk.md §Square-off). */

const SPECIAL_CLOSE = "must be before NSE's close in today's special session (14:00)";

/** A bridge on which main refuses every save with a `bad_request` naming `fields` (the first is `field`). */
function refusingBridge(message: string, fields: ReadonlyArray<{ field: string; message: string }>) {
  return createFakeBridge({
    'squareOff.set': () => ({
      ok: false,
      error: { kind: 'bad_request', message, field: fields[0]!.field, fields: [...fields] },
    }),
  });
}

// Main refuses what the form let through, naming the field (a special session's earlier close).
beforeEach(() =>
  setBridgeForTests(
    refusingBridge(`Invalid squareOff.set: settings.times.NSE: ${SPECIAL_CLOSE}`, [
      { field: 'settings.times.NSE', message: SPECIAL_CLOSE },
    ]),
  ),
);
afterEach(() => setBridgeForTests(null));

async function openSettings() {
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <SquareOffChip />
    </QueryClientProvider>,
  );
  await user.click(await screen.findByTestId('square-off-chip'));
  const dialog = screen.getByRole('dialog', { name: 'Square-off at a time' });
  return { user, dialog, nse: within(dialog).getByLabelText('NSE time') };
}

describe('Square-off at a time: the settings', () => {
  it("reads a time's error as the description of its field", async () => {
    const { user, dialog, nse } = await openSettings();
    await user.clear(nse);
    await user.type(nse, '15:45');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(nse.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(nse)).toBe("must be before NSE's close");
  });

  it("shows main's refusal naming a time on that time's field, not above the buttons", async () => {
    const { user, dialog, nse } = await openSettings();
    await user.clear(nse);
    await user.type(nse, '14:30');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(describedText(nse)).toBe(SPECIAL_CLOSE));
    expect(nse.getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).queryByRole('alert')).toBeNull();
    // Typing in the field takes its error away; nothing is left above the buttons either.
    await user.type(nse, '{Backspace}0');
    expect(describedText(nse)).toBe('');
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });
});

describe("Square-off at a time: main's refusal naming what the dialog has no field for", () => {
  it('is shown whole above the buttons, with nothing on the time it also names', async () => {
    const message = 'Invalid squareOff.set: settings.enabled: Invalid input';
    setBridgeForTests(
      refusingBridge(message, [
        { field: 'settings.enabled', message: 'Invalid input' },
        { field: 'settings.times.NSE', message: SPECIAL_CLOSE },
      ]),
    );
    const { user, dialog, nse } = await openSettings();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(`Not saved: ${message}`);
    expect(nse.getAttribute('aria-invalid')).toBeNull();
    // It stays until the next save: typing in a time does not take it away.
    await user.type(nse, '{Backspace}0');
    expect(within(dialog).getByRole('alert').textContent).toBe(`Not saved: ${message}`);
  });
});

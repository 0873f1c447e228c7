import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge } from '../../test/fake-bridge';
import { describedText } from '../../test/ticket-harness';
import { SquareOffChip } from './square-off-chip';

/** The square-off's settings dialog as a screen reader reads it (docs/desk.md §Square-off). */

beforeEach(() => setBridgeForTests(createFakeBridge({})));
afterEach(() => setBridgeForTests(null));

describe('Square-off at a time: the settings', () => {
  it("reads a time's error as the description of its field", async () => {
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SquareOffChip />
      </QueryClientProvider>,
    );
    await user.click(await screen.findByTestId('square-off-chip'));
    const dialog = screen.getByRole('dialog', { name: 'Square-off at a time' });
    const nse = within(dialog).getByLabelText('NSE time');
    await user.clear(nse);
    await user.type(nse, '15:45');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(nse.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(nse)).toBe("must be before NSE's close");
  });
});

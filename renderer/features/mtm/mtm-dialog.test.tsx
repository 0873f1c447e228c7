import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge } from '../../test/fake-bridge';
import { describedText } from '../../test/ticket-harness';
import { MtmDialog } from './mtm-dialog';

/** The MTM stop and target dialog as a screen reader reads it (docs/desk.md §MTM stop and target). */

beforeEach(() => setBridgeForTests(createFakeBridge({})));
afterEach(() => setBridgeForTests(null));

describe('MTM stop and target: the settings', () => {
  it("reads the soft countdown's error as the description of its field", async () => {
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <MtmDialog onClose={() => undefined} />
      </QueryClientProvider>,
    );
    const form = await screen.findByRole('form', { name: 'MTM stop and target' });
    await user.click(within(form).getByRole('checkbox', { name: 'Hard (run at once)' }));
    const countdown = within(form).getByLabelText('Soft: ask first, run after');
    await user.clear(countdown);
    await user.type(countdown, '2');
    await user.click(within(form).getByRole('button', { name: 'Save levels' }));
    expect(countdown.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(countdown)).toBe('Between 5 and 600 seconds');
  });
});

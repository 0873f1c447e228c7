import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridgeForTests } from '../../lib/bridge';
import type { FakeBridge } from '../../test/fake-bridge';
import { installTicketBridge, renderTicket } from '../../test/ticket-harness';

/**
 * Where the ticket puts the focus when it is drawn: on its first field, unless a dialog holds it.
 * The main window draws the ticket after the first screen (docs/live-data.md §The first screen
 * first), by when the session dialog may already be open with the focus in it.
 */

let bridge: FakeBridge;

beforeEach(() => {
  bridge = installTicketBridge();
});

afterEach(() => {
  setBridgeForTests(null);
  document.body.replaceChildren();
});

describe('the ticket’s first focus', () => {
  it('goes to the symbol on a blank ticket', async () => {
    const { form } = await renderTicket(bridge);
    expect(document.activeElement).toBe(within(form).getByRole('combobox', { name: 'Symbol' }));
  });

  it('leaves the focus in a dialog that is open when the ticket is drawn', async () => {
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    dialog.setAttribute('aria-label', 'Log in to a broker');
    const choice = document.createElement('input');
    choice.type = 'radio';
    dialog.append(choice);
    document.body.append(dialog);
    choice.focus();
    await renderTicket(bridge);
    expect(document.activeElement).toBe(within(screen.getByRole('dialog')).getByRole('radio'));
  });
});

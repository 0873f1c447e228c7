import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_IMPORT_CSV_BYTES } from '@shared/ipc/limits';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, type FakeBridge } from '../../test/fake-bridge';
import { JournalImport } from './journal-import';

/**
 * The journal's import in the page (docs/journal.md §Import and export): a file over the bridge's
 * one limit is refused before it is read or sent; a refused file's bad lines are named.
 */

let bridge: FakeBridge;
beforeEach(() => {
  bridge = createFakeBridge();
  setBridgeForTests(bridge);
});
afterEach(() => setBridgeForTests(null));

function renderImport() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <JournalImport />
    </QueryClientProvider>,
  );
}

describe('JournalImport', () => {
  it('a file over the limit is refused with its size, and nothing is sent', async () => {
    renderImport();
    const big = new File(['x'.repeat(MAX_IMPORT_CSV_BYTES + 2_000)], 'tradebook.csv', { type: 'text/csv' });
    await userEvent.setup().upload(screen.getByLabelText('Import a Console tradebook CSV'), big);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Not imported: tradebook.csv is 194 KB; at most 192 KB can be imported at once: export a shorter range',
    );
    expect(bridge.callsOf('journal.importCsv')).toEqual([]);
  });

  it('a refused file lists each bad line by line and column', async () => {
    bridge.answer('journal.importCsv', () => ({
      ok: false,
      error: {
        kind: 'bad_request',
        field: 'csv',
        message: 'Nothing imported: 2 lines cannot be read — …',
        fields: [
          { field: 'lines.3.quantity', message: 'quantity must be from 1 to 10,00,00,000, not 9007199254740993' },
          { field: 'lines.4.price', message: 'price must be a number written in digits, not "1e308"' },
        ],
      },
    }));
    renderImport();
    const file = new File(['symbol,trade_id\n'], 'tradebook.csv', { type: 'text/csv' });
    await userEvent.setup().upload(screen.getByLabelText('Import a Console tradebook CSV'), file);
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Nothing imported: 2 lines/);
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Line 3, quantity: quantity must be from 1 to 10,00,00,000, not 9007199254740993',
      'Line 4, price: price must be a number written in digits, not "1e308"',
    ]);
  });
});

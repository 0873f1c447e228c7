import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, type FakeBridge } from '../../test/fake-bridge';
import { JournalScreen } from './journal-screen';

/** A damaged journal on screen (docs/journal.md §A damaged journal): what is wrong, and the way out. */

let bridge: FakeBridge;
let damaged = true;
beforeEach(() => {
  damaged = true;
  bridge = createFakeBridge({
    'journal.view': () =>
      damaged
        ? {
            ok: false,
            error: {
              kind: 'conflict',
              field: 'journal',
              message:
                'The journal /data/journal-paper.sqlite cannot be opened: the file is empty (0 bytes). Move it aside to start a new journal; the file is kept beside it',
            },
          }
        : { ok: true, data: { trades: [], open: [], fills: 0, syncedAt: null } },
    'journal.moveAside': () => {
      damaged = false;
      return { ok: true, data: { keptAs: '/data/journal-paper.sqlite.damaged-1' } };
    },
  });
  setBridgeForTests(bridge);
});
afterEach(() => setBridgeForTests(null));

describe('a damaged journal', () => {
  it('says what is wrong and moves it aside on the trader’s click; a new journal then reads', async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <JournalScreen onClose={() => undefined} />
      </QueryClientProvider>,
    );
    expect((await screen.findByText(/The journal could not be read/)).textContent).toMatch(
      /the file is empty \(0 bytes\)/,
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Move it aside and start a new journal' }));
    await waitFor(() => expect(bridge.callsOf('journal.moveAside')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText(/The journal could not be read/)).toBeNull());
  });
});

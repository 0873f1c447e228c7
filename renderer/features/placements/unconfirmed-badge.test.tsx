import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Placement } from '@shared/domain/placement';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, placement, type FakeBridge } from '../../test/fake-bridge';
import { usePlacementEvents } from './queries';
import { UnconfirmedBadge } from './unconfirmed-badge';

/**
 * The header badge and its dialog, against an in-memory bridge that plays main: the list is
 * read once and then kept current by `placements.changed` pushes.
 */

const NOW = 1_790_000_100_000;
let bridge: FakeBridge;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  bridge = createFakeBridge();
  setBridgeForTests(bridge);
});

afterEach(() => {
  setBridgeForTests(null);
  vi.useRealTimers();
});

/** Main's list: what `placements.list` answers and what a push carries. */
function mainHolds(placements: Placement[]): void {
  bridge.answer('placements.list', () => ({ ok: true, data: placements }));
}

async function push(placements: Placement[]): Promise<void> {
  mainHolds(placements);
  await act(async () => bridge.emit('placements.changed', { placements }));
}

function Header() {
  usePlacementEvents();
  return <UnconfirmedBadge />;
}

function renderHeader() {
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Header />
    </QueryClientProvider>,
  );
  return user;
}

const checking = placement({
  clientOrderId: 'td-chk1',
  state: 'checking',
  journaledAt: NOW - 12_000,
  order: { ...placement().order, quantity: 10, orderType: 'LIMIT', price: 1498.5 },
});
const deciding = placement({
  clientOrderId: 'td-dec1',
  state: 'needs_decision',
  journaledAt: NOW - 65_000,
  order: { ...placement().order, tradingsymbol: 'SBIN', transactionType: 'SELL', quantity: 5 },
  detail: 'Found open after a restart; the broker has no such order',
});

/** The dialog's row of one reference. */
function row(reference: string): HTMLElement {
  const el = screen
    .getByRole('dialog', { name: 'Unconfirmed orders' })
    .querySelector<HTMLElement>(`tr[data-placement="${reference}"]`);
  if (!el) throw new Error(`no row for ${reference}`);
  return el;
}

describe('UnconfirmedBadge', () => {
  it('shows nothing while no order is open (settled ones do not count)', async () => {
    mainHolds([
      placement({ clientOrderId: 'td-a', state: 'placed', orderId: '1', status: 'OPEN', settledAt: NOW }),
      placement({ clientOrderId: 'td-b', state: 'not_placed', settledAt: NOW }),
    ]);
    renderHeader();
    await waitFor(() => expect(bridge.callsOf('placements.list')).toHaveLength(1));
    await act(async () => {});
    expect(screen.queryByTestId('unconfirmed-badge')).toBeNull();
  });

  it('counts checking and needs-decision orders ("2 unconfirmed") and follows every push until none is left', async () => {
    mainHolds([checking, deciding]);
    renderHeader();
    expect((await screen.findByTestId('unconfirmed-badge')).textContent).toBe('2 unconfirmed');
    await push([{ ...checking, state: 'placed', orderId: '9', status: 'OPEN', settledAt: NOW }, deciding]);
    await waitFor(() => expect(screen.getByTestId('unconfirmed-badge').textContent).toBe('1 unconfirmed'));
    await push([]);
    await waitFor(() => expect(screen.queryByTestId('unconfirmed-badge')).toBeNull());
  });

  it('lists each open order with symbol, side, quantity, type and price, reference, state and age', async () => {
    mainHolds([checking, deciding]);
    const user = renderHeader();
    await user.click(await screen.findByTestId('unconfirmed-badge'));
    const cells = (ref: string) =>
      within(row(ref))
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cells('td-chk1').slice(0, 7)).toEqual([
      '12 s ago',
      'INFY',
      'BUY',
      '10',
      'LIMIT @ 1,498.50 · CNC',
      'td-chk1',
      'Unconfirmed Checking with the broker whether order td-chk1 exists…',
    ]);
    expect(cells('td-dec1').slice(0, 7)).toEqual([
      '1 min ago',
      'SBIN',
      'SELL',
      '5',
      'MARKET · CNC',
      'td-dec1',
      'Needs your decision Found open after a restart; the broker has no such order',
    ]);
  });

  it('offers Place again and Discard only on an order that needs a decision', async () => {
    mainHolds([checking, deciding]);
    const user = renderHeader();
    await user.click(await screen.findByTestId('unconfirmed-badge'));
    expect(within(row('td-chk1')).queryAllByRole('button')).toEqual([]);
    expect(
      within(row('td-dec1'))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Place again', 'Discard']);
  });

  it('Place again is one click: it sends placements.placeAgain for that reference, and the row ends as placed', async () => {
    mainHolds([deciding]);
    bridge.answer('placements.placeAgain', () => {
      const placed = {
        ...deciding,
        state: 'placed' as const,
        orderId: '250101000077',
        status: 'OPEN' as const,
        detail: 'Placed as order 250101000077',
      };
      mainHolds([placed]);
      return {
        ok: true,
        data: { state: 'placed', orderId: '250101000077', clientOrderId: 'td-dec1', status: 'OPEN', recovered: false },
      };
    });
    const user = renderHeader();
    await user.click(await screen.findByTestId('unconfirmed-badge'));
    await user.click(screen.getByRole('button', { name: 'Place td-dec1 again' }));
    expect(bridge.callsOf('placements.placeAgain')).toEqual([
      { channel: 'placements.placeAgain', payload: { clientOrderId: 'td-dec1' } },
    ]);
    expect(screen.queryAllByRole('dialog')).toHaveLength(1); // no "are you sure?"
    await waitFor(() => expect(row('td-dec1').textContent).toContain('Placed as order 250101000077'));
    expect(screen.queryByTestId('unconfirmed-badge')).toBeNull();
    expect(bridge.callsOf('placements.discard')).toHaveLength(0);
  });

  it('Discard is one click, sends no order, and the row ends as discarded', async () => {
    mainHolds([deciding]);
    bridge.answer('placements.discard', () => {
      const discarded = { ...deciding, state: 'discarded' as const, settledAt: NOW, detail: '' };
      mainHolds([discarded]);
      return { ok: true, data: discarded };
    });
    const user = renderHeader();
    await user.click(await screen.findByTestId('unconfirmed-badge'));
    await user.click(screen.getByRole('button', { name: 'Discard td-dec1' }));
    await waitFor(() => expect(row('td-dec1').textContent).toContain('Discarded — nothing was sent'));
    expect(bridge.callsOf('placements.discard')).toHaveLength(1);
    expect(bridge.callsOf('placements.placeAgain')).toHaveLength(0);
    expect(bridge.callsOf('orders.place')).toHaveLength(0);
  });

  it('a refused Place again says "Not placed: <reason>" in its row', async () => {
    mainHolds([deciding]);
    bridge.answer('placements.placeAgain', () => ({
      ok: false,
      error: { kind: 'bad_request', message: 'Quantity is above your limit for SBIN', field: 'order.quantity' },
    }));
    const user = renderHeader();
    await user.click(await screen.findByTestId('unconfirmed-badge'));
    await user.click(screen.getByRole('button', { name: 'Place td-dec1 again' }));
    expect((await within(row('td-dec1')).findByRole('alert')).textContent).toBe(
      'Not placed: Quantity is above your limit for SBIN',
    );
  });

  it('keeps a row that settles while the dialog is open, showing how it ended', async () => {
    mainHolds([checking]);
    const user = renderHeader();
    await user.click(await screen.findByTestId('unconfirmed-badge'));
    await push([{ ...checking, state: 'not_placed', settledAt: NOW }]);
    await waitFor(() =>
      expect(row('td-chk1').textContent).toContain('Not found at the broker — most likely not placed'),
    );
    expect(screen.getByRole('dialog', { name: 'Unconfirmed orders' })).toBeTruthy();
  });

  it('an intent from an earlier day is listed apart, and its Place again says it may duplicate and tells main so', async () => {
    const earlier = placement({
      clientOrderId: 'td-old1',
      state: 'unverifiable',
      journaledAt: NOW - 86_400_000,
      detail: 'Cannot be verified: order td-old1 was placed on 25 Nov, and Kite shows only today’s orders',
    });
    mainHolds([checking, earlier]);
    bridge.answer('placements.placeAgain', () => ({
      ok: true,
      data: { state: 'unconfirmed', clientOrderId: 'td-old1', detail: 'Checking…' },
    }));
    const user = renderHeader();
    await user.click(await screen.findByTestId('unconfirmed-badge'));
    const apart = screen.getByRole('table', { name: 'From earlier days — cannot be verified' });
    expect(within(apart).getByText('td-old1')).toBeTruthy();
    expect(within(apart).queryByText('td-chk1')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Place td-old1 again, though it may make a second order' }));
    expect(bridge.callsOf('placements.placeAgain').map((c) => c.payload)).toEqual([
      { clientOrderId: 'td-old1', mayDuplicate: true },
    ]);
  });

  it('placement records main could not read are shown, with where they are kept, even with nothing unconfirmed', async () => {
    mainHolds([]);
    bridge.answer('placements.records', () => ({
      ok: true,
      data: { unreadable: { count: 1, keptIn: '/data/intents-paper.jsonl.unreadable' } },
    }));
    const user = renderHeader();
    await user.click(await screen.findByTestId('unreadable-records-badge'));
    expect(screen.getByRole('alert').textContent).toMatch(
      /1 unreadable placement record kept in \/data\/intents-paper\.jsonl\.unreadable\. .*may be an order you placed/,
    );
  });
});

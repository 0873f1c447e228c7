import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Order } from '@shared/domain/order';
import type { Placement } from '@shared/domain/placement';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { bookOf, createFakeBridge, placement, type FakeBridge } from '../../test/fake-bridge';
import { order } from '../../test/ticket-harness';
import { usePlacementEvents } from '../placements/queries';
import { Blotter } from './blotter';

/**
 * The blotter's pinned rows: orders the app sent but the broker has not confirmed sit above the
 * broker's orders, marked in the app's words, until the real order row replaces them.
 */

let bridge: FakeBridge;
let brokerOrders: Order[];

/** happy-dom lays nothing out; give the blotter's scroll box a size so its virtualizer renders rows. */
const boxSize = { clientHeight: 600, clientWidth: 1000 } as const;
const realBox = Object.fromEntries(
  Object.keys(boxSize).map((k) => [k, Object.getOwnPropertyDescriptor(HTMLElement.prototype, k)]),
);

beforeEach(() => {
  for (const [k, v] of Object.entries(boxSize)) {
    Object.defineProperty(HTMLElement.prototype, k, { configurable: true, get: () => v });
  }
  brokerOrders = [order('250101000001', 'OPEN')];
  bridge = createFakeBridge({
    'orders.sync': () => bookOf(brokerOrders),
    'instruments.list': () => ({ ok: true, data: [] }),
  });
  setBridgeForTests(bridge);
});

afterEach(() => {
  setBridgeForTests(null);
  for (const [k, d] of Object.entries(realBox)) {
    if (d) Object.defineProperty(HTMLElement.prototype, k, d);
    else Reflect.deleteProperty(HTMLElement.prototype, k);
  }
});

function mainHolds(placements: Placement[]): void {
  bridge.answer('placements.list', () => ({ ok: true, data: placements }));
}

async function push(placements: Placement[]): Promise<void> {
  mainHolds(placements);
  await act(async () => bridge.emit('placements.changed', { placements }));
}

function BlotterInApp() {
  usePlacementEvents();
  return <Blotter />;
}

/** The body rows of the Orders table, as "placement:<ref>" or "order:<id>". */
function bodyRows(): string[] {
  const table = screen.getByRole('table', { name: 'Orders' });
  return [...table.querySelectorAll('tbody tr:not(.pad)')].map((tr) => {
    const ref = tr.getAttribute('data-placement');
    return ref ? `placement:${ref}` : `order:${tr.getAttribute('data-order-id')}`;
  });
}

function pinnedRow(ref: string): HTMLElement {
  const el = screen.getByRole('table', { name: 'Orders' }).querySelector<HTMLElement>(`tr[data-placement="${ref}"]`);
  if (!el) throw new Error(`no pinned row ${ref}`);
  return el;
}

function renderBlotter() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <BlotterInApp />
    </QueryClientProvider>,
  );
}

describe('Blotter: unconfirmed orders', () => {
  it('pins open placements above the broker orders, marked "Unconfirmed" / "Needs your decision" and not with a broker status', async () => {
    mainHolds([
      placement({ clientOrderId: 'td-chk', state: 'checking' }),
      placement({ clientOrderId: 'td-dec', state: 'needs_decision' }),
      placement({ clientOrderId: 'td-old', state: 'not_placed', settledAt: 1 }),
    ]);
    renderBlotter();
    await waitFor(() => expect(bodyRows()).toEqual(['placement:td-chk', 'placement:td-dec', 'order:250101000001']));
    const status = (ref: string) => within(pinnedRow(ref)).getAllByRole('cell')[10]!;
    expect(status('td-chk').textContent).toBe('Unconfirmed');
    expect(status('td-dec').textContent).toBe('Needs your decision');
    expect(status('td-chk').querySelector('.badge')).toBeNull(); // not a broker status badge
    expect(pinnedRow('td-chk').textContent).toContain('Checking with the broker whether order td-chk exists…');
    expect(within(pinnedRow('td-dec')).getByRole('button', { name: 'Discard td-dec' })).toBeTruthy();
    expect(within(pinnedRow('td-chk')).queryAllByRole('button')).toEqual([]);
  });

  it("says on the pinned row when the broker's own order book already shows its reference, so the two rows never read as two orders", async () => {
    brokerOrders = [{ ...order('250101000005', 'COMPLETE'), clientOrderId: 'td-seen' }];
    mainHolds([placement({ clientOrderId: 'td-seen', state: 'checking' })]);
    renderBlotter();
    await waitFor(() => expect(bodyRows()).toEqual(['placement:td-seen', 'order:250101000005']));
    expect(within(pinnedRow('td-seen')).getAllByRole('cell')[10]!.textContent).toBe('Unconfirmed');
    expect(pinnedRow('td-seen').textContent).toContain(
      "The broker's order book shows it as order 250101000005 (COMPLETE); confirming…",
    );
  });

  it('replaces the pinned row with the real order row once it is placed, never leaving a gap', async () => {
    const mine = placement({ clientOrderId: 'td-mine', state: 'checking' });
    mainHolds([mine]);
    renderBlotter();
    await waitFor(() => expect(bodyRows()).toEqual(['placement:td-mine', 'order:250101000001']));

    // Placed; the refetch of the orders it triggers is still on its way: the row stays, saying so.
    let release!: () => void;
    bridge.answer(
      'orders.sync',
      () => new Promise((r) => (release = () => r(bookOf([order('250101000002', 'OPEN'), ...brokerOrders])))),
    );
    await push([{ ...mine, state: 'placed', orderId: '250101000002', status: 'OPEN', settledAt: 2 }]);
    await waitFor(() => expect(pinnedRow('td-mine').textContent).toContain('Placed as order 250101000002'));
    expect(bodyRows()).toEqual(['placement:td-mine', 'order:250101000001']);

    await act(async () => release());
    await waitFor(() => expect(bodyRows()).toEqual(['order:250101000002', 'order:250101000001']));
  });
});

import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrderSyncAnswer } from '@shared/domain/order';
import type { IpcResult } from '@shared/ipc/result';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, type FakeBridge } from '../../test/fake-bridge';
import { order } from '../../test/ticket-harness';
import { Blotter } from './blotter';
import { FIRST_PAGE_ROWS, sendFirstSync, takeFirstSync } from './first-sync';

/** The main window's first `orders.sync`, sent before the app's code ran (docs/live-data.md §The first screen first). */

let bridge: FakeBridge;
let release: (result: IpcResult<unknown>) => void;
const rows = ['250101000002', '250101000001'].map((id) => order(id, 'OPEN'));
const answer: OrderSyncAnswer = { book: 'b1', cursor: 2, full: true, upserts: rows, removals: [] };

beforeEach(() => {
  bridge = createFakeBridge({
    'orders.sync': () => new Promise<IpcResult<unknown>>((r) => (release = r)),
    'instruments.list': () => ({ ok: true, data: [] }),
  });
  setBridgeForTests(bridge);
});

afterEach(() => {
  takeFirstSync();
  setBridgeForTests(null);
});

function blotter() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Blotter />
    </QueryClientProvider>,
  );
}

describe("the main window's first orders.sync, sent as the page starts", () => {
  it('leaves before anything is drawn, and its rows are what the blotter first shows: no second sync', async () => {
    sendFirstSync();
    expect(bridge.callsOf('orders.sync')).toEqual([{ channel: 'orders.sync', payload: { first: FIRST_PAGE_ROWS } }]);
    blotter();
    const count = await screen.findByTestId('orders-count');
    await act(async () => release({ ok: true, data: answer }));
    await waitFor(() => expect(count.textContent).toBe('2 orders'));
    expect(bridge.callsOf('orders.sync')).toHaveLength(1);
  });

  it('is checked against the contract like any reply: one off it is an error on the panel, not rows', async () => {
    sendFirstSync();
    blotter();
    await act(async () => release({ ok: true, data: { ...answer, upserts: [{ ...rows[0], quantity: 'ten' }] } }));
    expect(await screen.findByText(/Could not load orders: The broker sent an unexpected reply/)).toBeTruthy();
  });

  it('is taken once: a page without it sends its own', async () => {
    blotter();
    await waitFor(() =>
      expect(bridge.callsOf('orders.sync')).toEqual([{ channel: 'orders.sync', payload: { first: FIRST_PAGE_ROWS } }]),
    );
    expect(takeFirstSync()).toBeNull();
  });
});

import { act } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OrderSyncAnswer } from '@shared/domain/order';
import type { IpcResult } from '@shared/ipc/result';
import { setBridgeForTests } from './lib/bridge';
import { createQueryClient } from './lib/query-client';
import { createFakeBridge } from './test/fake-bridge';
import { order } from './test/ticket-harness';
import { Blotter } from './features/orders/blotter';
import { sendFirstSync, takeFirstSync } from './features/orders/first-sync';
import { orderQueries } from './features/orders/queries';
import { mountDesk } from './mount-desk';

/** The main window's first render and its first book (docs/live-data.md §The first screen first). */

let release: (result: IpcResult<unknown>) => void;
const answer: OrderSyncAnswer = {
  book: 'b1',
  cursor: 2,
  full: true,
  upserts: ['250101000002', '250101000001'].map((id) => order(id, 'OPEN')),
  removals: [],
};
let element: HTMLElement;
/** Every text the blotter's count showed, in order, and whether "Loading orders…" was ever drawn. */
let counts: string[];
let placeholderSeen: boolean;
let observer: MutationObserver;

beforeEach(() => {
  setBridgeForTests(
    createFakeBridge({
      'orders.sync': () => new Promise<IpcResult<unknown>>((r) => (release = r)),
      'instruments.list': () => ({ ok: true, data: [] }),
    }),
  );
  element = document.body.appendChild(document.createElement('div'));
  element.textContent = 'Opening the desk…';
  counts = [];
  placeholderSeen = false;
  observer = new MutationObserver(() => {
    const count = element.querySelector('[data-testid="orders-count"]')?.textContent;
    if (count && counts.at(-1) !== count) counts.push(count);
    if (element.textContent.includes('Loading orders…')) placeholderSeen = true;
  });
  observer.observe(element, { subtree: true, childList: true, characterData: true });
});

afterEach(() => {
  observer.disconnect();
  takeFirstSync();
  setBridgeForTests(null);
  element.remove();
});

/** Starts the desk as the main window's page does: the first sync sent, the book's fetch begun. */
function startMainWindow(bound: Promise<void>): Promise<void> {
  sendFirstSync();
  const client = createQueryClient();
  const firstBook = client.prefetchQuery(orderQueries.list());
  return mountDesk(element, <Blotter />, client, { firstBook, bound });
}

const never = new Promise<void>(() => {});

describe("the main window's first render", () => {
  it('waits for the first book, so the first thing drawn over the opening words is the rows', async () => {
    let mounted = false;
    await act(async () => {
      void startMainWindow(never).then(() => (mounted = true));
    });
    expect(element.textContent).toBe('Opening the desk…');
    await act(async () => release({ ok: true, data: answer }));
    await act(async () => {
      await vi.waitFor(() => expect(mounted).toBe(true));
    });
    expect(counts).toEqual(['2 orders']);
    expect(placeholderSeen).toBe(false);
  });

  it('draws the desk without it once the wait is over, and the rows when they come', async () => {
    let endWait = (): void => {};
    const bound = new Promise<void>((r) => (endWait = r));
    await act(async () => {
      void startMainWindow(bound);
    });
    await act(async () => endWait());
    expect(element.textContent).toContain('Loading orders…');
    await act(async () => release({ ok: true, data: answer }));
    await vi.waitFor(() => expect(counts.at(-1)).toBe('2 orders'));
  });

  it('in a pop-out (no first book), draws at once', async () => {
    await act(async () => mountDesk(element, <p>pop-out</p>, createQueryClient(), { firstBook: null, bound: never }));
    expect(element.textContent).toBe('pop-out');
  });
});

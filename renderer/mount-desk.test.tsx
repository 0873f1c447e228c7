import { act } from '@testing-library/react';
import type { Root } from 'react-dom/client';
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

let release: ((result: IpcResult<unknown>) => void) | undefined;
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
/** The roots a test drew, unmounted after it so no poll or timer of theirs outlives it. */
let roots: Promise<Root>[];

beforeEach(() => {
  setBridgeForTests(
    createFakeBridge({
      'orders.sync': () => new Promise<IpcResult<unknown>>((r) => (release = r)),
      'instruments.list': () => ({ ok: true, data: [] }),
    }),
  );
  element = document.body.appendChild(document.createElement('div'));
  element.textContent = 'Opening the desk…';
  release = undefined;
  counts = [];
  roots = [];
  placeholderSeen = false;
  observer = new MutationObserver(() => {
    const count = element.querySelector('[data-testid="orders-count"]')?.textContent;
    if (count && counts.at(-1) !== count) counts.push(count);
    if (element.textContent.includes('Loading orders…')) placeholderSeen = true;
  });
  observer.observe(element, { subtree: true, childList: true, characterData: true });
});

afterEach(async () => {
  observer.disconnect();
  await act(async () => {
    release?.({ ok: false, error: { kind: 'network', message: 'test over' } });
    for (const root of await Promise.all(roots)) root.unmount();
  });
  takeFirstSync();
  setBridgeForTests(null);
  element.remove();
});

/** Starts the desk as the main window's page does: the first sync sent, the book's fetch begun. */
function startMainWindow(bound: Promise<void>): Promise<Root> {
  sendFirstSync();
  const client = createQueryClient();
  const firstBook = client.prefetchQuery(orderQueries.list());
  const root = mountDesk(element, <Blotter />, client, { firstBook, bound });
  roots.push(root);
  return root;
}

const never = new Promise<void>(() => {});

/** Main's answer to the page's first `orders.sync`, held until now. */
function answerSync(result: IpcResult<unknown>): void {
  if (!release) throw new Error('the page sent no orders.sync');
  release(result);
}

describe("the main window's first render", () => {
  it('waits for the first book, so the first thing drawn over the opening words is the rows', async () => {
    let mounted = false;
    await act(async () => {
      void startMainWindow(never).then(() => (mounted = true));
    });
    expect(element.textContent).toBe('Opening the desk…');
    await act(async () => answerSync({ ok: true, data: answer }));
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
    expect(element.textContent).toBe('Opening the desk…');
    await act(async () => endWait());
    expect(element.textContent).toContain('Loading orders…');
    await act(async () => answerSync({ ok: true, data: answer }));
    await vi.waitFor(() => expect(counts.at(-1)).toBe('2 orders'));
  });

  it('draws the desk when the wait for its book fails', async () => {
    await act(async () => {
      roots.push(
        mountDesk(element, <p>desk</p>, createQueryClient(), {
          firstBook: Promise.reject(new Error('gone')),
          bound: never,
        }),
      );
      await roots[0];
    });
    expect(element.textContent).toBe('desk');
  });

  it('in a pop-out (no first book), draws at once', async () => {
    await act(async () => {
      roots.push(mountDesk(element, <p>pop-out</p>, createQueryClient(), { firstBook: null, bound: never }));
      await roots[0];
    });
    expect(element.textContent).toBe('pop-out');
  });
});

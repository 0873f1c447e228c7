import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { Profiler, useSyncExternalStore } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Instrument } from '@shared/domain/instrument';
import type { Order } from '@shared/domain/order';
import { anOrder } from '@shared/testing/order-fixtures';
import type { Book } from '../depth/book-model';
import { orderQueries } from '../orders/queries';
import { portfolioQueries } from '../portfolio/queries';
import type * as LadderRowModule from './ladder-row';
import type { LadderRowProps } from './ladder-row';
import { LadderPanel } from './ladder-panel';

/**
 * The ladder redraws only what moved (docs/ladder.md §Speed): with the panel's own hooks fed by
 * a book the test changes, every render of a row's cells is counted.
 */

const feed = vi.hoisted(() => {
  let book: unknown = null;
  const listeners = new Set<() => void>();
  return {
    get: () => book,
    set(next: unknown) {
      book = next;
      for (const l of listeners) l();
    },
    subscribe(l: () => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
});
const renders = vi.hoisted(() => [] as string[]);

vi.mock('../depth/use-book', () => ({
  useBook: () => useSyncExternalStore(feed.subscribe, feed.get),
}));
vi.mock('../market/use-quotes', () => {
  const quote = { lastPrice: 1500 };
  return { useQuote: () => quote };
});
vi.mock('../market/use-shown-instrument', () => {
  const shown = { token: 408065, instrument: infy() };
  return { useShownInstrument: () => shown };
});
vi.mock('../market/use-market-subscription', () => ({ useMarketSubscription: () => undefined }));
vi.mock('../session/use-market-data', () => ({ useMarketData: () => true }));
// Nothing reaches main: the lists are seeded in the cache below and never go stale.
vi.mock('../../lib/ipc-client', () => ({ call: () => new Promise(() => undefined) }));
vi.mock('./ladder-row', async (importOriginal) => {
  const real = await importOriginal<typeof LadderRowModule>();
  return {
    ...real,
    LadderRowCells: (props: LadderRowProps) => {
      renders.push(props.label);
      return real.LadderRowCells(props);
    },
  };
});

/** The instrument shown (a function: the hoisted mock factory runs before this module's constants). */
function infy(): Instrument {
  return {
    instrumentToken: 408065,
    exchange: 'NSE',
    tradingsymbol: 'INFY',
    instrumentType: 'EQ',
    tickSize: 0.05,
    lotSize: 1,
    lastPrice: 1500,
  } as unknown as Instrument;
}

function book(bid1: number): Book {
  return {
    bid: 1499.95,
    ask: 1500.05,
    depth: {
      buy: [
        { price: 1499.95, quantity: bid1, orders: 3 },
        { price: 1499.9, quantity: 282, orders: 4 },
      ],
      sell: [
        { price: 1500.05, quantity: 223, orders: 2 },
        { price: 1500.1, quantity: 280, orders: 5 },
      ],
    },
    totalBuyQuantity: null,
    totalSellQuantity: null,
    ts: '2026-11-27T04:00:00.000Z',
  };
}

/** A working order of INFY: a BUY LIMIT of 2 at 1,499.50 unless told otherwise. */
function order(over: Partial<Order>): Order {
  return anOrder({
    instrumentToken: 408065,
    tradingsymbol: 'INFY',
    quantity: 2,
    pendingQuantity: 2,
    price: 1499.5,
    ...over,
  });
}

/** Commits in which the ladder rendered anything, panel included (React's Profiler). */
const commits = vi.hoisted(() => ({ n: 0 }));

function renderLadder(orders: Order[] = []): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(orderQueries.list().queryKey, orders);
  client.setQueryData(portfolioQueries.positions().queryKey, []);
  client.setQueryData(['market', 'volumeAtPrice', infy().instrumentToken], { since: null, levels: [] });
  render(
    <QueryClientProvider client={client}>
      <Profiler id="ladder" onRender={() => (commits.n += 1)}>
        <LadderPanel />
      </Profiler>
    </QueryClientProvider>,
  );
  return client;
}

describe('the ladder redraws only the rows a book update moved', () => {
  beforeEach(() => {
    renders.length = 0;
    feed.set(book(225));
  });

  it('one level changed: that row alone; the same figures in a new book: no row', () => {
    renderLadder();
    expect(screen.getByRole('button', { name: 'Buy 1 at 1,499.95' }).textContent).toBe('225');
    expect(renders.length).toBeGreaterThanOrEqual(41);

    renders.length = 0;
    act(() => feed.set(book(300)));
    expect(screen.getByRole('button', { name: 'Buy 1 at 1,499.95' }).textContent).toBe('300');
    expect(renders).toEqual(['1,499.95']);

    renders.length = 0;
    act(() => feed.set(book(300)));
    expect(renders).toEqual([]);
  });
});

describe('the ladder does no work for order changes it does not show', () => {
  beforeEach(() => {
    renders.length = 0;
    feed.set(book(225));
  });

  it('orders of other instruments, and of this one far from the column, changing: no render; one in the column: its row', async () => {
    const shown = order({ orderId: 'near', price: 1499.5 });
    const far = order({ orderId: 'far', price: 1380 });
    const other = order({ orderId: 'other', instrumentToken: 2885, tradingsymbol: 'RELIANCE', price: 1300 });
    const client = renderLadder([shown, far, other]);
    expect(screen.getByTestId('ladder-buys-1,499.50').textContent).toContain('B 2');
    const list = (): Order[] => client.getQueryData<Order[]>(orderQueries.list().queryKey) ?? [];
    // react-query tells its observers on its own scheduler's next turn (a zero timeout): flushed here.
    const replace = (o: Order): Promise<void> =>
      act(async () => {
        client.setQueryData(orderQueries.list().queryKey, [...list().filter((x) => x.orderId !== o.orderId), o]);
        await new Promise((resolve) => setTimeout(resolve, 0));
      });

    commits.n = 0;
    renders.length = 0;
    // The churn of a 10,000-order book: a new list each time, nothing in it drawn here.
    await replace({ ...other, price: 1299.95 });
    await replace({ ...far, price: 1379.95 });
    await replace({ ...far, status: 'CANCELLED', pendingQuantity: 0 });
    expect(commits.n).toBe(0);

    await replace({ ...shown, pendingQuantity: 1 });
    expect(screen.getByTestId('ladder-buys-1,499.50').textContent).toContain('B 1');
    expect(renders).toEqual(['1,499.50']);
  });
});

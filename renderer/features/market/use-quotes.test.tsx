import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { Profiler } from 'react';
import { describe, expect, it } from 'vitest';
import { quotesStoreFor } from './quotes-store';
import { useQuote, useQuotesOf } from './use-quotes';

function Price(props: { readonly token: number; readonly live: boolean }) {
  const q = useQuote(props.token, props.live);
  return <span data-testid="price">{q?.lastPrice ?? '–'}</span>;
}

const tick = (price: number, s: number, instrumentToken = 1) => ({
  instrumentToken,
  lastPrice: price,
  volume: 1,
  ts: `2026-11-23T10:00:0${s}+05:30`,
});

describe('useQuote', () => {
  it('out of view it holds the price it showed through ticks, and shows the latest once back in view', () => {
    const client = new QueryClient();
    const store = quotesStoreFor(client);
    const ui = (live: boolean) => (
      <QueryClientProvider client={client}>
        <Price token={1} live={live} />
      </QueryClientProvider>
    );
    const { rerender } = render(ui(true));
    act(() => {
      store.push([tick(410, 1)], 1_000, 'stream');
      store.flush();
    });
    expect(screen.getByTestId('price').textContent).toBe('410');
    rerender(ui(false));
    act(() => {
      store.push([tick(411, 2)], 2_000, 'stream');
      store.flush();
    });
    expect(screen.getByTestId('price').textContent).toBe('410');
    rerender(ui(true));
    expect(screen.getByTestId('price').textContent).toBe('411');
  });
});

/** A P&L figure over some instruments. */
function Pnl(props: { readonly tokens: readonly number[] }) {
  const quotes = useQuotesOf(props.tokens);
  const sum = props.tokens.reduce((a, t) => a + (quotes[t]?.lastPrice ?? 0), 0);
  return <span data-testid="sum">{sum}</span>;
}

describe('useQuotesOf', () => {
  it("draws again when one of its instruments ticks, and not for a tick of the watchlist's other instruments", () => {
    const client = new QueryClient();
    const store = quotesStoreFor(client);
    const renders = { n: 0 };
    render(
      <QueryClientProvider client={client}>
        <Profiler id="pnl" onRender={() => (renders.n += 1)}>
          <Pnl tokens={[2, 1]} />
        </Profiler>
      </QueryClientProvider>,
    );
    act(() => {
      store.push([tick(410, 1, 1), tick(100, 1, 2)], 1_000, 'stream');
      store.flush();
    });
    expect(screen.getByTestId('sum').textContent).toBe('510');
    const drawn = renders.n;
    act(() => {
      store.push([tick(900, 2, 3), tick(901, 3, 3), tick(50, 3, 4)], 2_000, 'stream');
      store.flush();
    });
    expect(renders.n).toBe(drawn);
    act(() => {
      store.push([tick(411, 4, 1)], 3_000, 'stream');
      store.flush();
    });
    expect(screen.getByTestId('sum').textContent).toBe('511');
  });
});

describe('useQuotesOf as its instruments change', () => {
  it('prices an instrument added later at once and at its ticks, and drops one no longer asked for', () => {
    const client = new QueryClient();
    const store = quotesStoreFor(client);
    const ui = (tokens: number[]) => (
      <QueryClientProvider client={client}>
        <Pnl tokens={tokens} />
      </QueryClientProvider>
    );
    const { rerender } = render(ui([1]));
    act(() => {
      store.push([tick(410, 1, 1), tick(100, 1, 2)], 1_000, 'stream');
      store.flush();
    });
    expect(screen.getByTestId('sum').textContent).toBe('410');
    // A new position in an instrument that had already ticked: its price counts at once.
    rerender(ui([2, 1]));
    expect(screen.getByTestId('sum').textContent).toBe('510');
    act(() => {
      store.push([tick(120, 2, 2)], 2_000, 'stream');
      store.flush();
    });
    expect(screen.getByTestId('sum').textContent).toBe('530');
    // An instrument first seen after it was asked for.
    rerender(ui([2, 1, 3]));
    act(() => {
      store.push([tick(7, 3, 3)], 3_000, 'stream');
      store.flush();
    });
    expect(screen.getByTestId('sum').textContent).toBe('537');
    // A position closed: what is left is priced, and keeps moving.
    rerender(ui([3]));
    expect(screen.getByTestId('sum').textContent).toBe('7');
    act(() => {
      store.push([tick(8, 4, 3), tick(999, 4, 1)], 4_000, 'stream');
      store.flush();
    });
    expect(screen.getByTestId('sum').textContent).toBe('8');
  });
});

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { quotesStoreFor } from './quotes-store';
import { useQuote } from './use-quotes';

function Price(props: { readonly token: number; readonly live: boolean }) {
  const q = useQuote(props.token, props.live);
  return <span data-testid="price">{q?.lastPrice ?? '–'}</span>;
}

const tick = (price: number, s: number) => ({
  instrumentToken: 1,
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

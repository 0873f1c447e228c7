import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, INFY, type FakeBridge } from '../../test/fake-bridge';
import { FirstScreenFirst } from '../layout/first-screen';
import { useInstruments } from './queries';

/**
 * The instrument universe, the page's largest reply after the book, is asked for once the main
 * window's first screen has painted (docs/live-data.md §The first screen first); a pop-out or a
 * panel on its own asks at once. The frames and timers are the test's own.
 */

let bridge: FakeBridge;

function Count() {
  return <p>{useInstruments().list.length} instruments</p>;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
  bridge = createFakeBridge({ 'instruments.list': () => ({ ok: true, data: [INFY] }) });
  setBridgeForTests(bridge);
});

afterEach(() => {
  setBridgeForTests(null);
  vi.useRealTimers();
});

describe('the instrument universe on the main window', () => {
  it('is asked for only after the first screen painted, and then shown', async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <FirstScreenFirst>
          <Count />
        </FirstScreenFirst>
      </QueryClientProvider>,
    );
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(bridge.callsOf('instruments.list')).toEqual([]);
    expect(screen.getByText('0 instruments')).toBeTruthy();

    await act(async () => {
      vi.advanceTimersToNextFrame(); // the first screen's frame; then the task queued after its paint
      await vi.advanceTimersByTimeAsync(0);
    });
    await vi.waitFor(() => expect(screen.getByText('1 instruments')).toBeTruthy());
    expect(bridge.callsOf('instruments.list')).toHaveLength(1);
  });

  it('is asked for at once outside it (a pop-out, a panel on its own)', async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Count />
      </QueryClientProvider>,
    );
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(bridge.callsOf('instruments.list')).toHaveLength(1);
  });
});

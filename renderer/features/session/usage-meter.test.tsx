import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BrokerUsage } from '@shared/domain/usage';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, type FakeBridge } from '../../test/fake-bridge';
import { useBridgeEvents } from './use-bridge-events';
import { UsageMeter } from './usage-meter';

const IDLE: BrokerUsage = {
  broker: 'Paper broker',
  windowMs: 30_000,
  requests: 3,
  perSecond: 0.1,
  peakPerSecond: 3,
  limit: { perSecond: 10, burst: 20 },
  limitSource: 'broker',
  pace: { perSecond: 8, burst: 16 },
};

let bridge: FakeBridge;

beforeEach(() => {
  bridge = createFakeBridge({
    'connection.usage': () => ({ ok: true, data: IDLE }),
    'connection.status': () => ({ ok: true, data: { rest: 'up', stream: 'open', detail: null } }),
  });
  setBridgeForTests(bridge);
});

afterEach(() => setBridgeForTests(null));

function Header() {
  useBridgeEvents();
  return <UsageMeter />;
}

describe('UsageMeter', () => {
  it('shows the desk’s request rate against the broker’s limit, with where the limit comes from on hover', async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Header />
      </QueryClientProvider>,
    );
    const meter = await screen.findByTestId('usage-meter');
    expect(meter.textContent).toBe('0.1 req/s of 10');
    expect(meter.getAttribute('title')).toBe(
      'Requests to Paper broker over the last 30 s: 3 (0.1 a second; busiest second: 3). ' +
        'Paper broker allows 10 a second, bursts of 20 (as it publishes in its replies). ' +
        'Tradedesk keeps itself to 8 a second, bursts of 16.',
    );
    expect(meter.className).not.toMatch(/usage-meter--high/);
  });

  it('follows main’s usage.changed pushes and turns amber past half the budget', async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Header />
      </QueryClientProvider>,
    );
    const meter = await screen.findByTestId('usage-meter');
    await act(async () => bridge.emit('usage.changed', { ...IDLE, requests: 180, perSecond: 6, peakPerSecond: 8 }));
    await waitFor(() => expect(meter.textContent).toBe('6 req/s of 10'));
    expect(meter.className).toMatch(/usage-meter--high/);
  });

  it('disappears when the session ends', async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Header />
      </QueryClientProvider>,
    );
    await screen.findByTestId('usage-meter');
    await act(async () =>
      bridge.emit('session.expired', { reason: 'The access token has expired', version: { run: 'r', seq: 9 } }),
    );
    await waitFor(() => expect(screen.queryByTestId('usage-meter')).toBeNull());
  });
});

import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { useSessionBannerActions } from '../../state/session-banner-store';
import { connectedSession, createFakeBridge, type FakeBridge } from '../../test/fake-bridge';
import { Banners } from './banners';
import { useLogin } from './queries';
import { useBridgeEvents } from './use-bridge-events';

let bridge: FakeBridge;

beforeEach(() => {
  bridge = createFakeBridge({
    'connection.status': () => ({ ok: true, data: { rest: 'up', stream: 'open', detail: null } }),
  });
  setBridgeForTests(bridge);
});

let run = 0;

afterEach(() => {
  setBridgeForTests(null);
  // A connected session from a later run of main ends any expiry this test raised.
  run += 1;
  const { result } = renderHook(() => useSessionBannerActions());
  act(() =>
    result.current.sessionSeen(
      connectedSession('paper', { userId: 'PAPER01', version: { run: `after-${run}`, seq: 1 } }),
    ),
  );
});

function renderBanners() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <Banners />
    </QueryClientProvider>,
  );
}

describe('Banners', () => {
  it('says the session expired, with the reason, and asks to log in once', () => {
    const { result } = renderHook(() => useSessionBannerActions());
    act(() => result.current.sessionExpired('The access token has expired; log in again', { run: 'r', seq: 2 }));
    renderBanners();
    expect(screen.getByRole('alert').textContent).toBe(
      'Session expired: The access token has expired. Log in again to continue.',
    );
  });

  it('says the broker connection is lost', async () => {
    bridge.answer('connection.status', () => ({
      ok: true,
      data: { rest: 'down', stream: 'closed', detail: 'ECONNREFUSED' },
    }));
    renderBanners();
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Connection to the broker lost: ECONNREFUSED/);
  });

  it('says the Tradedesk service itself is unreachable', async () => {
    bridge.answer('connection.status', () => ({ ok: false, error: { kind: 'network', message: 'socket closed' } }));
    renderBanners();
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Lost the connection to Tradedesk/);
  });

  it('shows nothing while all is well', async () => {
    renderBanners();
    await act(async () => {});
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps an expiry main reports while the login call is still on its way (the new session was refused at once)', async () => {
    const { result } = renderHook(() => useSessionBannerActions());
    act(() => result.current.sessionExpired('The access token has expired', { run: 'r', seq: 1 }));
    bridge.answer('session.login', () => {
      // Main's background work meets the refusal before the login's own answer has gone out.
      // Main numbered that expiry after the login it is answering (docs/session.md §Session
      // facts are ordered by main).
      bridge.emit('session.expired', { reason: 'The broker refused the new token', version: { run: 'r', seq: 3 } });
      return { ok: true, data: connectedSession('paper', { userId: 'PAPER01', version: { run: 'r', seq: 2 } }) };
    });
    let login: ReturnType<typeof useLogin> | null = null;
    function Desk() {
      useBridgeEvents();
      login = useLogin();
      return <Banners />;
    }
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Desk />
      </QueryClientProvider>,
    );
    await act(async () => {
      await login!.mutateAsync({ kind: 'paper' });
    });
    expect(screen.getByRole('alert').textContent).toMatch(/^Session expired: The broker refused the new token/);
  });
});

import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionInfo, SessionVersion } from '@shared/domain/session';
import type { IpcResult } from '@shared/ipc/result';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { bookOf, createFakeBridge, INFY, type FakeBridge } from '../../test/fake-bridge';
import { useInstruments } from '../instruments/queries';
import { SymbolCombobox } from '../ticket/symbol-combobox';
import { Banners } from './banners';
import { ConnectionStatus } from './connection-status';
import { SessionGate } from './session-dialog';
import { useBridgeEvents } from './use-bridge-events';

/**
 * Session facts reach the renderer over two paths — pushed events and call replies — that main
 * does not keep in step (docs/session.md §Session facts are ordered by main). These tests
 * deliver them in the orders the e2e met on a loaded machine and check what the trader sees.
 */

let bridge: FakeBridge;
/** Each test is its own run of main, so one test's facts cannot outrank the next test's. */
let run = 0;

const REASON = 'The access token has expired; log in again';

function version(seq: number): SessionVersion {
  return { run: `run-${run}`, seq };
}

function info(state: SessionInfo['state'], seq: number): SessionInfo {
  const on = state === 'connected';
  return {
    state,
    broker: 'paper',
    brokerLabel: 'Paper broker',
    userId: on ? 'PAPER01' : null,
    scope: on ? 'trade' : null,
    expiresAt: null,
    version: version(seq),
  };
}

const ok = <T,>(data: T): IpcResult<T> => ({ ok: true, data });
const unauthorized: IpcResult<never> = {
  ok: false,
  error: { kind: 'unauthorized', message: 'The access token has expired' },
};

/** What main answers now: the current status and whether reads are refused. */
let current: { status: SessionInfo; refused: boolean };

beforeEach(() => {
  run += 1;
  current = { status: info('connected', 1), refused: false };
  bridge = createFakeBridge({
    'session.status': () => ok(current.status),
    'connection.status': () => ok({ rest: 'up', stream: 'open', detail: null }),
    'orders.sync': () => (current.refused ? unauthorized : bookOf([])),
    'instruments.list': () => (current.refused ? unauthorized : ok([INFY])),
  });
  setBridgeForTests(bridge);
});

afterEach(() => setBridgeForTests(null));

/** The ticket's symbol search over the desk's instrument universe. */
function SymbolSearch() {
  const { list } = useInstruments();
  return <SymbolCombobox label="Symbol" instruments={list} value={undefined} onChoose={() => undefined} />;
}

function Desk() {
  useBridgeEvents();
  return (
    <>
      <ConnectionStatus />
      <Banners />
      <SessionGate />
      <SymbolSearch />
    </>
  );
}

function renderDesk(): QueryClient {
  const client = createQueryClient();
  render(
    <QueryClientProvider client={client}>
      <Desk />
    </QueryClientProvider>,
  );
  return client;
}

/** The session expires in main: the push, then main's status and reads say so. */
function expire(seq: number): void {
  current = { status: info('expired', seq), refused: true };
  act(() => {
    bridge.emit('session.expired', { reason: REASON, version: version(seq) });
    bridge.emit('session.changed', info('expired', seq));
  });
}

/** Lets react-query deliver what it batched (its notify scheduler is a zero-delay timeout) and React render it. */
const flush = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

const banner = () => screen.queryByRole('alert');
const statusLine = () => screen.getByRole('status').textContent;
const dialog = () => screen.queryByRole('dialog', { name: 'Log in to a broker' });

/** Starts on a connected desk whose session then expires (seq 2); the dialog is up. */
async function expiredDesk(): Promise<QueryClient> {
  const client = renderDesk();
  await waitFor(() => expect(bridge.callsOf('session.status').length).toBeGreaterThan(0));
  await flush();
  expire(2);
  expect(banner()?.textContent).toBe('Session expired: The access token has expired. Log in again to continue.');
  expect(dialog()).not.toBeNull();
  return client;
}

/** A login whose reply the test releases when it chooses. */
function holdLoginReply(): (reply: SessionInfo) => void {
  let release: (reply: SessionInfo) => void = () => undefined;
  bridge.answer('session.login', () => new Promise((resolve) => (release = (r) => resolve(ok(r)))));
  return (reply) => release(reply);
}

/** Logs in again, and it works: main closes the old core (3), connects (4) and then replies. */
async function logInAgain(): Promise<void> {
  const release = holdLoginReply();
  await userEvent.setup().click(within(dialog()!).getByRole('button', { name: 'Log in' }));
  current = { status: info('connected', 4), refused: false };
  act(() => {
    bridge.emit('session.changed', info('disconnected', 3));
    bridge.emit('session.changed', info('connected', 4));
  });
  await act(async () => release(info('connected', 4)));
  await waitFor(() => expect(dialog()).toBeNull());
}

describe('session facts in the order main made them, not the order they arrive', () => {
  it("the new session's expiry pushed before the login's reply keeps the banner and the dialog after the reply", async () => {
    await expiredDesk();
    const release = holdLoginReply();
    await userEvent.setup().click(within(dialog()!).getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(bridge.callsOf('session.login')).toHaveLength(1));

    // Main: old core closed (3), new login (4), the background work's 401 → re-login (5),
    // 401 again → expired (6) — all pushed before the login's reply (stamped 4) goes out.
    act(() => {
      bridge.emit('session.changed', info('disconnected', 3));
      bridge.emit('session.changed', info('connected', 4));
      bridge.emit('session.changed', info('connected', 5));
    });
    expire(6);
    await act(async () => release(info('connected', 4)));

    // The login settles (its button is back) and its refetches are answered...
    await waitFor(() =>
      expect(within(dialog()!).getByRole('button', { name: 'Log in' }).hasAttribute('disabled')).toBe(false),
    );
    await flush();
    // ...and the trader still sees why the desk is dead, and where to log in.
    expect(banner()?.textContent).toMatch(/^Session expired: /);
    expect(dialog()).not.toBeNull();
    expect(statusLine()).toBe('Not connected (Paper broker)');
  });

  it('an expiry of the old session delivered after the new login shows no banner and no dialog', async () => {
    await expiredDesk();
    await logInAgain();

    // The old session's expiry (2), held up on its way, lands after the new session's facts.
    act(() => bridge.emit('session.expired', { reason: REASON, version: version(2) }));
    act(() => bridge.emit('session.changed', info('expired', 2)));
    await flush();
    expect(banner()).toBeNull();
    expect(dialog()).toBeNull();
    expect(statusLine()).toMatch(/^Connected to Paper broker as PAPER01/);
  });

  it('a status reply main made before the expiry, delivered after it, does not say connected', async () => {
    const client = await expiredDesk();
    // A status read that main answered just before the expiry (seq 1) is delivered after it.
    let answer: (r: SessionInfo) => void = () => undefined;
    bridge.answer('session.status', () => new Promise((resolve) => (answer = (r) => resolve(ok(r)))));
    const before = bridge.callsOf('session.status').length;
    const refetch = client.refetchQueries({ queryKey: ['session', 'status'] });
    await waitFor(() => expect(bridge.callsOf('session.status')).toHaveLength(before + 1));
    await act(async () => {
      answer(info('connected', 1));
      await refetch;
    });
    await flush();
    expect(statusLine()).toBe('Not connected (Paper broker)');
    expect(dialog()).not.toBeNull();
    expect(banner()?.textContent).toMatch(/^Session expired: /);
  });

  it('a restarted Tradedesk service (a new run, counting from 1 again) is believed: its session clears the banner', async () => {
    await expiredDesk();
    run += 1; // the service restarted; its first login is seq 1 of the new run
    current = { status: info('connected', 1), refused: false };
    act(() => bridge.emit('session.changed', info('connected', 1)));
    await waitFor(() => expect(banner()).toBeNull());
    await waitFor(() => expect(dialog()).toBeNull());
  });

  it('a read asked of the old session and answered after the new login is asked again: the symbol search finds INFY', async () => {
    // The universe was still on its way when the session expired (main had queued it).
    let answerOld: (r: IpcResult<unknown>) => void = () => undefined;
    bridge.answer('instruments.list', () => new Promise((resolve) => (answerOld = resolve)));
    await expiredDesk();
    await waitFor(() => expect(bridge.callsOf('instruments.list')).toHaveLength(1));
    bridge.answer('instruments.list', () => (current.refused ? unauthorized : ok([INFY])));

    await logInAgain();
    // Only now does the old session's read come back: refused, as the old core was closed.
    await act(async () => answerOld(unauthorized));
    await flush();

    await userEvent.setup().type(screen.getByRole('combobox', { name: 'Symbol' }), 'INFY');
    await waitFor(() => expect(screen.getAllByRole('option')[0]?.textContent).toMatch(/^INFY NSE/));
  });
});

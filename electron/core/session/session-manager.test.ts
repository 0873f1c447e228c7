import { describe, expect, it } from 'vitest';
import type { SessionInfo } from '@shared/domain/session';
import type { Broker, SessionGrant } from '../../broker/broker';
import { MemoryVault } from './secret-vault';
import { SessionManager } from './session-manager';

/**
 * The session manager's own ordering rules. The broker here only logs in and out, and the test
 * decides when each login answers: the paper broker cannot hold one reply while it sends another.
 */

function grant(n: number): SessionGrant {
  return { accessToken: `token-${n}`, expiresAt: '2026-11-27T07:30:00+05:30', userId: 'PAPER01', scope: 'trade' };
}

/** A broker whose logins (and, with `holdLogout`, logout) wait until the test answers them. */
function heldBroker() {
  const waiting: Array<(g: SessionGrant) => void> = [];
  let issued = 0;
  let logoutDone: () => void = () => undefined;
  let holdLogout = false;
  const broker = {
    login: () => new Promise<SessionGrant>((resolve) => waiting.push(resolve)),
    logout: () => (holdLogout ? new Promise<void>((resolve) => (logoutDone = resolve)) : Promise.resolve()),
  } as unknown as Broker;
  return {
    broker,
    answerLogin: (): void => waiting.shift()!(grant(++issued)),
    pendingLogins: () => waiting.length,
    holdLogout: () => (holdLogout = true),
    answerLogout: () => logoutDone(),
  };
}

const CREDENTIALS = { apiKey: 'paper', apiSecret: 'secret' };

async function loggedIn() {
  const held = heldBroker();
  const changes: SessionInfo[] = [];
  const session = new SessionManager({ broker: 'paper', label: 'Paper broker', vaultKey: 'paper' }, new MemoryVault(), {
    onChanged: (i) => changes.push(i),
  });
  session.attach(held.broker);
  const login = session.login(CREDENTIALS);
  held.answerLogin();
  await login;
  return { ...held, session, changes };
}

describe('SessionManager', () => {
  it('a re-login still on its way when the trader logs out does not bring the session back', async () => {
    const { session, changes, answerLogin, pendingLogins } = await loggedIn();
    // A read met a 401: the re-login goes out; the logout happens before its answer.
    const renewed = session.renew('token-1');
    expect(pendingLogins()).toBe(1);
    await session.logout();
    answerLogin();

    expect(await renewed).toBeNull();
    expect(session.token()).toBeNull();
    expect(session.info().state).toBe('disconnected');
    expect(changes.at(-1)?.state).toBe('disconnected');
  });

  it('a 401 met while the logout is being sent starts no re-login', async () => {
    const { session, changes, answerLogin, pendingLogins, holdLogout, answerLogout } = await loggedIn();
    holdLogout();
    const logout = session.logout();
    const renewed = session.renew('token-1');
    answerLogout();
    await logout;
    const started = pendingLogins();
    if (started > 0) answerLogin();

    expect(started).toBe(0);
    expect(await renewed).toBeNull();
    expect(session.info().state).toBe('disconnected');
    expect(changes.at(-1)?.state).toBe('disconnected');
  });
});

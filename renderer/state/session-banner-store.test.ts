import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SessionInfo } from '@shared/domain/session';
import { useSessionBannerActions, useSessionExpired } from './session-banner-store';

/**
 * The expiry alert follows main's numbering of session facts (docs/session.md §Session facts
 * are ordered by main), whatever order they are handed to it in. Each test is its own run of
 * main, so one test's facts cannot outrank the next test's.
 */

let run = 0;
beforeEach(() => {
  run += 1;
});

function session(state: SessionInfo['state'], seq: number, r = `run-${run}`): SessionInfo {
  return {
    state,
    broker: 'paper',
    brokerLabel: 'Paper broker',
    userId: state === 'connected' ? 'PAPER01' : null,
    scope: state === 'connected' ? 'trade' : null,
    expiresAt: null,
    version: { run: r, seq },
  };
}

function alerts() {
  return renderHook(() => ({ actions: useSessionBannerActions(), expired: useSessionExpired() })).result;
}

describe('the session expiry alert', () => {
  it('raised by an expiry, ended by a connected session numbered after it', () => {
    const a = alerts();
    act(() => a.current.actions.sessionExpired('Token expired', { run: `run-${run}`, seq: 3 }));
    expect(a.current.expired).toBe('Token expired');
    act(() => a.current.actions.sessionSeen(session('disconnected', 4)));
    expect(a.current.expired).toBe('Token expired');
    act(() => a.current.actions.sessionSeen(session('connected', 5)));
    expect(a.current.expired).toBeNull();
  });

  it('an expiry numbered before a session already seen raises nothing (it would lie)', () => {
    const a = alerts();
    act(() => a.current.actions.sessionSeen(session('connected', 4)));
    act(() => a.current.actions.sessionExpired('Token expired', { run: `run-${run}`, seq: 2 }));
    expect(a.current.expired).toBeNull();
  });

  it('a connected session numbered before the expiry does not end it (the desk is dead)', () => {
    const a = alerts();
    act(() => a.current.actions.sessionExpired('Token expired', { run: `run-${run}`, seq: 6 }));
    act(() => a.current.actions.sessionSeen(session('connected', 4)));
    expect(a.current.expired).toBe('Token expired');
  });

  it("a restarted service's first session ends the alert though its count starts again", () => {
    const a = alerts();
    act(() => a.current.actions.sessionExpired('Token expired', { run: `run-${run}`, seq: 9 }));
    act(() => a.current.actions.sessionSeen(session('connected', 1, `run-${run}-restarted`)));
    expect(a.current.expired).toBeNull();
  });
});

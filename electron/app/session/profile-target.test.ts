import { describe, expect, it, vi } from 'vitest';
import { BROKER_URL_HTTPS_REQUIRED } from '@shared/domain/broker-url';
import { createDispatcher, type Handlers } from '../dispatcher';
import { AppError } from '@shared/ipc/app-error';
import type { BrokerProfile } from '@shared/domain/session';
import { storedProfile } from '../handlers/session-handlers';
import { resolveProfile, vaultKeyOf } from './profile-target';

/** Where a broker URL enters main: the `session.login` contract, and the profile resolver behind every entry. */

describe('broker URL at the session.login boundary', () => {
  it('refuses a plain-http remote URL as a bad_request naming profile.baseUrl, before the handler can log anyone out', async () => {
    const login = vi.fn();
    const dispatch = createDispatcher({ 'session.login': login } as unknown as Handlers);
    const res = await dispatch('session.login', {
      profile: { kind: 'rest', baseUrl: 'http://broker.example/v1', apiKey: 'k', apiSecret: 's' },
    });
    expect(res).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'profile.baseUrl' } });
    expect(res.ok ? '' : res.error.message).toContain(BROKER_URL_HTTPS_REQUIRED);
    expect(login).not.toHaveBeenCalled();
  });

  it('lets https and loopback http through to the handler', async () => {
    const login = vi.fn(async () => ({}));
    const dispatch = createDispatcher({ 'session.login': login } as unknown as Handlers);
    for (const baseUrl of ['https://broker.example/v1', 'http://127.0.0.1:8750/v1']) {
      await dispatch('session.login', { profile: { kind: 'rest', baseUrl, apiKey: 'k', apiSecret: 's' } });
    }
    expect(login).toHaveBeenCalledTimes(2);
  });
});

describe('resolveProfile', () => {
  it('refuses to target a plain-http remote broker whichever way the profile came in', () => {
    const run = () =>
      resolveProfile({ kind: 'rest', baseUrl: 'http://broker.example/v1', apiKey: 'k', apiSecret: 's' }, null);
    expect(run).toThrow(AppError);
    expect(run).toThrow(BROKER_URL_HTTPS_REQUIRED);
  });

  it('targets an https broker, labelled by its host', () => {
    const r = resolveProfile({ kind: 'rest', baseUrl: 'https://broker.example/v1', apiKey: 'k', apiSecret: 's' }, null);
    expect(r).toMatchObject({
      baseUrl: 'https://broker.example/v1',
      target: { broker: 'rest', label: 'broker.example' },
    });
  });

  it('still names the ledger of a remembered plain-http profile, so starting with one cannot crash the app', () => {
    const key = vaultKeyOf({ kind: 'rest', baseUrl: 'http://broker.example/v1', apiKey: 'k' });
    expect(key).toMatch(/^rest-[0-9a-f]{16}$/);
    expect(vaultKeyOf({ kind: 'rest', baseUrl: 'http://broker.example/v1', apiKey: 'other' })).not.toBe(key);
  });
});

describe('the broker registry', () => {
  it('saves every kind of profile without its secret or token', () => {
    const profiles: BrokerProfile[] = [
      { kind: 'paper' },
      { kind: 'rest', baseUrl: 'https://broker.example/v1', apiKey: 'k', apiSecret: 'CANARY-secret' },
      { kind: 'kite', apiKey: 'k', apiSecret: 'CANARY-secret', accessToken: 'CANARY-token' },
    ];
    for (const p of profiles) {
      const saved = JSON.stringify(storedProfile(p));
      expect(saved).not.toContain('CANARY');
      expect(saved).toContain(`"kind":"${p.kind}"`);
    }
  });

  it('connects each kind through its own adapter, labelled for the trader', () => {
    const kite = resolveProfile({ kind: 'kite', apiKey: 'k', accessToken: 't' }, null);
    expect(kite).toMatchObject({
      baseUrl: 'https://api.kite.trade',
      // Kite's own placement rule travels with the session to the ticket (docs/kite.md §Smaller rules).
      target: { broker: 'kite', label: 'Zerodha Kite', iocRefusedOn: ['MCX'] },
      credentials: { apiKey: 'k', apiSecret: '', accessToken: 't' },
    });
    const paper = resolveProfile({ kind: 'paper' }, 'http://127.0.0.1:8750/v1');
    expect(paper.target).toMatchObject({ broker: 'paper', label: 'Paper broker', vaultKey: 'paper' });
    expect(paper.target.iocRefusedOn).toBeUndefined();
    expect(kite.adapter).not.toBe(paper.adapter);
  });
});

import { describe, expect, it } from 'vitest';
import { BROKER_URL_HTTPS_REQUIRED } from '@shared/domain/broker-url';
import { AppError } from '@shared/ipc/app-error';
import type { BrokerProfile } from '@shared/domain/session';
import { BROKERS } from './broker-registry';
import { resolveProfile, vaultKeyOf } from './profile-target';

/** Where a broker URL enters main: the registry's judgment of every profile, and the resolver behind every entry. */

/** What the registry's judgment of `profile` refuses, as the bridge would answer it. */
function refusal(profile: BrokerProfile): AppError['info'] | null {
  try {
    BROKERS.judge(profile);
    return null;
  } catch (e) {
    if (e instanceof AppError) return e.info;
    throw e;
  }
}

const resolve = (profile: BrokerProfile, paperUrl: string | null) => resolveProfile(BROKERS.judge(profile), paperUrl);

describe('broker profiles judged by their kind in the registry', () => {
  it('refuses a plain-http remote URL as a bad_request naming profile.baseUrl', () => {
    const info = refusal({ kind: 'rest', baseUrl: 'http://broker.example/v1', apiKey: 'k', apiSecret: 's' });
    expect(info).toMatchObject({ kind: 'bad_request', field: 'profile.baseUrl' });
    expect(info?.message).toContain(BROKER_URL_HTTPS_REQUIRED);
  });

  it('lets https and loopback http through', () => {
    for (const baseUrl of ['https://broker.example/v1', 'http://127.0.0.1:8750/v1'])
      expect(refusal({ kind: 'rest', baseUrl, apiKey: 'k', apiSecret: 's' })).toBeNull();
  });

  it('names the field a kind refuses, and an unknown kind', () => {
    expect(refusal({ kind: 'kite', apiKey: 'k', marketProtection: 150, accessToken: 't' })).toMatchObject({
      field: 'profile.marketProtection',
    });
    expect(refusal({ kind: 'kite', apiKey: 'k' })).toMatchObject({ field: 'profile.apiSecret' });
    expect(refusal({ kind: 'rest', baseUrl: 'https://b.example', apiKey: 'k' })).toMatchObject({
      field: 'profile.apiSecret',
    });
    expect(refusal({ kind: 'nosuch' })).toMatchObject({ kind: 'bad_request', field: 'profile.kind' });
  });
});

describe('resolveProfile', () => {
  it('refuses to target a plain-http remote broker whichever way the profile came in', () => {
    const run = () =>
      resolveProfile(
        { entry: BROKERS.entry('rest')!, profile: { kind: 'rest', baseUrl: 'http://broker.example/v1', apiKey: 'k' } },
        null,
      );
    expect(run).toThrow(AppError);
    expect(run).toThrow(BROKER_URL_HTTPS_REQUIRED);
  });

  it('targets an https broker, labelled by its host', () => {
    const r = resolve({ kind: 'rest', baseUrl: 'https://broker.example/v1', apiKey: 'k', apiSecret: 's' }, null);
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
      const saved = JSON.stringify(BROKERS.stored(p));
      expect(saved).not.toContain('CANARY');
      expect(saved).toContain(`"kind":"${p.kind}"`);
    }
  });

  it('connects each kind through its own adapter, labelled for the trader', () => {
    const kite = resolve({ kind: 'kite', apiKey: 'k', accessToken: 't' }, null);
    expect(kite).toMatchObject({
      baseUrl: 'https://api.kite.trade',
      // Kite's own placement rule travels with the session to the ticket (docs/kite.md §Smaller rules).
      target: { broker: 'kite', label: 'Zerodha Kite', iocRefusedOn: ['MCX'] },
      credentials: { apiKey: 'k', apiSecret: '', accessToken: 't' },
    });
    const paper = resolve({ kind: 'paper' }, 'http://127.0.0.1:8750/v1');
    expect(paper.target).toMatchObject({ broker: 'paper', label: 'Paper broker', vaultKey: 'paper' });
    expect(paper.target.iocRefusedOn).toBeUndefined();
    expect(kite.adapter).not.toBe(paper.adapter);
  });
});

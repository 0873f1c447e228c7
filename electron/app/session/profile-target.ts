import { createHash } from 'node:crypto';
import type { BrokerProfile } from '../../../shared/domain/session';
import type { Credentials } from '../../broker/broker';
import type { SessionTarget } from '../../core/session/session-manager';

/** The embedded paper broker's fixed credentials (docs/api.md). */
export const PAPER_CREDENTIALS: Credentials = { apiKey: 'paper', apiSecret: 'paper' };

/** Where to connect and as whom, for one profile. */
export interface ResolvedProfile {
  readonly baseUrl: string;
  readonly target: SessionTarget;
  readonly credentials: Credentials;
}

/**
 * Turns a profile into a connection target.
 *
 * The vault key (which also names the account's intents ledger) is derived from the URL and
 * API key — never the secret — so two accounts never share a ledger or a remembered token.
 */
export function resolveProfile(profile: BrokerProfile, paperUrl: string | null): ResolvedProfile {
  if (profile.kind === 'paper') {
    if (!paperUrl) throw new Error('the embedded paper broker is not running');
    return {
      baseUrl: paperUrl,
      target: { broker: 'paper', label: 'Paper broker', vaultKey: 'paper' },
      credentials: PAPER_CREDENTIALS,
    };
  }
  const url = new URL(profile.baseUrl);
  const id = createHash('sha256').update(`${url.origin}${url.pathname}\n${profile.apiKey}`).digest('hex').slice(0, 16);
  return {
    baseUrl: profile.baseUrl,
    target: { broker: 'rest', label: url.host, vaultKey: `rest-${id}` },
    credentials: { apiKey: profile.apiKey, apiSecret: profile.apiSecret },
  };
}

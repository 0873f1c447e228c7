import { createHash } from 'node:crypto';
import { brokerUrlProblem } from '@shared/domain/broker-url';
import { KITE_API_ROOT, type BrokerProfile } from '@shared/domain/session';
import type { Credentials } from '../../broker/broker';
import type { SessionTarget } from '../../core/session/session-manager';
import { AppError } from '@shared/ipc/app-error';

/** The embedded paper broker's fixed credentials (docs/api.md). */
export const PAPER_CREDENTIALS: Credentials = { apiKey: 'paper', apiSecret: 'paper' };

/** Where to connect and as whom, for one profile. */
export interface ResolvedProfile {
  readonly baseUrl: string;
  readonly target: SessionTarget;
  readonly credentials: Credentials;
  /** The dialect `baseUrl` speaks. */
  readonly dialect: 'rest' | 'kite';
  /** Calls to the broker leave over IPv4 only (a Kite profile's setting: docs/kite.md §Static IP). */
  readonly ipv4Only?: boolean;
}

/**
 * The vault key of a profile, which also names its account's intents ledger.
 *
 * Derived from the URL and API key — never the secret — so two accounts never share a ledger or
 * a remembered token. It only names things, so it accepts any profile, even one whose URL the
 * app would now refuse to connect to (a remembered profile from before the https rule).
 */
export function vaultKeyOf(
  profile:
    | { readonly kind: 'paper' }
    | { kind: 'rest'; baseUrl: string; apiKey: string }
    | { kind: 'kite'; baseUrl?: string | undefined; apiKey: string },
) {
  if (profile.kind === 'paper') return 'paper';
  const url = new URL(profile.baseUrl ?? KITE_API_ROOT);
  return `${profile.kind}-${createHash('sha256').update(`${url.origin}${url.pathname}\n${profile.apiKey}`).digest('hex').slice(0, 16)}`;
}

/**
 * Turns a profile into a connection target: the last gate before a secret and a token are sent
 * anywhere, whichever way the profile came in (dialog, environment, command line, saved
 * settings). A remote broker must be https, or plain http on loopback only; anything else is a
 * `bad_request` naming `profile.baseUrl`, and nothing is sent. A Kite login that came back through
 * the redirect brings its `requestToken` (docs/architecture.md, "Kite login").
 */
export function resolveProfile(
  profile: BrokerProfile,
  paperUrl: string | null,
  requestToken?: string,
): ResolvedProfile {
  if (profile.kind === 'paper') {
    if (!paperUrl) throw new Error('the embedded paper broker is not running');
    return {
      baseUrl: paperUrl,
      target: { broker: 'paper', label: 'Paper broker', vaultKey: vaultKeyOf(profile) },
      credentials: PAPER_CREDENTIALS,
      dialect: 'rest',
    };
  }
  const baseUrl = profile.kind === 'kite' ? (profile.baseUrl ?? KITE_API_ROOT) : profile.baseUrl;
  const problem = brokerUrlProblem(baseUrl);
  if (problem) throw new AppError({ kind: 'bad_request', message: problem, field: 'profile.baseUrl' });
  if (profile.kind === 'kite') {
    const host = new URL(baseUrl).host;
    return {
      baseUrl,
      target: {
        broker: 'kite',
        label: baseUrl === KITE_API_ROOT ? 'Zerodha Kite' : `Kite (${host})`,
        vaultKey: vaultKeyOf(profile),
        // Kite refuses MARKET and SL-M without it: automatic unless the profile says (docs/kite.md §Market protection).
        marketProtection: profile.marketProtection ?? -1,
      },
      credentials: {
        apiKey: profile.apiKey,
        apiSecret: profile.apiSecret ?? '',
        ...(profile.accessToken !== undefined ? { accessToken: profile.accessToken } : {}),
        ...(requestToken !== undefined ? { requestToken } : {}),
      },
      dialect: 'kite',
      ...(profile.ipv4Only === true ? { ipv4Only: true } : {}),
    };
  }
  return {
    baseUrl,
    target: { broker: 'rest', label: new URL(baseUrl).host, vaultKey: vaultKeyOf(profile) },
    credentials: { apiKey: profile.apiKey, apiSecret: profile.apiSecret },
    dialect: 'rest',
  };
}

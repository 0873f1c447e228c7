import { createHash } from 'node:crypto';
import { brokerUrlProblem } from '@shared/domain/broker-url';
import type { StoredProfile } from '@shared/domain/session';
import type { BrokerAdapter } from '../../broker/adapter';
import type { Credentials } from '../../broker/broker';
import type { SessionTarget } from '../../core/session/session-manager';
import { AppError } from '@shared/ipc/app-error';
import type { JudgedProfile } from './broker-registry';

export { PAPER_CREDENTIALS } from './broker-registry';

/** Where to connect, as whom, and through which adapter, for one profile. */
export interface ResolvedProfile {
  readonly baseUrl: string;
  readonly target: SessionTarget;
  readonly credentials: Credentials;
  readonly adapter: BrokerAdapter;
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
export function vaultKeyOf(profile: StoredProfile, defaultUrl?: string): string {
  if (profile.kind === 'paper') return 'paper';
  const url = new URL(typeof profile.baseUrl === 'string' ? profile.baseUrl : (defaultUrl ?? ''));
  const apiKey = typeof profile.apiKey === 'string' ? profile.apiKey : '';
  return `${profile.kind}-${createHash('sha256').update(`${url.origin}${url.pathname}\n${apiKey}`).digest('hex').slice(0, 16)}`;
}

/**
 * Turns a profile into a connection target: the last gate before a secret and a token are sent
 * anywhere, whichever way the profile came in (dialog, environment, command line, saved
 * settings). A remote broker must be https, or plain http on loopback only; anything else is a
 * `bad_request` naming `profile.baseUrl`, and nothing is sent. A login that came back through
 * the redirect brings its `requestToken`, with the `redirectUrl` it was issued for (docs/session.md
 * §Login through the broker's page).
 */
export function resolveProfile(
  { entry: kind, profile }: JudgedProfile,
  paperUrl: string | null,
  requestToken?: string,
  redirectUrl?: string,
): ResolvedProfile {
  let baseUrl: string;
  if (profile.kind === 'paper') {
    if (!paperUrl) throw new Error('the embedded paper broker is not running');
    baseUrl = paperUrl;
  } else {
    baseUrl = profile.baseUrl ?? kind.defaultUrl ?? '';
    const problem = brokerUrlProblem(baseUrl);
    if (problem) throw new AppError({ kind: 'bad_request', message: problem, field: 'profile.baseUrl' });
  }
  const { marketProtection, ipv4Only, iocRefusedOn } = kind.settings?.(profile) ?? {};
  return {
    baseUrl,
    target: {
      broker: profile.kind,
      label: kind.label(new URL(baseUrl)),
      vaultKey: vaultKeyOf(profile as StoredProfile, kind.defaultUrl),
      ...(marketProtection !== undefined ? { marketProtection } : {}),
      ...(iocRefusedOn !== undefined ? { iocRefusedOn } : {}),
    },
    credentials: kind.credentials(profile, requestToken, redirectUrl),
    adapter: kind.adapter(profile),
    ...(ipv4Only === true ? { ipv4Only } : {}),
  };
}

import { StoredProfile, type BrokerProfile } from '@shared/domain/session';
import type { Handlers } from '../dispatcher';
import type { ActiveCore } from '../session/active-core';
import type { KiteLoginFlow } from '../session/kite-login';
import type { SettingsStore } from '../settings/settings-store';

/** A profile as saved on disk: where and who, never the secret nor a token (the schema drops them). */
export function storedProfile(profile: BrokerProfile): StoredProfile {
  return StoredProfile.parse(profile);
}

/**
 * `session.*`, `connection.status` and `connection.usage`: what the renderer may know and do
 * about the login and the link.
 *
 * Replies carry `SessionInfo` only — never the token or the secret. The chosen profile is
 * saved without its secret; the secret goes to the vault (persisted only on `remember`).
 */
export function sessionHandlers(
  active: ActiveCore,
  settings: SettingsStore,
  kiteLogin: KiteLoginFlow,
): Pick<
  Handlers,
  'session.status' | 'session.login' | 'session.kiteLogin' | 'session.logout' | 'connection.status' | 'connection.usage'
> {
  return {
    'session.status': async () => active.info(),
    'session.login': async ({ profile, remember }) => {
      const info = await active.login(profile, remember ?? false);
      await settings.update((s) => ({ ...s, profile: storedProfile(profile) }));
      return info;
    },
    'session.kiteLogin': async ({ profile, remember }) => kiteLogin.start(profile, remember ?? false),
    'session.logout': async () => active.logout(),
    'connection.status': async () => active.connection(),
    'connection.usage': async () => active.usage(),
  };
}

import type { Handlers } from '../dispatcher';
import type { ActiveCore } from '../session/active-core';
import type { SettingsStore } from '../settings/settings-store';

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
): Pick<Handlers, 'session.status' | 'session.login' | 'session.logout' | 'connection.status' | 'connection.usage'> {
  return {
    'session.status': async () => active.info(),
    'session.login': async ({ profile, remember }) => {
      const info = await active.login(profile, remember ?? false);
      await settings.update((s) => ({
        ...s,
        profile:
          profile.kind === 'paper'
            ? { kind: 'paper' }
            : { kind: 'rest', baseUrl: profile.baseUrl, apiKey: profile.apiKey },
      }));
      return info;
    },
    'session.logout': async () => active.logout(),
    'connection.status': async () => active.connection(),
    'connection.usage': async () => active.usage(),
  };
}

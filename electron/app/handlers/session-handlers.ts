import type { Handlers } from '../dispatcher';
import type { ActiveCore } from '../session/active-core';
import type { BrokerRegistry } from '../session/broker-registry';
import type { LoginPageFlow } from '../session/login-page';
import type { SettingsStore } from '../settings/settings-store';

/**
 * `brokers.list`, `session.*`, `connection.status` and `connection.usage`: what the renderer may
 * know and do about the brokers, the login and the link.
 *
 * Replies carry `SessionInfo` only — never the token or the secret. The chosen profile is
 * saved without its secrets (the fields its kind marks `secret`); they go to the vault (persisted
 * only on `remember`).
 */
export function sessionHandlers(
  active: ActiveCore,
  settings: SettingsStore,
  brokers: BrokerRegistry,
  loginPage: LoginPageFlow,
): Pick<
  Handlers,
  | 'brokers.list'
  | 'session.status'
  | 'session.login'
  | 'session.loginPage'
  | 'session.logout'
  | 'connection.status'
  | 'connection.usage'
> {
  return {
    'brokers.list': async () => brokers.descriptors(),
    'session.status': async () => active.info(),
    'session.login': async ({ profile, remember }) => {
      const info = await active.login(profile, remember ?? false);
      await settings.update((s) => ({ ...s, profile: brokers.stored(profile) }));
      return info;
    },
    'session.loginPage': async ({ profile, remember }) => loginPage.start(profile, remember ?? false),
    'session.logout': async () => active.logout(),
    'connection.status': async () => active.connection(),
    'connection.usage': async () => active.usage(),
  };
}

import type { Handlers } from '../dispatcher';
import type { ActiveCore } from '../session/active-core';
import { storedRisk, type SettingsStore } from '../settings/settings-store';

/**
 * `risk.*` and `safety.*`: the trader's safety net, kept and enforced in main (docs/contract.md
 * §Risk guard, §Kill switch). Limits are stored per profile in settings; the logged-in core's
 * guard applies them to every placement.
 */
export function safetyHandlers(
  active: ActiveCore,
  settings: SettingsStore,
): Pick<Handlers, 'risk.get' | 'risk.set' | 'safety.start' | 'safety.current' | 'safety.stop' | 'safety.rearm'> {
  return {
    'risk.get': async () => active.current().risk.state(),
    'risk.set': async ({ limits }) => {
      const core = active.current();
      const key = core.profileKey;
      await settings.update((s) => ({ ...s, risk: { ...s.risk, [key]: { ...storedRisk(s, key), limits } } }));
      core.risk.setLimits(limits);
      return core.risk.state();
    },
    'safety.start': async (action) => active.current().safety.start(action),
    'safety.current': async () => active.current().safety.current(),
    'safety.stop': async () => active.current().safety.stop(),
    'safety.rearm': async () => active.current().safety.rearm(),
  };
}

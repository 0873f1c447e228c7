import type { Handlers } from '../dispatcher';
import type { ActiveCore } from '../session/active-core';
import { storedRisk, type SettingsStore } from '../settings/settings-store';

/**
 * `risk.*`, `safety.*` and `mtm.*`: the trader's safety net, kept and enforced in main (docs/contract.md
 * §Risk guard, §Kill switch). Limits are stored per profile in settings; the logged-in core's
 * guard applies them to every placement.
 */
export function safetyHandlers(
  active: ActiveCore,
  settings: SettingsStore,
): Pick<
  Handlers,
  | 'risk.get'
  | 'risk.set'
  | 'safety.start'
  | 'safety.current'
  | 'safety.stop'
  | 'safety.rearm'
  | 'mtm.get'
  | 'mtm.set'
  | 'mtm.confirm'
  | 'mtm.dismiss'
> {
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
    'mtm.get': async () => active.current().mtm.state(),
    'mtm.set': async ({ settings: levels }) => {
      const core = active.current();
      const key = core.profileKey;
      await settings.update((s) => ({ ...s, mtm: { ...s.mtm, [key]: levels } }));
      core.mtm.setSettings(levels);
      return core.mtm.state();
    },
    'mtm.confirm': async () => active.current().mtm.confirm(),
    'mtm.dismiss': async () => active.current().mtm.dismiss(),
  };
}

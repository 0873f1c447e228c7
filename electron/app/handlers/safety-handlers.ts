import { AppError } from '@shared/ipc/app-error';
import type { AlertBook } from '../alerts/alert-book';
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
): Pick<Handlers, 'risk.get' | 'risk.set' | 'safety.start' | 'safety.current'> {
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
  };
}

/** `drift.*`: the reconciliation drift alarm, kept in main (docs/contract.md §Drift alarm). */
export function driftHandlers(
  active: ActiveCore,
): Pick<Handlers, 'drift.status' | 'drift.check' | 'drift.acknowledge'> {
  return {
    'drift.status': async () => active.current().drift.status(),
    'drift.check': async () => active.current().drift.check(),
    'drift.acknowledge': async ({ id }) => active.current().drift.acknowledge(id),
  };
}

/** `alerts.*`: price alerts, kept and evaluated in main (docs/contract.md §Price alerts). */
export function alertHandlers(
  active: ActiveCore,
  book: AlertBook,
): Pick<Handlers, 'alerts.list' | 'alerts.create' | 'alerts.update' | 'alerts.delete'> {
  return {
    'alerts.list': async () => {
      active.current();
      return book.list();
    },
    'alerts.create': async (draft) => {
      const [quote] = await active.current().broker.getQuotes([draft.instrumentToken]);
      if (!quote) {
        throw new AppError({
          kind: 'bad_request',
          message: 'The broker does not quote this instrument',
          field: 'instrumentToken',
        });
      }
      return book.create(draft, quote);
    },
    'alerts.update': async ({ id, change }) => {
      active.current();
      return book.update(id, change);
    },
    'alerts.delete': async ({ id }) => {
      active.current();
      await book.remove(id);
      return { deleted: true as const };
    },
  };
}

/** `gtt.*`: GTT orders, their rules applied in main before anything is sent (docs/gtt.md). */
export function gttHandlers(
  active: ActiveCore,
): Pick<Handlers, 'gtt.list' | 'gtt.place' | 'gtt.modify' | 'gtt.delete'> {
  return {
    'gtt.list': async () => [...(await active.current().gtt.list())],
    'gtt.place': async ({ gtt, requestId, riskOverride }) =>
      active.current().gtt.place(gtt, requestId, riskOverride ? 'override' : 'check'),
    'gtt.modify': async ({ gttId, changes, riskOverride }) =>
      active.current().gtt.modify(gttId, changes, riskOverride ? 'override' : 'check'),
    'gtt.delete': async ({ gttId }) => active.current().gtt.delete(gttId),
  };
}

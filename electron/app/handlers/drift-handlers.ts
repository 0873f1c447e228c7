import type { Handlers } from '../dispatcher';
import type { ActiveCore } from '../session/active-core';

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

import type { Handlers } from '../dispatcher';
import type { ActiveCore } from '../session/active-core';

/** `gtt.*`: GTT orders, their rules applied in main before anything is sent (docs/gtt.md). */
export function gttHandlers(
  active: ActiveCore,
): Pick<Handlers, 'gtt.list' | 'gtt.place' | 'gtt.modify' | 'gtt.delete'> {
  return {
    'gtt.list': async () => [...(await active.current().gtt.list())],
    'gtt.place': async ({ gtt, requestId, riskOverride }) =>
      active.current().gtt.place(gtt, requestId, riskOverride ? 'override' : 'check'),
    'gtt.modify': async ({ gttId, changes, requestId, riskOverride }) =>
      active.current().gtt.modify(gttId, changes, riskOverride ? 'override' : 'check', requestId),
    'gtt.delete': async ({ gttId }) => active.current().gtt.delete(gttId),
  };
}

import type { Handlers } from '../dispatcher';
import type { ActiveCore } from '../session/active-core';

/**
 * `brackets.*` and `market.volumeAtPrice` (docs/brackets.md, docs/ladder.md): brackets and
 * trailing stops kept by main, every order they send through the exactly-once order service.
 */
export function bracketHandlers(
  active: ActiveCore,
): Pick<Handlers, 'brackets.place' | 'brackets.list' | 'brackets.cancel' | 'market.volumeAtPrice'> {
  return {
    'brackets.place': async ({ request, requestId, clickedAt, riskOverride }) =>
      active.current().brackets.create(request, {
        ...(requestId !== undefined ? { requestId } : {}),
        ...(clickedAt !== undefined ? { clickedAt } : {}),
        risk: riskOverride ? 'override' : 'check',
      }),
    'brackets.list': async () => active.current().brackets.list(),
    'brackets.cancel': async ({ id }) => active.current().brackets.cancel(id),
    'market.volumeAtPrice': async ({ instrumentToken }) => {
      const v = active.current().volume.of(instrumentToken);
      return { since: v.since, levels: [...v.levels] };
    },
  };
}

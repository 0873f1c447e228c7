import type { KiteRoute } from '../context';
import { kiteHolding, kitePositions } from '../views';

/** Positions and holdings on the /kite dialect (docs/kite.md §Portfolio): the same account as /v1. */
export const portfolioRoutes: readonly KiteRoute[] = [
  {
    method: 'GET',
    path: '/portfolio/positions',
    kind: 'api',
    limit: 'default',
    handle({ state, now }) {
      state.engine.account.rollTo(now);
      return { data: kitePositions(state.engine.account.positions.values(), state.market, now) };
    },
  },
  {
    method: 'GET',
    path: '/portfolio/holdings',
    kind: 'api',
    limit: 'default',
    handle({ state, now }) {
      state.engine.account.rollTo(now);
      return { data: [...state.engine.account.holdings.values()].map((h) => kiteHolding(h, state.market, now)) };
    },
  },
];

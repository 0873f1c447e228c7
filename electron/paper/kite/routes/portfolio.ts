import { type KiteRoute, kiteApi } from '../context';
import { kiteHolding, kitePositions } from '../views';

/** Positions and holdings on the /kite dialect (docs/kite.md §Portfolio): the same account as /v1. */
export const portfolioRoutes: readonly KiteRoute[] = [
  kiteApi('GET', '/portfolio/positions', 'default', ({ state, now }) => {
    state.engine.account.rollTo(now);
    return kitePositions(state.engine.account.positions.values(), state.market, now);
  }),
  kiteApi('GET', '/portfolio/holdings', 'default', ({ state, now }) => {
    state.engine.account.rollTo(now);
    return [...state.engine.account.holdings.values()].map((h) => kiteHolding(h, state.market, now));
  }),
];

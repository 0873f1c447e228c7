import { type UpstoxRoute, ok } from '../context';
import { upstoxFunds, upstoxHolding, upstoxPositions } from '../views';

/** Positions, holdings and funds on the /upstox dialect (docs/upstox.md §Portfolio): the same account as /v1. */
export const portfolioRoutes: readonly UpstoxRoute[] = [
  {
    method: 'GET',
    path: '/v2/portfolio/short-term-positions',
    kind: 'api',
    limit: 'standard',
    handle({ state, now }) {
      state.engine.account.rollTo(now);
      return ok(upstoxPositions(state.engine.account.positions.values(), state.market, now));
    },
  },
  {
    method: 'GET',
    path: '/v2/portfolio/long-term-holdings',
    kind: 'api',
    limit: 'standard',
    handle({ state, now }) {
      state.engine.account.rollTo(now);
      return ok([...state.engine.account.holdings.values()].map((h) => upstoxHolding(h, state.market, now)));
    },
  },
  {
    method: 'GET',
    path: '/v2/user/get-funds-and-margin',
    kind: 'api',
    limit: 'standard',
    handle({ state, now }) {
      state.engine.account.rollTo(now);
      return ok(upstoxFunds(state.engine, state.market));
    },
  },
];

import { type UpstoxRoute, upstoxApi } from '../context';
import { upstoxFunds, upstoxHolding, upstoxPositions } from '../views';

/** Positions, holdings and funds on the /upstox dialect (docs/upstox.md §Portfolio): the same account as /v1. */
export const portfolioRoutes: readonly UpstoxRoute[] = [
  upstoxApi('GET', '/v2/portfolio/short-term-positions', 'standard', ({ state, now }) => {
    state.engine.account.rollTo(now);
    return upstoxPositions(state.engine.account.positions.values(), state.market, now);
  }),
  upstoxApi('GET', '/v2/portfolio/long-term-holdings', 'standard', ({ state, now }) => {
    state.engine.account.rollTo(now);
    return [...state.engine.account.holdings.values()].map((h) => upstoxHolding(h, state.market, now));
  }),
  upstoxApi('GET', '/v2/user/get-funds-and-margin', 'standard', ({ state, now }) => {
    state.engine.account.rollTo(now);
    return upstoxFunds(state.engine, state.market);
  }),
];

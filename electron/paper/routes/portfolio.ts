import { istDate } from '@shared/lib/ist-time';
import type { Route } from '../context';
import { wireFunds, wireHolding, wirePosition, wireTrade } from '../wire-views';

/** Fills, positions, holdings and funds: reads of the account, all with ETags. */
export const portfolioRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/trades',
    access: 'read',
    handle: ({ state }) => ({ status: 200, body: { trades: state.engine.trades().map(wireTrade) }, etag: true }),
  },
  {
    method: 'GET',
    path: '/positions',
    access: 'read',
    handle: ({ state, now }) => {
      // The day's positions: a read on a new IST day carries open ones over and drops flat ones.
      state.engine.account.rollTo(now);
      const day = istDate(now);
      const positions = [...state.engine.account.positions.values()].map((p) => wirePosition(p, state.market, day));
      return { status: 200, body: { positions }, etag: true };
    },
  },
  {
    method: 'GET',
    path: '/holdings',
    access: 'read',
    handle: ({ state, now }) => {
      // T+1: yesterday's delivery buys are holdings from today's first read.
      state.engine.account.rollTo(now);
      const holdings = [...state.engine.account.holdings.values()].map((h) => wireHolding(h, state.market));
      return { status: 200, body: { holdings }, etag: true };
    },
  },
  {
    method: 'GET',
    path: '/funds',
    access: 'read',
    handle: ({ state, now }) => {
      state.engine.account.rollTo(now);
      return { status: 200, body: { funds: wireFunds(state.engine, state.market) }, etag: true };
    },
  },
];

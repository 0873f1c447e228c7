import type { IncomingMessage } from 'node:http';
import { istDate } from '@shared/lib/ist-time';
import { Readable } from 'node:stream';
import { Account } from '../account';
import type { BrokerState, Ctx } from '../context';
import { Faults } from '../faults';
import type { PaperInstrument } from '../instruments';
import { Journal } from '../journal';
import { nextTradingDay } from '../calendar';
import { Market } from '../market';
import { MarketClock } from '../market-clock';
import { SessionKeeper } from '../session-keeper';
import { Engine } from '../matching';
import { GttBook } from '../gtt';
import { Problem } from '../problem';
import { Router } from '../router';
import { controlRoutes } from '../routes/control';
import { orderRoutes } from '../routes/orders';
import { portfolioRoutes } from '../routes/portfolio';
import { Sessions } from '../sessions';
import type { Api } from '../test-helpers';
import { ReplyHolds } from '../reply-holds';

/**
 * One way to talk to a paper broker: a method, a /v1 path and a JSON body in, a status and a
 * parsed body out; and the broker's clock, moved a day on to cross an IST midnight. The
 * property test runs the same command sequences through both drivers.
 */
export interface BrokerDriver {
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: DriverBody }>;
  nextDay(): Promise<void>;
}

/** A day in ms. */
export const DAY_MS = 24 * 60 * 60 * 1000;

/** Where both drivers' clocks start: a fixed trading day (Mon 23 Nov 2026, 11:00 IST), so the universe is the same on every run. */
export const START_MS = Date.UTC(2026, 10, 23, 5, 30);

/**
 * The same time of day on the next trading day (docs/api.md §Sessions and the calendar): what
 * "the IST day turns" means for a sequence — the session's close and the new day lie between.
 */
export function nextSessionDay(now: number): number {
  return now + (Date.parse(`${nextTradingDay(istDate(now))}T00:00:00Z`) - Date.parse(`${istDate(now)}T00:00:00Z`));
}

/** A clock a test moves by hand, for the broker's `clock` option. */
export interface TestClock {
  now: number;
}

/** A reply body as a test reads it (fields vary per endpoint; their shapes are asserted where they matter). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type DriverBody = any;

/**
 * Over the wire: the real server on a loopback port (test-helpers' client), started with
 * `clock: () => clock.now` (and a token lifetime longer than the days a sequence crosses).
 */
export function httpDriver(api: Api, clock: TestClock): BrokerDriver {
  return {
    async nextDay() {
      clock.now = nextSessionDay(clock.now);
    },
    async call(method, path, body) {
      // The control interface takes no token; everything else uses the test login.
      const r = await api.call(method, path, body, path.startsWith('/_control') ? { token: null } : {});
      return { status: r.status, body: r.body };
    },
  };
}

/** The routes the property test drives, compiled once (the router holds no state). */
const router = new Router([...orderRoutes, ...portfolioRoutes, ...controlRoutes]);

/**
 * In process: the broker's own order, portfolio and control route handlers over its own
 * market, engine and account, with no socket. Thousands of sequences fit a CI run this way.
 * Auth, rate limits and faults (the server pipeline) are not on this path; the HTTP run covers
 * them.
 */
export function inProcessDriver(instruments: readonly PaperInstrument[], startingCashUnits: number): BrokerDriver {
  // A clock only the test moves: replies carry it as timestamps, and positions keep its IST day.
  let now = START_MS;
  const market = new Market(instruments, 1, now);
  const engine = new Engine(market, new Account(startingCashUnits), { order() {}, trade() {} });
  market.onMoves((moves) => engine.onMoves(moves));
  // START_MS is inside every exchange's hours, so the market clock is the test's clock itself.
  const marketClock = new MarketClock(() => now);
  const state: BrokerState = {
    market,
    engine,
    orderReads: () => engine,
    gtt: new GttBook(engine, market, () => {}),
    sessions: new Sessions(60_000),
    faults: new Faults(1),
    journal: Journal.memory(),
    holds: new ReplyHolds(),
    startingCashUnits,
    clock: () => marketClock.now(),
    realClock: () => now,
    marketClock,
    keeper: new SessionKeeper(market, engine, now),
    uniqueClientIds: true,
    setStreamAccepting: () => 0, // no stream in process
  };
  return {
    async nextDay() {
      now = nextSessionDay(now);
    },
    async call(method, path, body) {
      // Split by hand: WHATWG URL parsing costs more than a whole matching step here.
      const q = path.indexOf('?');
      const pathname = q < 0 ? path : path.slice(0, q);
      const query = new URLSearchParams(q < 0 ? '' : path.slice(q + 1));
      const m = router.match(method, pathname);
      if (m.kind !== 'found') throw new Error(`no in-process route for ${method} ${path}`);
      // Only the handlers that take a body read the request; the reads skip building a stream.
      const req = (body === undefined
        ? { headers: {}, method, url: path }
        : Object.assign(Readable.from([Buffer.from(JSON.stringify(body))]), {
            headers: { 'content-type': 'application/json' },
            method,
            url: path,
          })) as unknown as IncomingMessage;
      // As the server does before every request: the closes and opens the clock passed happen first.
      state.keeper.advance(now);
      const ctx: Ctx = { req, state, params: m.params, query, session: null, now, realNow: now };
      try {
        const r = await m.route.handle(ctx);
        return { status: r.status, body: r.body };
      } catch (e) {
        if (e instanceof Problem) return { status: e.status, body: e.body() };
        throw e;
      }
    },
  };
}

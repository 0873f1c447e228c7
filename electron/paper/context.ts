import type { IncomingMessage } from 'node:http';
import type { Faults } from './faults';
import type { Reply } from './http-io';
import type { GttBook } from './gtt';
import type { Journal } from './journal';
import type { Market } from './market';
import type { OrderReads } from './order-book-lag';
import type { MarketClock } from './market-clock';
import type { SessionKeeper } from './session-keeper';
import type { Engine } from './matching';
import type { ReplyHolds } from './reply-holds';
import type { Session, Sessions } from './sessions';

/**
 * What a route handler gets: the request, its path parameters, the caller's session, and the
 * broker's state. Routes are plain functions of this, so each lives in its own small module.
 */

export interface BrokerState {
  readonly market: Market;
  readonly engine: Engine;
  /**
   * What order reads (GET /orders, an order, its history; /kite's too) see at real time
   * `realNow`: the engine itself, or with `orderbookLagMs` the engine that long ago (docs/api.md
   * §A lagging order book). Commands, the duplicate check and the stream use the engine.
   */
  readonly orderReads: (realNow: number) => OrderReads;
  /** The GTTs the broker stores and triggers (docs/api.md §GTT). */
  readonly gtt: GttBook;
  readonly sessions: Sessions;
  readonly faults: Faults;
  readonly journal: Journal;
  readonly startingCashUnits: number;
  /**
   * The market clock's epoch ms now (docs/api.md §Sessions and the calendar): what orders,
   * trades, candles and sessions are stamped and judged by.
   */
  readonly clock: () => number;
  /** Real epoch ms now (`Date.now` unless a test injects a clock): token lifetimes, rate limits. */
  readonly realClock: () => number;
  /** The market clock itself, for the status endpoint and the control interface. */
  readonly marketClock: MarketClock;
  /** Processes every session boundary the market clock has passed (call before acting at `now`). */
  readonly keeper: SessionKeeper;
  /**
   * Whether a reused `client_order_id` is refused with 409 (the default). False models a broker
   * whose order tag is not unique: the reuse becomes a second order.
   */
  readonly uniqueClientIds: boolean;
  /** Switches the stream off (cutting every socket, refusing upgrades) or on; returns the sockets cut. */
  readonly setStreamAccepting: (on: boolean) => number;
  /** Requests held at the door until a test releases them (docs/api.md §Holding replies). */
  readonly holds: ReplyHolds;
}

export interface Ctx {
  readonly req: IncomingMessage;
  readonly state: BrokerState;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The authenticated caller (null on public and control routes). */
  readonly session: Session | null;
  /** The market clock's time of this request. */
  readonly now: number;
  /** Real time of this request (token lifetimes). */
  readonly realNow: number;
}

/**
 * Who may call a route: `public` (POST /session), `read` (any valid token), `trade` (a token
 * with trade scope; read tokens get 403 before any state is looked at), `control` (only when
 * the control interface is enabled; no token, no faults, no limits).
 */
export type Access = 'public' | 'read' | 'trade' | 'control';

export interface Route {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** `/orders/:order_id` — relative to /v1. */
  readonly path: string;
  readonly access: Access;
  /** Also draw from the POST /orders bucket. */
  readonly ordersLimit?: boolean;
  readonly handle: (ctx: Ctx) => Reply | Promise<Reply>;
}

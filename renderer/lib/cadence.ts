/**
 * How often each account read is due, given what is known to be changing: a pure function, so
 * the whole table is unit-tested without a clock (docs/live-data.md, "Live data: polling,
 * the stream and ticks", The cadence).
 *
 * With a live stream every order change reaches the desk as a push within milliseconds, and the
 * desk reconciles at once after each one (and after every reconnect), so polling is only a safety
 * net: orders, positions and funds are re-read every 30 s and holdings every 2 min. Only while an
 * order is working or a placement is unconfirmed are orders re-read faster. Without a live stream
 * nothing pushes, and the desk polls as fast as it always did: about a second while orders are
 * working or the ticket is open, five seconds otherwise (the failure backoff on top of either is
 * `polling-policy.ts`'s).
 */

/** The broker reads the panels poll. */
export type PolledRead = 'orders' | 'positions' | 'funds' | 'holdings';

/** What the cadence looks at. */
export interface DeskState {
  /**
   * The broker's stream is open and has been heard from within its watchdog's window, as main
   * last reported it, and the link to main is up (so no push can have been missed).
   */
  readonly streamLive: boolean;
  /** Orders are working at the broker (open or trigger pending). */
  readonly workingOrders: boolean;
  /** A placement is not yet confirmed (main is still asking the broker about it). */
  readonly unconfirmed: boolean;
  /** The order ticket is open (a trader about to trade wants quick figures when nothing pushes). */
  readonly ticketOpen: boolean;
}

/** The knobs of the cadence (milliseconds). */
export interface CadencePolicy {
  /** No live stream, and something is moving (working orders, the ticket, an unconfirmed placement). */
  readonly busyMs: number;
  /** No live stream, nothing moving. */
  readonly idleMs: number;
  /** Live stream: the reconciling read of orders, positions and funds. */
  readonly liveMs: number;
  /** Live stream: holdings (they change only with a fill, which reconciles them at once). */
  readonly liveHoldingsMs: number;
  /** Live stream: orders while one is working or a placement is unconfirmed. */
  readonly liveWorkingOrdersMs: number;
}

/** The defaults: 1 s / 5 s without a stream; 30 s, 2 min, and 2 s for working orders with one. */
export const DEFAULT_CADENCE: CadencePolicy = {
  busyMs: 1_000,
  idleMs: 5_000,
  liveMs: 30_000,
  liveHoldingsMs: 120_000,
  liveWorkingOrdersMs: 2_000,
};

/** The base interval of one read in this state, before any failure backoff. */
export function cadenceMs(read: PolledRead, s: DeskState, policy: CadencePolicy = DEFAULT_CADENCE): number {
  const moving = s.workingOrders || s.unconfirmed;
  if (!s.streamLive) return moving || s.ticketOpen ? policy.busyMs : policy.idleMs;
  if (read === 'orders' && moving) return policy.liveWorkingOrdersMs;
  return read === 'holdings' ? policy.liveHoldingsMs : policy.liveMs;
}

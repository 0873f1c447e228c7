import type { Instrument } from '@shared/domain/instrument';
import { NO_RISK_LIMITS } from '@shared/domain/risk';
import { DEFAULT_SQUARE_OFF } from '@shared/trading/square-off-rules';
import { NO_MTM_SETTINGS } from '@shared/domain/mtm';
import type { Order, OrderBookDelta } from '@shared/domain/order';
import type { Placement } from '@shared/domain/placement';
import type { Funds } from '@shared/domain/portfolio';
import type { SessionInfo } from '@shared/domain/session';
import type { DeskBridge } from '@shared/ipc/bridge';
import type { RequestChannel } from '@shared/ipc/contract';
import type { IpcResult } from '@shared/ipc/result';
import { SHIPPED_BROKERS } from '@shared/domain/shipped-brokers';

/**
 * An in-memory bridge for component tests: each channel answers from a handler the test
 * supplies, every call is recorded, and events can be pushed as main would.
 */

/** One recorded bridge call. */
export interface BridgeCall {
  readonly channel: RequestChannel;
  readonly payload: unknown;
}

type Handler = (payload: unknown) => IpcResult<unknown> | Promise<IpcResult<unknown>>;

/** The fake bridge plus what a test needs to drive and inspect it. */
export interface FakeBridge extends DeskBridge {
  readonly calls: BridgeCall[];
  /** Replaces the answer of one channel. */
  answer(channel: RequestChannel, handler: Handler): void;
  /** Pushes an event to the renderer's listeners. */
  emit(event: string, payload: unknown): void;
  /** Calls made on one channel. */
  callsOf(channel: RequestChannel): BridgeCall[];
}

/** Channels every mounted component calls in passing; a test may still override them. */
const BACKGROUND: Partial<Record<RequestChannel, Handler>> = {
  'market.subscribe': (payload) => ({
    ok: true,
    data: { subscribed: (payload as { tokens: number[] }).tokens.length },
  }),
  'placements.list': () => ({ ok: true, data: [] }),
  'placements.records': () => ({ ok: true, data: { unreadable: null } }),
  'connection.usage': () => ({ ok: true, data: null }),
  // The session dialog's forms and the ticket's products (docs/brokers.md §The broker registry).
  'brokers.list': () => ({ ok: true, data: SHIPPED_BROKERS }),
  // The header's risk chip and alerts button (docs/contract.md §Risk guard, §Price alerts).
  'risk.get': () => ({
    ok: true,
    data: {
      limits: NO_RISK_LIMITS,
      status: { dayPnl: null, dailyLossLimit: null, reached: false, blocked: false, detail: null, asOf: 0 },
    },
  }),
  'alerts.list': () => ({ ok: true, data: [] }),
  // The main window's first screen, told to main once painted (docs/live-data.md §The first screen first).
  'desk.firstScreen': () => ({ ok: true, data: {} }),
  // The header's square-off, off (docs/desk.md §Square-off).
  'squareOff.get': () => ({
    ok: true,
    data: { settings: DEFAULT_SQUARE_OFF, phase: 'off', next: null, marketLeadMs: 0, last: null },
  }),
  // The header's MTM stop and target (docs/contract.md §Risk guard).
  'mtm.get': () => ({
    ok: true,
    data: {
      settings: NO_MTM_SETTINGS,
      status: {
        state: 'off',
        mtm: null,
        realised: null,
        unrealised: null,
        charges: null,
        stop: null,
        target: null,
        lockedAt: null,
        peak: null,
        why: null,
        trigger: null,
        asOf: 0,
      },
    },
  }),
  // The header's update notice: no feed (docs/architecture.md §Release).
  'updates.status': () => ({ ok: true, data: { kind: 'off' } }),
  // The header's drift warning (docs/contract.md §Drift alarm).
  'drift.status': () => ({
    ok: true,
    data: { findings: [], checking: false, checkedAt: null, failure: null, suspected: 0 },
  }),
};

/** Builds a fake bridge; other unanswered channels reply `internal` so a test notices them. */
export function createFakeBridge(handlers: Partial<Record<RequestChannel, Handler>> = {}): FakeBridge {
  const table = new Map<RequestChannel, Handler>(
    Object.entries({ ...BACKGROUND, ...handlers }) as Array<[RequestChannel, Handler]>,
  );
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const calls: BridgeCall[] = [];
  const bridge: FakeBridge = {
    calls,
    invoke: (async (channel: RequestChannel, payload?: unknown) => {
      calls.push({ channel, payload });
      const h = table.get(channel);
      if (!h) return { ok: false, error: { kind: 'internal', message: `no fake answer for ${channel}` } };
      return h(payload);
    }) as DeskBridge['invoke'],
    on: ((event: string, listener: (p: unknown) => void) => {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    }) as DeskBridge['on'],
    answer: (channel, handler) => table.set(channel, handler),
    emit: (event, payload) => listeners.get(event)?.forEach((l) => l(payload)),
    callsOf: (channel) => calls.filter((c) => c.channel === channel),
  };
  return bridge;
}

/** An equity on NSE: lot 1, tick 0.05. */
export const INFY: Instrument = {
  instrumentToken: 408065,
  exchange: 'NSE',
  tradingsymbol: 'INFY',
  name: 'INFOSYS',
  segment: 'NSE',
  instrumentType: 'EQ',
  lotSize: 1,
  tickSize: 0.05,
  freezeQuantity: 100_000,
  multiplier: 1,
  expiry: null,
  strike: null,
  lastPrice: 1500,
};

/** An index future on NFO: lot 75, tick 0.1, freeze 1,800. */
export const NIFTY_FUT: Instrument = {
  instrumentToken: 13238786,
  exchange: 'NFO',
  tradingsymbol: 'NIFTY26NOVFUT',
  name: 'NIFTY',
  segment: 'NFO-FUT',
  instrumentType: 'FUT',
  lotSize: 75,
  tickSize: 0.1,
  freezeQuantity: 1_800,
  multiplier: 1,
  expiry: '2026-11-26',
  strike: null,
  lastPrice: 24_512.3,
};

/** An index option on NFO (no SL-M). */
export const NIFTY_CE: Instrument = {
  instrumentToken: 13240066,
  exchange: 'NFO',
  tradingsymbol: 'NIFTY26NOV24500CE',
  name: 'NIFTY',
  segment: 'NFO-OPT',
  instrumentType: 'CE',
  lotSize: 75,
  tickSize: 0.05,
  freezeQuantity: 1_800,
  multiplier: 1,
  expiry: '2026-11-26',
  strike: 24_500,
  lastPrice: 182.4,
};

/** An intent in the unconfirmed list: BUY 1 INFY MARKET CNC, checking, journaled at `journaledAt`. */
export function placement(overrides: Partial<Placement> = {}): Placement {
  return {
    clientOrderId: 'td-0001',
    requestId: null,
    order: {
      exchange: 'NSE',
      tradingsymbol: 'INFY',
      transactionType: 'BUY',
      quantity: 1,
      orderType: 'MARKET',
      product: 'CNC',
      validity: 'DAY',
      price: null,
      triggerPrice: null,
    },
    state: 'checking',
    journaledAt: 1_790_000_000_000,
    settledAt: null,
    orderId: null,
    status: null,
    detail: '',
    ...overrides,
  };
}

/** The fake main's order book: one book, its cursor growing with each answer and push. */
const FAKE_BOOK = 'fake-book';
let fakeCursor = 0;

/** An `orders.sync` answer carrying these orders as the whole book (as main answers a page without a cursor). */
export function bookOf(orders: readonly Order[]): IpcResult<OrderBookDelta> {
  fakeCursor += 1;
  return { ok: true, data: { book: FAKE_BOOK, cursor: fakeCursor, full: true, upserts: [...orders], removals: [] } };
}

/** An `orders.changed` event pushing these orders, following on from the last answer or push. */
export function pushOf(...orders: Order[]): OrderBookDelta & { from: number } {
  const from = fakeCursor;
  fakeCursor += 1;
  return { book: FAKE_BOOK, from, cursor: fakeCursor, full: false, upserts: orders, removals: [] };
}

/** Funds with Indian-grouped figures, as the margin line and the funds panel show them. */
export function funds(): Funds {
  return {
    availableCash: 5_00_000,
    usedMargin: 0,
    availableMargin: 12_34_567.5,
    openingBalance: 5_00_000,
    realisedPnl: 0,
    unrealisedPnl: 0,
  };
}

/** What the session dialog calls each broker the tests log in to. */
const BROKER_LABELS: Readonly<Record<string, string>> = {
  paper: 'Paper broker',
  kite: 'Zerodha Kite',
  upstox: 'Upstox',
};

/** A connected trading session on `broker` (user AB1234, no expiry); `extra` changes any field. */
export function connectedSession(broker: SessionInfo['broker'], extra: Partial<SessionInfo> = {}): SessionInfo {
  return {
    state: 'connected',
    broker,
    brokerLabel: BROKER_LABELS[broker] ?? broker,
    userId: 'AB1234',
    scope: 'trade',
    expiresAt: null,
    version: { run: 'r', seq: 1 },
    ...extra,
  };
}

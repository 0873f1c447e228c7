import { describe, expect, it, vi } from 'vitest';
import type { DriftStatus } from '@shared/domain/drift';
import type { Order, Trade } from '@shared/domain/order';
import type { Position } from '@shared/domain/portfolio';
import { AppError } from '@shared/ipc/app-error';
import { anOrder } from '@shared/testing/order-fixtures';
import { positionOf as brokerPosition } from '@shared/testing/portfolio-fixtures';
import { DriftMonitor, type DriftMonitorDeps } from './drift-monitor';

/** 2026-11-23 10:31:00 IST. */
const START = Date.parse('2026-11-23T05:01:00Z');

/** An order placed outside the desk (no client reference of its own). */
function outsideOrder(orderId: string): Order {
  return anOrder({ orderId });
}

/** A broker whose lists the test sets, a clock and a timer the test moves by hand. */
function rig(
  seenFilled: (orderId: string) => number | undefined = () => undefined,
  login: Pick<DriftMonitorDeps, 'firstScreen' | 'firstScreenWaitMs'> = {},
) {
  const broker = {
    orders: [] as Order[],
    trades: [] as Trade[],
    positions: [] as Position[],
    down: false,
    listOrders: async () => {
      if (broker.down) throw new AppError({ kind: 'network', message: 'the broker did not answer' });
      return broker.orders;
    },
    listTrades: async () => broker.trades,
    listPositions: async () => broker.positions,
    listGtts: async () => [],
    /** The broker's market clock: its trading day. */
    day: '2026-11-23',
    marketStatus: async () => ({
      now: `${broker.day}T10:31:00+05:30`,
      simulated: true,
      speed: 1,
      exchanges: [],
    }),
  };
  let now = START;
  const timers: Array<{ at: number; fire: () => void; live: boolean }> = [];
  const changes: DriftStatus[] = [];
  const monitor = new DriftMonitor({
    broker,
    desk: { seenFilled },
    now: () => now,
    setTimer: (fire, ms) => {
      const t = { at: now + ms, fire, live: true };
      timers.push(t);
      return () => (t.live = false);
    },
    onChange: (s) => changes.push(s),
    everyMs: 60_000,
    confirmAfterMs: 5_000,
    ...login,
  });
  /** Moves the clock to the next live timer and fires it; answers how far it moved. */
  const nextTimer = async (): Promise<number> => {
    const live = timers.filter((t) => t.live).sort((a, b) => a.at - b.at)[0];
    if (!live) throw new Error('no timer armed');
    live.live = false;
    const moved = live.at - now;
    now = live.at;
    live.fire();
    await monitor.check();
    return moved;
  };
  return { broker, monitor, changes, nextTimer, advance: (ms: number) => (now += ms) };
}

describe('DriftMonitor: a difference is raised only when it persists, and stays until resolved or acknowledged', () => {
  it('an outside order seen once is suspected, re-checked 5 s later, raised, then re-checked every minute', async () => {
    const { broker, monitor, nextTimer } = rig();
    broker.orders = [outsideOrder('260000000001')];
    monitor.start();
    // The answer is the status after the check: not "checking" any more.
    expect(await monitor.check()).toMatchObject({ findings: [], suspected: 1, failure: null, checking: false });
    expect(await nextTimer()).toBe(5_000);
    const raised = monitor.status();
    expect(raised.findings.map((f) => f.message)).toEqual([
      'Order 260000000001 for SBIN (BUY 10) was placed outside Tradedesk',
    ]);
    expect(raised).toMatchObject({ suspected: 0, checkedAt: START + 5_000 });
    expect(raised.findings[0]).toMatchObject({ firstSeenAt: START, lastSeenAt: START + 5_000 });
    expect(await nextTimer()).toBe(60_000);
    expect(monitor.status().findings).toHaveLength(1);
  });

  it('a difference that is gone on the confirming check is never raised (a race between two reads)', async () => {
    const { broker, monitor, nextTimer } = rig();
    broker.orders = [outsideOrder('260000000002')];
    monitor.start();
    await monitor.check();
    broker.orders = [];
    await nextTimer();
    expect(monitor.status()).toMatchObject({ findings: [], suspected: 0 });
  });

  it('a raised finding is resolved by a later check that no longer sees the drift', async () => {
    const { broker, monitor, nextTimer } = rig();
    broker.orders = [outsideOrder('260000000003')];
    monitor.start();
    await monitor.check();
    await nextTimer();
    expect(monitor.status().findings).toHaveLength(1);
    broker.orders = [];
    await nextTimer();
    expect(monitor.status().findings).toEqual([]);
  });

  it('an acknowledged finding leaves the list and is not raised again while the same drift persists', async () => {
    const { broker, monitor, nextTimer } = rig();
    broker.orders = [outsideOrder('260000000004')];
    monitor.start();
    await monitor.check();
    await nextTimer();
    const [finding] = monitor.status().findings;
    expect(monitor.acknowledge(finding!.id).findings).toEqual([]);
    await nextTimer();
    await nextTimer();
    expect(monitor.status()).toMatchObject({ findings: [], suspected: 0 });
    // A new order placed elsewhere is a new finding.
    broker.orders = [outsideOrder('260000000004'), outsideOrder('260000000005')];
    await nextTimer();
    await nextTimer();
    expect(monitor.status().findings.map((f) => f.orderId)).toEqual(['260000000005']);
  });

  it('acknowledging an id that is not listed is a bad_request naming the field', () => {
    const { monitor } = rig();
    expect(() => monitor.acknowledge('outside_order:nope')).toThrow(
      expect.objectContaining({ info: expect.objectContaining({ kind: 'bad_request', field: 'id' }) }),
    );
  });

  it('a check that cannot read the broker says "could not check at" its time and keeps the findings', async () => {
    const { broker, monitor, nextTimer, advance } = rig();
    broker.orders = [outsideOrder('260000000006')];
    monitor.start();
    await monitor.check();
    await nextTimer();
    const before = monitor.status();
    broker.down = true;
    broker.orders = [];
    advance(1_000);
    const after = await monitor.check();
    expect(after.failure).toBe('Could not check at 10:31 IST: the broker did not answer');
    expect(after.findings).toEqual(before.findings);
    expect(after.checkedAt).toBe(before.checkedAt);
  });

  it('a fill the book never saw is raised; once the book holds it the finding resolves', async () => {
    const book: { filled?: number } = {};
    const { broker, monitor: m } = rig(() => book.filled);
    m.journaled('td-x');
    broker.orders = [{ ...outsideOrder('260000000007'), clientOrderId: 'td-x', tradingsymbol: 'INFY' }];
    const fill: Trade = {
      tradeId: 'f1',
      orderId: '260000000007',
      exchange: 'NSE',
      tradingsymbol: 'INFY',
      instrumentToken: 2,
      transactionType: 'BUY',
      product: 'MIS',
      quantity: 50,
      price: 1500,
      filledAt: '2026-11-23T10:30:00+05:30',
    };
    broker.trades = [fill];
    broker.positions = [];
    await m.check();
    await m.check();
    expect(m.status().findings.map((f) => f.message)).toEqual([
      "Fill of 50 INFY on order 260000000007 not seen by Tradedesk (broker's trades: 50 filled; Tradedesk saw 0)",
      'INFY (MIS) position: broker says 0, fills add up to 50',
    ]);
    book.filled = 50;
    broker.positions = [{ ...positionOf('INFY', 50) }];
    await m.check();
    expect(m.status().findings).toEqual([]);
  });

  it("the day's first read fixes the opening positions: fills then count from them, and a carried quantity that appears later does not add up", async () => {
    const { broker, monitor, advance } = rig();
    broker.positions = [{ ...positionOf('RELIANCE', 30), overnightQuantity: 30 }];
    await monitor.check();
    await monitor.check();
    expect(monitor.status()).toMatchObject({ findings: [], suspected: 0 });
    // Sold 20 during the day: 30 − 20 = 10, as the broker says.
    broker.trades = [
      {
        tradeId: 'f2',
        orderId: '260000000009',
        exchange: 'NSE',
        tradingsymbol: 'RELIANCE',
        instrumentToken: 2,
        transactionType: 'SELL',
        product: 'MIS',
        quantity: 20,
        price: 1500,
        filledAt: '2026-11-23T10:40:00+05:30',
      },
    ];
    monitor.journaled('td-y');
    broker.orders = [{ ...outsideOrder('260000000009'), clientOrderId: 'td-y', tradingsymbol: 'RELIANCE' }];
    broker.positions = [{ ...positionOf('RELIANCE', 10), overnightQuantity: 30 }];
    const afterSale = await monitor.check();
    expect(afterSale.findings.filter((f) => f.kind === 'position')).toEqual([]);
    // A position the first read did not have, now said to be carried in: nothing adds up to it.
    broker.positions.push({ ...positionOf('TCS', 5), overnightQuantity: 5 });
    advance(1_000);
    await monitor.check();
    advance(1_000);
    await monitor.check();
    expect(
      monitor
        .status()
        .findings.filter((f) => f.kind === 'position')
        .map((f) => f.message),
    ).toEqual(['TCS (MIS) position: broker says 5, fills add up to 0']);
  });

  it("a new trading day at the broker (its market clock) re-reads the opening positions and stops looking for the last day's orders", async () => {
    const { broker, monitor, advance } = rig((id) => (id === '260000000010' ? 10 : undefined));
    const fill: Trade = {
      tradeId: 'f3',
      orderId: '260000000010',
      exchange: 'NSE',
      tradingsymbol: 'TCS',
      instrumentToken: 2,
      transactionType: 'BUY',
      product: 'NRML',
      quantity: 10,
      price: 3000,
      filledAt: '2026-11-23T10:30:00+05:30',
    };
    const ordered = { ...outsideOrder('260000000010'), clientOrderId: 'td-z', tradingsymbol: 'TCS' };
    monitor.placed({
      orderId: '260000000010',
      clientOrderId: 'td-z',
      exchange: 'NSE',
      tradingsymbol: 'TCS',
      at: START - 1,
    });
    broker.orders = [{ ...ordered, status: 'COMPLETE', filledQuantity: 10, pendingQuantity: 0 }];
    broker.trades = [fill];
    broker.positions = [{ ...positionOf('TCS', 10), product: 'NRML' }];
    await monitor.check();
    expect(await monitor.check()).toMatchObject({ findings: [], suspected: 0 });

    // The next day: the position is carried in (10 overnight), yesterday's fill still listed, yesterday's order gone.
    broker.day = '2026-11-24';
    broker.orders = [];
    broker.positions = [{ ...positionOf('TCS', 10), product: 'NRML', overnightQuantity: 10 }];
    advance(60_000);
    await monitor.check();
    advance(5_000);
    expect(await monitor.check()).toMatchObject({ findings: [], suspected: 0 });
  });
});

/** A position bought today at 1,500. */
function positionOf(tradingsymbol: string, quantity: number): Position {
  return brokerPosition({
    tradingsymbol,
    instrumentToken: 2,
    quantity,
    averagePrice: 1500,
    closePrice: 1500,
    lastPrice: 1500,
    buyQuantity: quantity,
    buyValue: quantity * 1500,
    dayBuyQuantity: quantity,
    dayBuyValue: quantity * 1500,
  });
}

describe("DriftMonitor: the login's check waits for the desk's first screen (docs/live-data.md §The first screen first)", () => {
  it('reads nothing until the main window says its first screen is drawn, a stream opening meanwhile neither; then checks', async () => {
    let drawn!: () => void;
    const { broker, monitor } = rig(undefined, { firstScreen: new Promise<void>((r) => (drawn = r)) });
    broker.orders = [outsideOrder('260000000009')];
    let reads = 0;
    const listOrders = broker.listOrders;
    broker.listOrders = async () => ((reads += 1), listOrders());
    monitor.start();
    monitor.streamOpened();
    await new Promise((r) => setImmediate(r));
    expect(reads).toBe(0);
    expect(monitor.status()).toMatchObject({ checking: false, checkedAt: null, suspected: 0 });

    drawn();
    await vi.waitFor(() => expect(monitor.status()).toMatchObject({ checkedAt: START, suspected: 1 }));
    expect(reads).toBe(1);
  });

  it('a desk whose window never says so checks once the wait is over', async () => {
    const { monitor, nextTimer } = rig(undefined, {
      firstScreen: new Promise<void>(() => undefined),
      firstScreenWaitMs: 5_000,
    });
    monitor.start();
    expect(monitor.status().checkedAt).toBeNull();
    expect(await nextTimer()).toBe(5_000);
    expect(monitor.status().checkedAt).toBe(START + 5_000);
  });

  it('once the login check ran, a stream opening again checks at once (a reconnect)', async () => {
    const { broker, monitor } = rig(undefined, { firstScreen: Promise.resolve() });
    monitor.start();
    await vi.waitFor(() => expect(monitor.status().checkedAt).toBe(START));
    broker.orders = [outsideOrder('260000000010')];
    monitor.streamOpened();
    await vi.waitFor(() => expect(monitor.status().suspected).toBe(1));
  });
});

import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Order, OrderRequest } from '@shared/domain/order';
import type { Position } from '@shared/domain/portfolio';
import type { SafetyRun } from '@shared/domain/safety-run';
import { INFY_MARKET_BUY } from '@shared/testing/order-fixtures';
import { startKiteTest, type KiteTest } from '../paper/kite/test-kite';
import { findInstrument } from '../paper/test-helpers';
import type { Dialect } from '../core/testing/dialects';
import { restingBuy } from '../core/testing/core-fixture';
import { createAppServices, type AppServices } from './app-services';
import { createDispatcher, type Dispatch } from './dispatcher';

/**
 * The kill switch knows the positions, or says it does not (docs/contract.md §Kill switch),
 * through the bridge against the real paper broker on both dialects, with every read throttled
 * (`read_rate_limit=1`, Retry-After 30 s): a position filled after main's last positions read,
 * and one opened outside the desk, are exited from main's known positions and the run is done
 * only once the broker is flat; when main cannot know, the run says so and never "nothing".
 */

const STORM = 'read_rate_limit=1,retry_after_s=30';

interface Rig {
  t: KiteTest;
  services: AppServices;
  dispatch: Dispatch;
  dir: string;
  runs: SafetyRun[];
}

let rig: Rig | null = null;

afterEach(async () => {
  if (!rig) return;
  rig.t.api.broker.setFaults({});
  await rig.services.close();
  await rig.t.close();
  await rm(rig.dir, { recursive: true, force: true });
  rig = null;
});

/** An access token the way a trader gets one outside the app (Kite's page, then the exchange). */
async function accessToken(t: KiteTest): Promise<string> {
  const rt = (await t.loginRedirect()).searchParams.get('request_token') ?? '';
  const checksum = createHash('sha256').update(`paper${rt}paper`).digest('hex');
  const r = await fetch(`${t.root}/session/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ api_key: 'paper', request_token: rt, checksum }).toString(),
  });
  return ((await r.json()) as { data: { access_token: string } }).data.access_token;
}

/** The app's main process on `dialect` of one paper broker, its stream open and its book read. */
async function startRig(dialect: Dialect, opts: Parameters<typeof startKiteTest>[0] = {}): Promise<Rig> {
  const t = await startKiteTest(opts);
  const dir = await mkdtemp(join(tmpdir(), 'td-ks-'));
  const broker =
    dialect === 'rest'
      ? { brokerUrl: t.api.broker.url, apiKey: 'paper', apiSecret: 'paper' }
      : { brokerUrl: t.root, broker: 'kite' as const, apiKey: 'paper', accessToken: await accessToken(t) };
  const services = await createAppServices({ dataDir: dir, ...broker, core: { rate: null } });
  const dispatch = createDispatcher(services.handlers, () => undefined);
  const runs: SafetyRun[] = [];
  services.events.on('safety.progress', (r) => runs.push(r));
  rig = { t, services, dispatch, dir, runs };
  await vi.waitFor(async () => {
    expect(await dispatch('connection.status', undefined)).toMatchObject({ ok: true, data: { stream: 'open' } });
    expect(await dispatch('orders.sync', {})).toMatchObject({ ok: true });
  });
  return rig;
}

async function data<T>(r: Rig, channel: Parameters<Dispatch>[0], payload?: unknown): Promise<T> {
  const reply = await r.dispatch(channel, payload);
  if (!reply.ok) throw new Error(`${channel}: ${reply.error.message}`);
  return reply.data as T;
}

/** The desk's own MARKET BUY, placed through the bridge. */
async function deskBuys(r: Rig, tradingsymbol: string, quantity: number): Promise<string> {
  const outcome = await data<{ state: string; orderId: string }>(r, 'orders.place', {
    order: { ...INFY_MARKET_BUY, tradingsymbol, quantity },
  });
  expect(outcome.state).toBe('placed');
  return outcome.orderId;
}

/** Waits until main's book (over the bridge) shows each order filled: the stream pushed it. */
async function seenFilled(r: Rig, count: number): Promise<void> {
  await vi.waitFor(async () => {
    const sync = await data<{ upserts: Order[] }>(r, 'orders.sync', {});
    expect(sync.upserts.filter((o) => o.status === 'COMPLETE')).toHaveLength(count);
  });
}

/** The broker's positions, read in a lull of the storm (the run is over). */
async function brokerPositions(r: Rig): Promise<Array<[string, number]>> {
  r.t.api.broker.setFaults({});
  const list = await data<Position[]>(r, 'positions.list');
  return list.filter((p) => p.quantity !== 0).map((p) => [p.tradingsymbol, p.quantity]);
}

/**
 * Main reads the positions (flat), then the desk buys 25 RELIANCE and 10 TCS are bought outside
 * the desk (another app); once main's book shows both filled, every read is throttled.
 */
async function twoPositionsThenStorm(dialect: Dialect): Promise<Rig> {
  const r = await startRig(dialect);
  expect(await data<Position[]>(r, 'positions.list')).toEqual([]);
  await deskBuys(r, 'RELIANCE', 25);
  expect((await r.t.api.place({ tradingsymbol: 'TCS', quantity: 10 })).status).toBe(201);
  await seenFilled(r, 2);
  r.t.api.broker.setFaults(STORM);
  return r;
}

async function ended(r: Rig): Promise<SafetyRun> {
  await vi.waitFor(() => expect(r.runs.at(-1)?.state).not.toBe('running'), { timeout: 20_000 });
  return r.runs.at(-1) as SafetyRun;
}

describe.each<[string, Dialect]>([
  ['REST adapter on /v1', 'rest'],
  ['Kite adapter on /kite', 'kite'],
])('the kill switch and the positions under read throttling: %s', (_name, dialect) => {
  it('a position filled after main’s last read and one opened outside the desk are both exited, and the run is done only when the broker is flat', async () => {
    const r = await twoPositionsThenStorm(dialect);
    await data(r, 'safety.start', { kind: 'killSwitch', exitPositions: true });
    const run = await ended(r);

    expect(
      run.steps.filter((s) => s.kind === 'exit').map((s) => [s.tradingsymbol, s.transactionType, s.quantity, s.state]),
    ).toEqual(
      expect.arrayContaining([
        ['RELIANCE', 'SELL', 25, 'done'],
        ['TCS', 'SELL', 10, 'done'],
      ]),
    );
    expect(run.state).toBe('done');
    expect(run.detail).toBe('No working orders, 2 of 2 exit orders placed — nothing is left open');
    expect(run.stillOpen).toMatchObject({ positions: [], positionsUnknownSince: null });
    expect(await brokerPositions(r)).toEqual([]);
  });

  it('"Exit selected" shares it: the position filled after main’s last read is exited and the run is done once it is flat', async () => {
    const r = await twoPositionsThenStorm(dialect);
    await data(r, 'safety.start', {
      kind: 'exitPositions',
      positions: [{ exchange: 'NSE', tradingsymbol: 'RELIANCE', product: 'MIS' }],
    });
    const run = await ended(r);

    expect(run.steps.map((s) => [s.kind, s.tradingsymbol, s.transactionType, s.quantity, s.state])).toEqual([
      ['exit', 'RELIANCE', 'SELL', 25, 'done'],
    ]);
    expect(run.state).toBe('done');
    expect(run.barrierUp).toBe(false);
    expect(await brokerPositions(r)).toEqual([['TCS', 10]]);
  });

  it('when the positions cannot be known, the run says "Positions unknown" with since when, keeps trying until Stop, and never says nothing is open', async () => {
    const r = await startRig(dialect);
    // No positions read has ever succeeded: main does not know what is held, only what it bought.
    await deskBuys(r, 'RELIANCE', 25);
    await seenFilled(r, 1);

    r.t.api.broker.setFaults(STORM);
    await data(r, 'safety.start', { kind: 'killSwitch', exitPositions: true });
    await vi.waitFor(() => {
      const now = r.runs.at(-1);
      expect(now?.state).toBe('running');
      expect(now?.positionsUnreadableSince).toEqual(expect.any(Number));
      expect(now?.detail).toMatch(
        /^Positions unknown: not readable for \d+ s — check with your broker\. The broker asked to wait 30 s \(429\)/,
      );
    });
    await data(r, 'safety.stop');
    const run = await ended(r);

    expect(run.state).toBe('incomplete');
    expect(run.detail).toMatch(/— Positions unknown: not readable for \d+ s — check with your broker\.$/);
    expect(run.stillOpen?.positionsUnknownSince).toEqual(expect.any(Number));
    expect(run.stillOpen?.verified).toBe(false);
    expect(run.steps.filter((s) => s.kind === 'exit')).toEqual([]);
    // Nothing was sold on a guess: the broker still holds the 25.
    expect(await brokerPositions(r)).toEqual([['RELIANCE', 25]]);
  });
});

/**
 * 3,600 of the month's NIFTY future (freeze quantity 1,800 on the paper market) bought outside
 * the desk in two orders the exchange accepts, seen filled by main, its positions then read.
 */
async function niftyFutureHeld(dialect: Dialect): Promise<{ r: Rig; symbol: string }> {
  // Enough cash for the margin of 3,600 NIFTY (about ₹1 crore).
  const r = await startRig(dialect, { startingCash: 50_000_000 });
  const future = await findInstrument(
    r.t.api,
    (i) => i.exchange === 'NFO' && i.instrument_type === 'FUT' && i.name === 'NIFTY',
  );
  expect(future.freeze_quantity).toBe(1_800);
  const symbol = future.tradingsymbol;
  for (let n = 0; n < 2; n++)
    expect(
      (await r.t.api.place({ exchange: 'NFO', tradingsymbol: symbol, quantity: 1_800, product: 'NRML' })).status,
    ).toBe(201);
  await seenFilled(r, 2);
  expect(await brokerPositions(r)).toEqual([[symbol, 3_600]]);
  return { r, symbol };
}

describe.each<[string, Dialect]>([
  ['REST adapter on /v1', 'rest'],
  ['Kite adapter on /kite', 'kite'],
])('exits above the freeze quantity are sliced: %s', (_name, dialect) => {
  it('the kill switch exits 3,600 NIFTY as two legs of 1,800, each its own order placed once, and ends flat', async () => {
    const { r, symbol } = await niftyFutureHeld(dialect);
    await data(r, 'safety.start', { kind: 'killSwitch', exitPositions: true });
    const run = await ended(r);

    const exits = run.steps.filter((s) => s.kind === 'exit');
    expect(exits.map((s) => [s.tradingsymbol, s.transactionType, s.quantity, s.state])).toEqual([
      [symbol, 'SELL', 1_800, 'done'],
      [symbol, 'SELL', 1_800, 'done'],
    ]);
    // Two orders, two references: each leg its own exactly-once intent.
    expect(new Set(exits.map((s) => s.orderId)).size).toBe(2);
    expect(new Set(exits.map((s) => s.clientOrderId)).size).toBe(2);
    expect(run.detail).toBe('No working orders, 2 of 2 exit orders placed — nothing is left open');
    expect(run.state).toBe('done');
    expect(await brokerStatuses(r)).toEqual({ COMPLETE: 4 });
    expect(await brokerPositions(r)).toEqual([]);
  });

  it('"Exit selected" shares it: 3,600 NIFTY leaves as two legs of 1,800 and the run is done once flat', async () => {
    const { r, symbol } = await niftyFutureHeld(dialect);
    await data(r, 'safety.start', {
      kind: 'exitPositions',
      positions: [{ exchange: 'NFO', tradingsymbol: symbol, product: 'NRML' }],
    });
    const run = await ended(r);

    expect(run.steps.map((s) => [s.kind, s.quantity, s.state])).toEqual([
      ['exit', 1_800, 'done'],
      ['exit', 1_800, 'done'],
    ]);
    expect(run.state).toBe('done');
    expect(await brokerStatuses(r)).toEqual({ COMPLETE: 4 });
    expect(await brokerPositions(r)).toEqual([]);
  });
});

/** A resting BUY LIMIT of 1 RELIANCE, 3% under the last price. */
async function restingBuyReliance(r: Rig): Promise<OrderRequest> {
  const i = await r.t.api.instrument('NSE', 'RELIANCE');
  return restingBuy({ exchange: 'NSE', tradingsymbol: 'RELIANCE', lastPrice: i.last_price, tickSize: i.tick_size });
}

/** Every order at the broker (read in a lull of any storm), by status. */
async function brokerOrders(r: Rig): Promise<number> {
  const res = await r.t.api.call('GET', '/orders');
  return (res.body as { orders: unknown[] }).orders.length;
}

async function brokerStatuses(r: Rig): Promise<Record<string, number>> {
  r.t.api.broker.setFaults({});
  const res = await r.t.api.call('GET', '/orders');
  const list = (res.body as { orders: Array<{ status: string }> }).orders;
  const out: Record<string, number> = {};
  for (const o of list) out[o.status] = (out[o.status] ?? 0) + 1;
  return out;
}

describe('the kill switch is a barrier', () => {
  it('on /kite, 25 resting BUY LIMIT legs sent at once and the kill switch started while most wait for the 8-a-second pacing: none is left OPEN at the broker, and the run reports every one it found', async () => {
    // The app's own client limits: Kite's orders go out 8 at once, then at its pace.
    const t = await startKiteTest();
    const dir = await mkdtemp(join(tmpdir(), 'td-ks-'));
    const services = await createAppServices({
      dataDir: dir,
      brokerUrl: t.root,
      broker: 'kite',
      apiKey: 'paper',
      accessToken: await accessToken(t),
    });
    const dispatch = createDispatcher(services.handlers, () => undefined);
    const runs: SafetyRun[] = [];
    services.events.on('safety.progress', (run) => runs.push(run));
    rig = { t, services, dispatch, dir, runs };
    await vi.waitFor(async () =>
      expect(await dispatch('connection.status', undefined)).toMatchObject({ ok: true, data: { stream: 'open' } }),
    );
    const order = await restingBuyReliance(rig);
    const answers = Array.from({ length: 25 }, () => dispatch('orders.place', { order }));
    // The first legs have reached the broker; the rest wait in the client's pacing.
    await vi.waitFor(async () => expect(await brokerOrders(rig as Rig)).toBeGreaterThanOrEqual(8));
    expect(await brokerOrders(rig)).toBeLessThan(25);

    expect(await dispatch('safety.start', { kind: 'killSwitch', exitPositions: false })).toMatchObject({ ok: true });
    const run = await ended(rig);
    const replies = await Promise.all(answers);

    // Each leg is placed (and then cancelled by the run) or refused by the barrier, never both.
    const placed = replies.filter((x) => x.ok).length;
    const barred = replies.filter((x) => !x.ok && /the kill switch is on/.test(x.error.message));
    expect(placed + barred.length).toBe(25);
    expect(barred.length).toBeGreaterThan(0);
    expect(await brokerStatuses(rig)).toEqual({ CANCELLED: placed });
    expect(run.state).toBe('done');
    const cancels = run.steps.filter((s) => s.state === 'done').length;
    expect(cancels).toBe(placed);
    expect(run.detail).toMatch(/ orders? cancelled — nothing is left open$/);
    expect(run.barrierUp).toBe(true);

    // Nothing that adds risk leaves the desk until the trader re-arms.
    const after = await dispatch('orders.place', { order });
    expect(after).toMatchObject({ ok: false, error: { kind: 'forbidden', message: expect.stringMatching(/re-arm/) } });
    expect(await brokerOrders(rig)).toBe(placed);
    expect(await dispatch('safety.rearm', undefined)).toMatchObject({ ok: true, data: { barrierUp: false } });
    expect(await dispatch('orders.place', { order })).toMatchObject({ ok: true, data: { state: 'placed' } });
  });

  it('a basket sent leg by leg stops at the kill switch: the legs placed are cancelled, the next leg is refused and none after it is sent', async () => {
    const r = await startRig('rest');
    const order = await restingBuyReliance(r);
    const told: string[] = [];
    let runStarted = false;
    for (let leg = 1; leg <= 25; leg++) {
      // The basket's rule: a leg that is not placed stops the ones after it.
      const reply = await r.dispatch('orders.place', { order });
      if (!reply.ok) {
        told.push(`leg ${leg}: ${reply.error.message}`);
        break;
      }
      told.push(`leg ${leg}: placed`);
      if (leg === 5) {
        expect(await r.dispatch('safety.start', { kind: 'killSwitch', exitPositions: false })).toMatchObject({
          ok: true,
        });
        runStarted = true;
      }
    }
    expect(runStarted).toBe(true);
    const run = await ended(r);
    expect(told.slice(5)).toEqual([
      'leg 6: Not sent: the kill switch is on — nothing that adds risk is sent until you re-arm it',
    ]);
    expect(run.detail).toBe('5 of 5 orders cancelled — nothing is left open');
    expect(await brokerStatuses(r)).toEqual({ CANCELLED: 5 });
  });

  it('an exit (an order or a GTT) that only reduces what is held still goes while the barrier is up; one that adds or would reverse it does not', async () => {
    const r = await startRig('rest');
    expect(await data<Position[]>(r, 'positions.list')).toEqual([]);
    await deskBuys(r, 'RELIANCE', 10);
    await seenFilled(r, 1);
    await data(r, 'safety.start', { kind: 'killSwitch', exitPositions: false });
    await ended(r);
    const sell = (quantity: number) =>
      r.dispatch('orders.place', {
        order: {
          exchange: 'NSE',
          tradingsymbol: 'RELIANCE',
          transactionType: 'SELL',
          quantity,
          orderType: 'MARKET',
          product: 'MIS',
          validity: 'DAY',
        },
      });
    // A GTT that would buy more is not made; one that would sell what is held is.
    const i = await r.t.api.instrument('NSE', 'RELIANCE');
    const gtt = (side: 'BUY' | 'SELL', trigger: number) => ({
      gtt: {
        type: 'single',
        exchange: 'NSE',
        tradingsymbol: 'RELIANCE',
        triggerValues: [trigger],
        legs: [{ transactionType: side, quantity: 10, product: 'MIS', price: trigger }],
      },
    });
    expect(await r.dispatch('gtt.place', gtt('BUY', Math.round(i.last_price * 0.9)))).toMatchObject({
      ok: false,
      error: { kind: 'forbidden' },
    });
    expect(await r.dispatch('gtt.place', gtt('SELL', Math.round(i.last_price * 0.9)))).toMatchObject({ ok: true });
    expect(await sell(11)).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(await sell(4)).toMatchObject({ ok: true, data: { state: 'placed' } });
    await seenFilled(r, 2);
    expect(await sell(7)).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(await sell(6)).toMatchObject({ ok: true, data: { state: 'placed' } });
  });
});

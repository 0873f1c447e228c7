import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '@shared/domain/order';
import type { Position } from '@shared/domain/portfolio';
import type { SafetyRun } from '@shared/domain/safety-run';
import { startKiteTest, type KiteTest } from '../paper/kite/test-kite';
import type { Dialect } from '../core/testing/dialects';
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
async function startRig(dialect: Dialect): Promise<Rig> {
  const t = await startKiteTest();
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
    order: {
      exchange: 'NSE',
      tradingsymbol,
      transactionType: 'BUY',
      quantity,
      orderType: 'MARKET',
      product: 'MIS',
      validity: 'DAY',
    },
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

async function ended(r: Rig): Promise<SafetyRun> {
  await vi.waitFor(() => expect(r.runs.at(-1)?.state).not.toBe('running'), { timeout: 20_000 });
  return r.runs.at(-1) as SafetyRun;
}

describe.each<[string, Dialect]>([
  ['REST adapter on /v1', 'rest'],
  ['Kite adapter on /kite', 'kite'],
])('the kill switch and the positions under read throttling: %s', (_name, dialect) => {
  it('a position filled after main’s last read and one opened outside the desk are both exited, and the run is done only when the broker is flat', async () => {
    const r = await startRig(dialect);
    // Main's last positions read: flat.
    expect(await data<Position[]>(r, 'positions.list')).toEqual([]);
    // Then the desk buys 25 RELIANCE, and 10 TCS are bought outside the desk (another app).
    await deskBuys(r, 'RELIANCE', 25);
    expect((await r.t.api.place({ tradingsymbol: 'TCS', quantity: 10 })).status).toBe(201);
    await seenFilled(r, 2);

    r.t.api.broker.setFaults(STORM);
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

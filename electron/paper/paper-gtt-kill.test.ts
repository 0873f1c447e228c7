import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WireGttList, WireInstrumentList, WireOrderList } from '../wire/rest-schemas';
import { mulberry32 } from './rng';
import { bundleForTest } from '../core/testing/build-child';
import { killNow, startPaperProcess, type PaperProcess } from './testing/paper-cli-process';

/**
 * 1,200 GTTs firing while the broker process is killed (SIGKILL, no flush) in the middle of a
 * price move, then started again from its journal: every GTT fires exactly once, 1,200 orders,
 * none doubled, none lost (docs/api.md §GTT, §Persistence). The seed picks the step the kill
 * lands on; `GTT_KILL_SEED=N` replays one.
 */

const SEED = Number(process.env.GTT_KILL_SEED ?? 20261127);
const INSTRUMENTS = 12;
const STEPS = 100;

const dir = mkdtempSync(join(tmpdir(), 'paper-gtt-kill-'));
const cli = join(dir, 'paper.mjs');
let running: PaperProcess | null = null;

beforeAll(async () => {
  await bundleForTest('electron/paper/cli.ts', cli);
});
afterAll(async () => {
  if (running) await killNow(running);
  rmSync(dir, { recursive: true, force: true });
});

const ARGS = ['--port', '0', '--data-dir', join(dir, 'data'), '--control', '--rate', '100000/s', '--tick-ms', '0'];

async function call(url: string, token: string | null, method: string, path: string, body?: unknown): Promise<unknown> {
  const control = path.startsWith('/_control') ? running?.controlSecret : null;
  const r = await fetch(url + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(control ? { 'X-Paper-Control': control } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${method} ${path} → ${r.status} ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

async function login(url: string): Promise<string> {
  const s = (await call(url, null, 'POST', '/session', { api_key: 'paper', api_secret: 'paper' })) as {
    access_token: string;
  };
  return s.access_token;
}

/** Runs `job` over 0..n-1 with `width` at once. */
async function each(n: number, width: number, job: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await job(next++);
    }),
  );
}

const onTick = (price: number, tick: number): number => Math.round(Math.round(price / tick) * tick * 100) / 100;

describe('GTTs across a broker kill', () => {
  it(`1,200 GTTs fired while the broker is SIGKILLed mid-move and restarted: 1,200 orders, none doubled (seed ${SEED})`, async () => {
    running = await startPaperProcess(cli, ARGS);
    let { url } = running;
    let token = await login(url);
    const listed = WireInstrumentList.parse(await call(url, token, 'GET', '/instruments?exchange=NSE', undefined));
    const picked = listed.instruments
      .filter((i) => i.instrument_type === 'EQ' && i.lot_size === 1 && i.last_price >= 100 && i.last_price <= 2_000)
      .slice(0, INSTRUMENTS);
    expect(picked).toHaveLength(INSTRUMENTS);
    // Each instrument pinned to a base, its 100 triggers one step apart above it (5% in all).
    const ladder = picked.map((i) => {
      const base = onTick(i.last_price, i.tick_size);
      const step = Math.max(i.tick_size, onTick(base * 0.0005, i.tick_size));
      return { i, base, step, at: (k: number) => onTick(base + k * step, i.tick_size) };
    });
    const move = (l: (typeof ladder)[number], k: number): Promise<unknown> =>
      call(url, null, 'POST', '/_control/price', { instrument_token: l.i.instrument_token, last_price: l.at(k) });
    await Promise.all(ladder.map((l) => move(l, 0)));
    await each(INSTRUMENTS * STEPS, 24, async (n) => {
      const l = ladder[n % INSTRUMENTS]!;
      const k = Math.floor(n / INSTRUMENTS) + 1;
      const price = l.at(k);
      return call(url, token, 'POST', '/gtt', {
        type: 'single',
        exchange: 'NSE',
        tradingsymbol: l.i.tradingsymbol,
        trigger_values: [price],
        orders: [{ transaction_type: 'BUY', quantity: 1, product: 'MIS', order_type: 'LIMIT', price }],
      });
    });

    // The price climbs the ladder one step at a time, every instrument at once; the kill lands
    // while one step's moves are being handled: after the first of them answered.
    const killAt = 20 + Math.floor(mulberry32(SEED)() * 60);
    for (let k = 1; k < killAt; k++) await Promise.all(ladder.map((l) => move(l, k)));
    const inFlight = ladder.map((l) => move(l, killAt));
    await Promise.race(inFlight);
    await killNow(running);
    await Promise.allSettled(inFlight);

    running = await startPaperProcess(cli, ARGS);
    ({ url } = running);
    token = await login(url);
    // The kill fell inside the firing: some GTTs came back fired, the rest still active.
    const before = WireGttList.parse(await call(url, token, 'GET', '/gtt', undefined)).gtts;
    const firedBefore = before.filter((g) => g.status !== 'active').length;
    expect(firedBefore).toBeGreaterThanOrEqual(INSTRUMENTS * (killAt - 1));
    expect(firedBefore).toBeLessThan(INSTRUMENTS * STEPS);
    // Past the top of every ladder: whatever has not fired fires now.
    await Promise.all(ladder.map((l) => move(l, STEPS + 1)));

    const gtts = WireGttList.parse(await call(url, token, 'GET', '/gtt', undefined)).gtts;
    expect(gtts).toHaveLength(INSTRUMENTS * STEPS);
    expect(gtts.filter((g) => g.status === 'active')).toEqual([]);
    const legOrders = gtts.map((g) => g.orders[0]?.order_id ?? null);
    expect(legOrders.filter((id) => id === null)).toEqual([]);
    expect(new Set(legOrders).size).toBe(INSTRUMENTS * STEPS);
    const orders = WireOrderList.parse(await call(url, token, 'GET', '/orders', undefined)).orders;
    expect(orders).toHaveLength(INSTRUMENTS * STEPS);
    expect(new Set(orders.map((o) => o.client_order_id)).size).toBe(INSTRUMENTS * STEPS);
    expect(new Set(orders.map((o) => o.order_id))).toEqual(new Set(legOrders));
  }, 120_000);
});

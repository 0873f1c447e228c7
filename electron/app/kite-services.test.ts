import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NO_RISK_LIMITS } from '@shared/domain/risk';
import { startKiteTest, type KiteTest } from '../paper/kite/test-kite';
import { createAppServices, type AppServices } from './app-services';
import type { Dispatch } from './dispatcher';
import { recordingDispatch } from './testing/app-on-paper';
import { portForLaterListen } from './testing/later-port';

/** The Kite app's secret: a canary no reply, event or file other than the vault may ever hold. */
const SECRET = 'CANARY-kite-secret-5e1f0c';

/** An access token the way a trader gets one outside the app (Kite's page, then the exchange). */
async function accessToken(t: KiteTest): Promise<string> {
  const rt = (await t.loginRedirect()).searchParams.get('request_token') ?? '';
  const checksum = createHash('sha256').update(`paper${rt}${SECRET}`).digest('hex');
  const r = await fetch(`${t.root}/session/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ api_key: 'paper', request_token: rt, checksum }).toString(),
  });
  return ((await r.json()) as { data: { access_token: string } }).data.access_token;
}

let t: KiteTest;
let dir: string;
let port: number;
let services: AppServices;
let dispatch: Dispatch;
/** Every reply and every event the renderer could have received, as it would (JSON). */
const seen: string[] = [];
/** Every access token the broker issued this file (the pasted one, the page login's). */
const issued = (): string[] => t.api.broker.sessions().map((s) => s.token);

beforeAll(async () => {
  port = await portForLaterListen();
  t = await startKiteTest({ kiteRedirectUrl: `http://127.0.0.1:${port}/kite/callback`, apiSecret: SECRET });
  dir = await mkdtemp(join(tmpdir(), 'td-kite-app-'));
  services = await createAppServices({
    dataDir: dir,
    brokerUrl: t.root,
    broker: 'kite',
    apiKey: 'paper',
    accessToken: await accessToken(t),
    kiteRedirectPort: port,
  });
  dispatch = recordingDispatch(services, seen);
  t.api.broker.setPrice((await t.api.instrument('NSE', 'INFY')).instrument_token, 1500);
});
afterAll(async () => {
  await services.close();
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the app on Kite (the paper broker’s /kite)', () => {
  it('starts on a pasted access token: connected to Kite, an order placed exactly once, listed and pushed back by the ticker', async () => {
    expect(await dispatch('session.status', undefined)).toMatchObject({
      ok: true,
      // The broker registry's placement rule reaches the renderer with the session (docs/kite.md §Smaller rules).
      data: { state: 'connected', broker: 'kite', userId: 'PAPER01', iocRefusedOn: ['MCX'] },
    });
    const updates: string[] = [];
    const off = services.events.on('orders.changed', (d) => updates.push(...d.upserts.map((o) => o.orderId)));
    const before = t.api.broker.orderCount();
    const placed = await dispatch('orders.place', {
      order: {
        exchange: 'NSE',
        tradingsymbol: 'INFY',
        transactionType: 'BUY',
        quantity: 1,
        orderType: 'LIMIT',
        price: 1450,
        product: 'MIS',
        validity: 'DAY',
      },
    });
    expect(placed).toMatchObject({ ok: true, data: { state: 'placed' } });
    expect(t.api.broker.orderCount() - before).toBe(1);
    const orderId = placed.ok ? (placed.data as { orderId: string }).orderId : '';
    await vi.waitFor(() => expect(updates).toContain(orderId), { timeout: 5_000 });
    off();
    const orders = await dispatch('orders.list', undefined);
    expect(orders.ok && (orders.data as Array<{ orderId: string }>).some((o) => o.orderId === orderId)).toBe(true);
  });

  it('live ticks of a subscribed instrument arrive from Kite’s binary ticker at the price the market moved to', async () => {
    const infy = await t.api.instrument('NSE', 'INFY');
    const prices: number[] = [];
    const off = services.events.on('market.ticks', ({ ticks }) => {
      for (const tick of ticks) if (tick.instrumentToken === infy.instrument_token) prices.push(tick.lastPrice);
    });
    expect(
      await dispatch('market.subscribe', { owner: 'test', tokens: [infy.instrument_token], mode: 'full' }),
    ).toMatchObject({
      ok: true,
    });
    await vi.waitFor(() => expect(prices.length).toBeGreaterThan(0), { timeout: 5_000 });
    t.api.broker.setPrice(infy.instrument_token, 1512.35);
    await vi.waitFor(() => expect(prices).toContain(1512.35), { timeout: 5_000 });
    off();
  });

  it('logs in through Kite’s page: the redirect with the right state reaches main, which completes the session and keeps the profile’s risk limits', async () => {
    const limits = { ...NO_RISK_LIMITS, maxQuantity: { value: 500, hard: true } };
    expect(await dispatch('risk.set', { limits })).toMatchObject({ ok: true });
    const started = await dispatch('session.loginPage', {
      profile: { kind: 'kite', baseUrl: t.root, apiKey: 'paper', apiSecret: SECRET },
    });
    if (!started.ok) throw new Error(started.error.message);
    const data = started.data as { loginUrl: string; opened: boolean };
    expect(data.opened).toBe(false);
    const loginUrl = new URL(data.loginUrl);
    expect(`${loginUrl.origin}${loginUrl.pathname}`).toBe(`${t.root}/connect/login`);
    // A forged redirect (wrong state) is refused and does not cancel the login under way.
    const forged = await fetch(`http://127.0.0.1:${port}/kite/callback?request_token=abc&status=success&state=nope`);
    expect(forged.status).toBe(400);
    // The browser follows Kite's page to the loopback callback.
    const page = await fetch(loginUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Logged in to Zerodha Kite');
    expect(await dispatch('session.status', undefined)).toMatchObject({
      ok: true,
      data: { state: 'connected', broker: 'kite', userId: 'PAPER01' },
    });
    // Saving the new session's profile did not wipe the rest of the settings: the limits are
    // still there for the next start.
    expect(await dispatch('risk.get', undefined)).toMatchObject({ ok: true, data: { limits } });
    const stored = JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8')) as {
      profile?: { kind: string };
      risk?: Record<string, { limits: unknown }>;
    };
    expect(stored.profile?.kind).toBe('kite');
    expect(Object.values(stored.risk ?? {}).map((r) => r.limits)).toContainEqual(limits);
    // The same redirect again (a replayed URL) is not accepted: each state works once.
    const again = await fetch(page.url);
    expect(again.status).toBe(400);
  });

  it('the secret and the access tokens never come back to the renderer: not in any reply or event of this file', async () => {
    await dispatch('session.status', undefined);
    const tokens = issued();
    // The pasted token and the one the page login exchanged for.
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    expect(seen.length).toBeGreaterThan(10);
    const all = seen.join('\n');
    for (const secret of [SECRET, ...tokens]) expect(all).not.toContain(secret);
    // Nor in the settings file: the profile is saved without them.
    const settings = await readFile(join(dir, 'settings.json'), 'utf8');
    for (const secret of [SECRET, ...tokens]) expect(settings).not.toContain(secret);
  });
});

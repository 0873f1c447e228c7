import type { LookupFunction } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderRequest } from '@shared/domain/order';
import { INFY_MARKET_BUY } from '@shared/testing/order-fixtures';
import type { ConnectionState } from '@shared/domain/session';
import type { PaperBrokerOptions } from '../paper/index';
import { kiteAdapter } from '../broker/kite/kite-adapter';
import { startCoreFixture, type CoreFixture, type CoreOverrides } from './testing/core-fixture';
import { coreOn, failure, NO_KITE_LIMITS } from './testing/dialects';
import type { TradingCore } from './trading-core';

/**
 * The desk on a Kite account as it is in 2026 (docs/kite.md §Static IP, §The plan, §Market
 * protection): the whole trading core — adapter, transport, order service, session — against the
 * paper broker's Kite dialect set up like the trader's app.
 */

const LIMIT: OrderRequest = { ...INFY_MARKET_BUY, orderType: 'LIMIT', price: 1450 };

let fx: CoreFixture | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

async function kiteCore(
  paper: PaperBrokerOptions,
  overrides: CoreOverrides = {},
): Promise<{ fx: CoreFixture; core: TradingCore; expiries: string[]; connection: () => ConnectionState }> {
  fx = await startCoreFixture({ kiteRates: NO_KITE_LIMITS, ...paper });
  const expiries: string[] = [];
  let connection: ConnectionState = { rest: 'up', stream: 'closed', detail: null };
  const core = await coreOn(fx, 'kite', {
    events: { onSessionExpired: (reason) => expiries.push(reason), onConnection: (c) => (connection = c) },
    ...overrides,
  });
  const infy = (await core.broker.listInstruments()).find((i) => i.tradingsymbol === 'INFY' && i.exchange === 'NSE');
  fx.paper.setPrice(infy?.instrumentToken ?? 0, 1500);
  return { fx, core, expiries, connection: () => connection };
}

/** `dual.test`: ::1 first, then 127.0.0.1 — a dual-stack machine whose system prefers IPv6. */
const dualStack: LookupFunction = (_host, options, callback) => {
  const all = [
    { address: '::1', family: 6 },
    { address: '127.0.0.1', family: 4 },
  ].filter((a) => !options.family || a.family === options.family);
  const cb = callback as (err: Error | null, address: unknown, family?: number) => void;
  if (options.all) cb(null, all);
  else cb(null, all[0]?.address, all[0]?.family);
};

describe('orders from an IP the Kite app has not registered (docs/kite.md §Static IP)', () => {
  it('are refused with the address and where to add it; nothing is created or re-sent, and the trader stays logged in', async () => {
    const { fx, core, expiries } = await kiteCore({ kiteAllowedIps: ['203.0.113.9'] });
    const refusal = {
      kind: 'forbidden',
      message:
        "Not placed: Kite refused orders from this computer's IP (127.0.0.1) — add it to the app's allowed IPs in the Kite developer console",
    };
    const sentBefore = core.stats.sent;
    expect(await failure(core.orders.place(LIMIT))).toEqual(refusal);
    // One POST, no lookup, no second POST: a 403 is a definitive refusal.
    expect(core.stats.sent - sentBefore).toBe(1);
    expect(fx.paper.orderCount()).toBe(0);
    expect(core.orders.placements().filter((p) => p.state === 'checking' || p.state === 'needs_decision')).toEqual([]);
    expect(core.session.info().state).toBe('connected');
    expect(expiries).toEqual([]);
    // Reads go on from the same address: the session is good.
    await expect(core.broker.listOrders()).resolves.toEqual([]);
    expect(core.stats.relogins).toBe(0);
  });

  it('on a dual-stack machine the system may leave over IPv6; with "IPv4 only" the order leaves from the registered IPv4 address', async () => {
    const paper = { kiteAllowedIps: ['127.0.0.1'], listenHost: '::', extraHostNames: ['dual.test'] };
    const first = await kiteCore(paper, { lookup: dualStack });
    const port = new URL(first.fx.paper.url).port;
    const root = `http://dual.test:${port}/kite`;
    const login = async (): Promise<string> => {
      const r = await fetch(`http://127.0.0.1:${port}/kite/connect/login?v=3&api_key=paper`, { redirect: 'manual' });
      return new URL(r.headers.get('location') ?? '').searchParams.get('request_token') ?? '';
    };
    const newCore = async (ipv4Only: boolean): Promise<TradingCore> => {
      const c = await first.fx.newCore({
        baseUrl: root,
        adapter: kiteAdapter(),
        target: { broker: 'kite', label: 'Kite (dual stack)', vaultKey: `kite-dual-${ipv4Only}` },
        credentials: { apiKey: 'paper', apiSecret: 'paper', requestToken: await login() },
        lookup: dualStack,
        ipv4Only,
      });
      await c.start();
      return c;
    };
    const v6 = await newCore(false);
    expect(await failure(v6.orders.place(LIMIT))).toMatchObject({
      kind: 'forbidden',
      message: expect.stringContaining("this computer's IP (::1)"),
    });
    expect(v6.session.info().state).toBe('connected');
    const v4 = await newCore(true);
    expect(await v4.orders.place(LIMIT)).toMatchObject({ state: 'placed' });
    expect(first.fx.paper.orderCount()).toBe(1);
  });
});

describe('a Kite plan without market data (docs/kite.md §The plan)', () => {
  it('is found at login: no ticker is opened, the link says why, market data is refused without a request, and orders and the account work', async () => {
    const { fx, core, expiries, connection } = await kiteCore({ kitePlan: 'personal' }, { stream: true });
    expect(core.session.info()).toMatchObject({ state: 'connected', marketData: 'none' });
    expect(connection()).toMatchObject({
      stream: 'closed',
      detail: expect.stringContaining('No market data on this Kite plan'),
    });
    expect(fx.paper.kiteTickerStats()).toEqual([]);
    const sent = core.stats.sent;
    expect(await failure(core.broker.getQuotes([1]))).toEqual({
      kind: 'forbidden',
      message: 'No market data on this Kite plan',
    });
    expect(await failure(core.broker.getCandles(1, { interval: 'day' }))).toMatchObject({ kind: 'forbidden' });
    expect(core.stats.sent).toBe(sent);
    expect(await core.orders.place(LIMIT)).toMatchObject({ state: 'placed' });
    await expect(core.broker.listPositions()).resolves.toEqual([]);
    await expect(core.broker.getFunds()).resolves.toHaveProperty('availableMargin');
    expect(expiries).toEqual([]);
    expect(core.session.info().state).toBe('connected');
  });

  it('the kill switch still exits: with no last price the exit goes as MARKET, which Kite protects', async () => {
    const { fx, core } = await kiteCore(
      { kitePlan: 'personal' },
      { target: { broker: 'kite', label: 'Kite (paper)', vaultKey: 'kite-ks', marketProtection: -1 } },
    );
    const bought = await core.orders.place({ ...LIMIT, quantity: 5, price: 1510 });
    const id = bought.state === 'placed' ? bought.orderId : '';
    await vi.waitFor(async () => expect((await core.broker.getOrder(id)).status).toBe('COMPLETE'));
    core.safety.start({ kind: 'killSwitch', exitPositions: true });
    await core.safety.idle();
    const run = core.safety.current();
    const exit = run?.steps.find((s) => s.kind === 'exit');
    expect(exit).toMatchObject({ state: 'done', transactionType: 'SELL', quantity: 5 });
    await vi.waitFor(async () =>
      expect((await core.broker.listPositions()).find((p) => p.tradingsymbol === 'INFY')?.quantity).toBe(0),
    );
    const exitOrder = await core.broker.getOrder(exit?.orderId ?? '');
    expect(exitOrder).toMatchObject({ orderType: 'LIMIT', marketProtection: { percent: 2, automatic: true } });
    expect(fx.paper.orderCount()).toBe(2);
  });

  it('with market data the probe says live and the ticker opens as before', async () => {
    const { core, connection } = await kiteCore({}, { stream: true });
    expect(core.session.info().marketData).toBe('live');
    await vi.waitFor(() => expect(connection().stream).toBe('open'), { timeout: 5_000 });
  });
});

describe('market protection from the profile (docs/kite.md §Market protection)', () => {
  it('a MARKET order goes with the profile’s percentage and comes back as the LIMIT Kite made of it, saying so', async () => {
    const { core } = await kiteCore(
      {},
      { target: { broker: 'kite', label: 'Kite (paper)', vaultKey: 'kite-mp', marketProtection: 1.5 } },
    );
    expect(core.session.info().marketProtection).toBe(1.5);
    const placed = await core.orders.place({ ...LIMIT, orderType: 'MARKET', price: null });
    const id = placed.state === 'placed' ? placed.orderId : '';
    const order = await core.broker.getOrder(id);
    // 1500 × 1.015 = 1522.50.
    expect(order).toMatchObject({
      orderType: 'LIMIT',
      price: 1522.5,
      marketProtection: { percent: 1.5, automatic: false },
    });
  });

  it('automatic by default (-1): the percentage Kite applied is shown', async () => {
    const { core } = await kiteCore(
      {},
      { target: { broker: 'kite', label: 'Kite (paper)', vaultKey: 'kite-mp-auto', marketProtection: -1 } },
    );
    const placed = await core.orders.place({ ...LIMIT, orderType: 'SL-M', price: null, triggerPrice: 1600 });
    const id = placed.state === 'placed' ? placed.orderId : '';
    expect(await core.broker.getOrder(id)).toMatchObject({
      orderType: 'SL',
      triggerPrice: 1600,
      price: 1632,
      marketProtection: { percent: 2, automatic: true },
    });
  });

  it('a modification to MARKET carries it too', async () => {
    const { core } = await kiteCore(
      {},
      { target: { broker: 'kite', label: 'Kite (paper)', vaultKey: 'kite-mp-mod', marketProtection: 3 } },
    );
    const placed = await core.orders.place({ ...LIMIT, price: 1400 });
    const id = placed.state === 'placed' ? placed.orderId : '';
    await core.broker.modifyOrder(id, { orderType: 'MARKET', price: null });
    expect(await core.broker.getOrder(id)).toMatchObject({ orderType: 'LIMIT', price: 1545, status: 'COMPLETE' });
  });
});

import { AppError } from '@shared/ipc/app-error';
import { kiteAdapter } from '../../broker/kite/kite-adapter';
import { upstoxAdapter } from '../../broker/upstox/upstox-adapter';
import type { TradingCore } from '../trading-core';
import { NO_KITE_LIMITS } from '../../paper/kite/test-kite';
import { startCoreFixture, type CoreFixture, type CoreOverrides } from './core-fixture';

/**
 * The dialects one paper broker speaks (`/v1`, `/kite` and `/upstox`), for suites that run the
 * same tests through the REST, Kite and Upstox adapters (docs/brokers.md, "The Kite adapter";
 * docs/upstox.md §The adapter).
 */
export type Dialect = 'rest' | 'kite' | 'upstox';

/** Every adapter the conformance suites run, by name: a new adapter adds its line here. */
export const DIALECTS: ReadonlyArray<readonly [string, Dialect]> = [
  ['REST adapter on /v1', 'rest'],
  ['Kite adapter on /kite', 'kite'],
  ['Upstox adapter on /upstox', 'upstox'],
];

/** Upstox's limits raised out of the way, as Kite's are. */
export const NO_UPSTOX_LIMITS = {
  orders: { perSecond: 10_000, perMinute: 600_000, perHalfHour: 10_000_000 },
  standard: { perSecond: 10_000, perMinute: 600_000, perHalfHour: 10_000_000 },
};

/** The redirect the paper Upstox login sends its code to (any http(s) URL; nothing listens there in tests). */
export const UPSTOX_TEST_REDIRECT = 'http://127.0.0.1/upstox/callback';

/** An authorization code from a paper broker's Upstox login dialog (its redirect carries it). */
export async function paperUpstoxCode(upstoxRoot: string, redirectUri = UPSTOX_TEST_REDIRECT): Promise<string> {
  const dialog = new URL(`${upstoxRoot}/v2/login/authorization/dialog`);
  dialog.search = new URLSearchParams({
    client_id: 'paper',
    redirect_uri: redirectUri,
    response_type: 'code',
  }).toString();
  const r = await fetch(dialog, { redirect: 'manual' });
  return new URL(r.headers.get('location') ?? '').searchParams.get('code') ?? '';
}

// Kite's limits raised out of the way: conformance suites are about behaviour, not pacing.
export { NO_KITE_LIMITS };

/** A paper broker for a conformance test, its limits out of the way, with INFY at 1,500. */
export async function conformanceFixture(): Promise<{ fx: CoreFixture; infy: number }> {
  const fx = await startCoreFixture({
    kiteRates: NO_KITE_LIMITS,
    upstoxRates: NO_UPSTOX_LIMITS,
    rate: { perSecond: 10_000, burst: 10_000 },
  });
  const probe = await coreOn(fx, 'rest');
  const infy = (await probe.broker.listInstruments()).find((i) => i.exchange === 'NSE' && i.tradingsymbol === 'INFY')
    ?.instrumentToken as number;
  fx.paper.setPrice(infy, 1500);
  return { fx, infy };
}

/**
 * A started core on `dialect`: /v1 with the paper credentials, /kite through its login page's
 * request token, /upstox through its login dialog's authorization code.
 */
export async function coreOn(fx: CoreFixture, dialect: Dialect, overrides: CoreOverrides = {}): Promise<TradingCore> {
  if (dialect === 'rest') {
    const core = await fx.newCore(overrides);
    await core.start();
    return core;
  }
  if (dialect === 'upstox') {
    const root = fx.paper.url.replace(/\/v1$/, '/upstox');
    const core = await fx.newCore({
      baseUrl: root,
      adapter: upstoxAdapter(),
      target: { broker: 'upstox', label: 'Upstox (paper)', vaultKey: 'upstox-conformance' },
      credentials: {
        apiKey: 'paper',
        apiSecret: 'paper',
        requestToken: await paperUpstoxCode(root),
        redirectUri: UPSTOX_TEST_REDIRECT,
      },
      ...overrides,
    });
    await core.start();
    return core;
  }
  const root = fx.paper.url.replace(/\/v1$/, '/kite');
  const r = await fetch(`${root}/connect/login?v=3&api_key=paper`, { redirect: 'manual' });
  const requestToken = new URL(r.headers.get('location') ?? '').searchParams.get('request_token') ?? '';
  // As the broker registry does: the profile's market protection goes to the adapter and the session.
  const protection = overrides.target?.marketProtection;
  const core = await fx.newCore({
    baseUrl: root,
    adapter: kiteAdapter(protection !== undefined ? { marketProtection: protection } : {}),
    target: { broker: 'kite', label: 'Kite (paper)', vaultKey: 'kite-conformance' },
    credentials: { apiKey: 'paper', apiSecret: 'paper', requestToken },
    ...overrides,
  });
  await core.start();
  return core;
}

/** The typed error a call failed with (a success or another error fails the test). */
export async function failure(p: Promise<unknown>): Promise<AppError['info']> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err.info;
    throw err;
  }
  throw new Error('expected a failure, got a success');
}

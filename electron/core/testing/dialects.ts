import { AppError } from '@shared/ipc/app-error';
import { kiteAdapter } from '../../broker/kite/kite-adapter';
import type { TradingCore } from '../trading-core';
import { startCoreFixture, type CoreFixture, type CoreOverrides } from './core-fixture';

/**
 * The two dialects one paper broker speaks (`/v1` and `/kite`), for suites that run the same
 * tests through the REST adapter and the Kite adapter (docs/brokers.md, "The Kite adapter").
 */
export type Dialect = 'rest' | 'kite';

/** Every adapter the conformance suites run, by name: a new adapter adds its line here. */
export const DIALECTS: ReadonlyArray<readonly [string, Dialect]> = [
  ['REST adapter on /v1', 'rest'],
  ['Kite adapter on /kite', 'kite'],
];

/** Kite's limits raised out of the way: conformance suites are about behaviour, not pacing. */
export const NO_KITE_LIMITS = {
  quotePerSecond: 10_000,
  historicalPerSecond: 10_000,
  ordersPerSecond: 10_000,
  ordersPerMinute: 600_000,
  ordersPerDay: 10_000_000,
  defaultPerSecond: 10_000,
};

/** A paper broker for a conformance test, its limits out of the way, with INFY at 1,500. */
export async function conformanceFixture(): Promise<{ fx: CoreFixture; infy: number }> {
  const fx = await startCoreFixture({ kiteRates: NO_KITE_LIMITS, rate: { perSecond: 10_000, burst: 10_000 } });
  const probe = await coreOn(fx, 'rest');
  const infy = (await probe.broker.listInstruments()).find((i) => i.exchange === 'NSE' && i.tradingsymbol === 'INFY')
    ?.instrumentToken as number;
  fx.paper.setPrice(infy, 1500);
  return { fx, infy };
}

/** A started core on `dialect`: /v1 with the paper credentials, /kite through its login page's request token. */
export async function coreOn(fx: CoreFixture, dialect: Dialect, overrides: CoreOverrides = {}): Promise<TradingCore> {
  if (dialect === 'rest') {
    const core = await fx.newCore(overrides);
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

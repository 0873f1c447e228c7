import { AppError } from '@shared/ipc/app-error';
import type { TradingCore, TradingCoreOptions } from '../trading-core';
import type { CoreFixture } from './core-fixture';

/**
 * The two dialects one paper broker speaks (`/v1` and `/kite`), for suites that run the same
 * tests through the REST adapter and the Kite adapter (docs/architecture.md, "The Kite adapter").
 */
export type Dialect = 'rest' | 'kite';

/** Kite's limits raised out of the way: conformance suites are about behaviour, not pacing. */
export const NO_KITE_LIMITS = {
  quotePerSecond: 10_000,
  historicalPerSecond: 10_000,
  ordersPerSecond: 10_000,
  ordersPerMinute: 600_000,
  ordersPerDay: 10_000_000,
  defaultPerSecond: 10_000,
};

/** A started core on `dialect`: /v1 with the paper credentials, /kite through its login page's request token. */
export async function coreOn(
  fx: CoreFixture,
  dialect: Dialect,
  overrides: Partial<TradingCoreOptions> = {},
): Promise<TradingCore> {
  if (dialect === 'rest') {
    const core = await fx.newCore(overrides);
    await core.start();
    return core;
  }
  const root = fx.paper.url.replace(/\/v1$/, '/kite');
  const r = await fetch(`${root}/connect/login?v=3&api_key=paper`, { redirect: 'manual' });
  const requestToken = new URL(r.headers.get('location') ?? '').searchParams.get('request_token') ?? '';
  const core = await fx.newCore({
    baseUrl: root,
    dialect: 'kite',
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

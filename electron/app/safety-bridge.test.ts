import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NO_RISK_LIMITS } from '@shared/domain/risk';
import type { SafetyRun } from '@shared/domain/safety-run';
import { createDispatcher } from './dispatcher';
import { createAppServices, type AppServices } from './app-services';

/**
 * The safety channels through the dispatcher against the embedded paper broker: limits kept per
 * profile in settings and in force after a new login, the override over the bridge, and a kill
 * switch run followed through its `safety.progress` events (docs/contract.md §Risk guard, §Kill switch).
 */
describe('risk and safety over the bridge', () => {
  let dir: string;
  let services: AppServices;
  let dispatch: ReturnType<typeof createDispatcher>;
  const order = {
    exchange: 'NSE' as const,
    tradingsymbol: '',
    transactionType: 'BUY' as const,
    quantity: 6,
    orderType: 'MARKET' as const,
    product: 'MIS' as const,
    validity: 'DAY' as const,
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-safety-'));
    services = await createAppServices({ dataDir: dir, paper: { tickIntervalMs: 0 } });
    dispatch = createDispatcher(services.handlers);
    const list = await dispatch('instruments.list', { exchange: 'NSE' });
    if (!list.ok) throw new Error(list.error.message);
    order.tradingsymbol = (list.data as Array<{ tradingsymbol: string; instrumentType: string }>).find(
      (i) => i.instrumentType === 'EQ',
    )!.tradingsymbol;
  });
  afterAll(async () => {
    await services.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a figure the guard cannot take is refused naming its field, and nothing is stored', async () => {
    const r = await dispatch('risk.set', {
      limits: { ...NO_RISK_LIMITS, maxQuantity: { value: -5, hard: true } },
    });
    expect(r).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'limits.maxQuantity.value' } });
    expect(await dispatch('risk.get', undefined)).toMatchObject({ ok: true, data: { limits: NO_RISK_LIMITS } });
  });

  it('limits are stored per profile and still in force after logging in again; the override places one order', async () => {
    const limits = { ...NO_RISK_LIMITS, maxQuantity: { value: 5, hard: false } };
    expect(await dispatch('risk.set', { limits })).toMatchObject({ ok: true, data: { limits } });
    const stored = JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8')) as { risk: Record<string, unknown> };
    expect(stored.risk).toEqual({ paper: { limits, lossReachedOn: null } });

    await dispatch('session.logout', undefined);
    expect(await dispatch('session.login', { profile: { kind: 'paper' } })).toMatchObject({ ok: true });
    expect(await dispatch('risk.get', undefined)).toMatchObject({ ok: true, data: { limits } });

    const refused = await dispatch('orders.place', { order });
    expect(refused).toMatchObject({
      ok: false,
      error: { kind: 'bad_request', field: 'riskOverride', message: 'Not placed: Quantity 6 exceeds your limit of 5' },
    });
    expect(await dispatch('orders.place', { order, riskOverride: true })).toMatchObject({
      ok: true,
      data: { state: 'placed' },
    });
    expect(await dispatch('risk.set', { limits: NO_RISK_LIMITS })).toMatchObject({ ok: true });
  });

  it('a kill switch run answers at once, reports its progress as safety.progress until it ends, and leaves the account flat', async () => {
    const seen: SafetyRun[] = [];
    const off = services.events.on('safety.progress', (run) => seen.push(run));
    // The position left by the order placed above (6 bought) is the one thing to exit.
    const started = await dispatch('safety.start', { kind: 'killSwitch', exitPositions: true });
    expect(started).toMatchObject({ ok: true, data: { state: 'running' } });
    await vi.waitFor(() => expect(seen.at(-1)?.state).toBe('done'), { timeout: 15_000 });
    off();
    const last = seen.at(-1)!;
    expect(last.steps.filter((s) => s.kind === 'exit')).toMatchObject([
      { state: 'done', transactionType: 'SELL', quantity: 6 },
    ]);
    expect(last.stillOpen).toEqual({
      orders: [],
      positions: [],
      unconfirmed: [],
      verified: true,
      positionsUnknownSince: null,
    });
    expect(await dispatch('safety.current', undefined)).toEqual({ ok: true, data: last });
    // A Stop once it is over changes nothing.
    expect(await dispatch('safety.stop', undefined)).toEqual({ ok: true, data: last });
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Instrument } from '@shared/domain/instrument';
import type { OrderRequest } from '@shared/domain/order';
import { NO_RISK_LIMITS, type RiskLimits } from '@shared/domain/risk';
import { startPaperBroker, type PaperBroker } from '../paper';
import { createAppServices, type AppServices } from './app-services';
import { createDispatcher, type Dispatch } from './dispatcher';

/**
 * Promises that held when tried through the bridge as a determined renderer would, kept with a
 * test each so they keep holding (docs/contract.md §Risk guard, §Exactly-once orders): a hard
 * limit has no override; the loss lock lets only exits through; one request id from two pages
 * is one order, answered to both.
 */

interface Rig {
  readonly paper: PaperBroker;
  readonly services: AppServices;
  readonly dispatch: Dispatch;
  readonly dir: string;
  readonly infy: Instrument;
}

let rig: Rig | null = null;
afterEach(async () => {
  if (!rig) return;
  await rig.services.close();
  await rig.paper.close();
  await rm(rig.dir, { recursive: true, force: true });
  rig = null;
});

async function startRig(): Promise<Rig> {
  const dir = await mkdtemp(join(tmpdir(), 'td-held-'));
  const paper = await startPaperBroker({ port: 0, tickIntervalMs: 0, startingCash: 1e9 });
  const services = await createAppServices({
    dataDir: dir,
    brokerUrl: paper.url,
    apiKey: 'paper',
    apiSecret: 'paper',
    core: { rate: null, stream: false },
  });
  const dispatch = createDispatcher(services.handlers, () => undefined);
  const list = await dispatch('instruments.list', { exchange: 'NSE' });
  const infy = (list.ok ? (list.data as Instrument[]) : []).find((i) => i.tradingsymbol === 'INFY');
  if (!infy) throw new Error('no INFY');
  paper.setPrice(infy.instrumentToken, 1500);
  rig = { paper, services, dispatch, dir, infy };
  return rig;
}

const hard = (value: number) => ({ value, hard: true });
const setLimits = (r: Rig, l: Partial<RiskLimits>) => r.dispatch('risk.set', { limits: { ...NO_RISK_LIMITS, ...l } });

function infy(extra: Partial<OrderRequest>): OrderRequest {
  return {
    exchange: 'NSE',
    tradingsymbol: 'INFY',
    transactionType: 'BUY',
    quantity: 10,
    orderType: 'LIMIT',
    product: 'MIS',
    validity: 'DAY',
    price: 1450,
    ...extra,
  };
}

describe('promises that held, and must keep holding', () => {
  it('riskOverride on a hard breach is refused, naming the limit; nothing reaches the broker', async () => {
    const r = await startRig();
    expect(await setLimits(r, { maxOrderValue: hard(1_00_000) })).toMatchObject({ ok: true });
    const refused = await r.dispatch('orders.place', { order: infy({ quantity: 100 }), riskOverride: true });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        kind: 'bad_request',
        field: 'risk.maxOrderValue',
        message: expect.stringMatching(/exceeds your limit of ₹1,00,000$/),
      },
    });
    expect(r.paper.orderCount()).toBe(0);
  });

  it('with the loss lock on, a BUY and a SELL that would flip the long are refused naming the lock; the exact exit goes', async () => {
    const r = await startRig();
    const long = await r.dispatch('orders.place', { order: infy({ orderType: 'MARKET', price: null, quantity: 100 }) });
    expect(long).toMatchObject({ ok: true, data: { state: 'placed' } });
    r.paper.setPrice(r.infy.instrumentToken, 1350);
    await setLimits(r, { dailyLossLimit: hard(1_000) });
    expect(await r.dispatch('risk.get', undefined)).toMatchObject({ ok: true, data: { status: { blocked: true } } });
    const before = r.paper.orderCount();

    const lockRefusal = { ok: false, error: { kind: 'bad_request', field: 'risk.dailyLossLimit' } };
    expect(await r.dispatch('orders.place', { order: infy({ quantity: 1 }) })).toMatchObject(lockRefusal);
    const flip = infy({ transactionType: 'SELL', orderType: 'MARKET', price: null, quantity: 150 });
    expect(await r.dispatch('orders.place', { order: flip })).toMatchObject(lockRefusal);
    // Not even with the override: the lock is a hard limit.
    expect(await r.dispatch('orders.place', { order: flip, riskOverride: true })).toMatchObject(lockRefusal);
    expect(r.paper.orderCount()).toBe(before);

    const exit = infy({ transactionType: 'SELL', orderType: 'MARKET', price: null, quantity: 100 });
    expect(await r.dispatch('orders.place', { order: exit })).toMatchObject({ ok: true, data: { state: 'placed' } });
    expect(r.paper.orderCount()).toBe(before + 1);
  });

  it('the same requestId from two pages at once makes one order, and both are answered with it', async () => {
    const r = await startRig();
    const order = infy({});
    const [a, b] = await Promise.all([
      r.dispatch('orders.place', { order, requestId: 'click-two-pages' }, 'page-a'),
      r.dispatch('orders.place', { order, requestId: 'click-two-pages' }, 'page-b'),
    ]);
    expect(a).toMatchObject({ ok: true, data: { state: 'placed', orderId: expect.any(String) } });
    expect(b).toEqual(a);
    expect(r.paper.orderCount()).toBe(1);
    // Asked again later, from either page: the same answer, still one order.
    expect(await r.dispatch('orders.place', { order, requestId: 'click-two-pages' }, 'page-b')).toEqual(a);
    expect(r.paper.orderCount()).toBe(1);
  });
});

import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Instrument } from '@shared/domain/instrument';
import type { Order, OrderRequest } from '@shared/domain/order';
import type { PlaceOutcome, Placement } from '@shared/domain/placement';
import { NO_RISK_LIMITS, type RiskLimits } from '@shared/domain/risk';
import type { IpcResult } from '@shared/ipc/result';
import { IntentsLedger } from '../core/ledger/intents-ledger';
import { startPaperBroker, type PaperBroker } from '../paper';
import { createAppServices, type AppConfig, type AppServices } from './app-services';
import { createDispatcher, type Dispatch } from './dispatcher';

/**
 * A hard limit is a promise: the desk will not send this order. Every path that adds risk is
 * judged by the guard — a modification, parallel clicks (one connection or two), exits that
 * together flip a position, Place again — through the bridge, as a determined renderer would try
 * it, against the real paper broker (docs/contract.md §Risk guard).
 */

interface Rig {
  paper: PaperBroker;
  services: AppServices;
  dispatch: Dispatch;
  /** A second page's connection to the same main. */
  other: Dispatch;
  dir: string;
  infy: Instrument;
  config: AppConfig;
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
  const dir = await mkdtemp(join(tmpdir(), 'td-risk-'));
  const paper = await startPaperBroker({ port: 0, tickIntervalMs: 0, startingCash: 1e9 });
  const config: AppConfig = {
    dataDir: dir,
    brokerUrl: paper.url,
    apiKey: 'paper',
    apiSecret: 'paper',
    core: { rate: null, stream: false, placementTimings: { landingHorizonMs: 300 } },
  };
  const services = await createAppServices(config);
  const dispatch = createDispatcher(services.handlers, () => undefined);
  const list = await dispatch('instruments.list', { exchange: 'NSE' });
  const infy = (list.ok ? (list.data as Instrument[]) : []).find((i) => i.tradingsymbol === 'INFY');
  if (!infy) throw new Error('no INFY');
  paper.setPrice(infy.instrumentToken, 1500);
  rig = { paper, services, dispatch, other: createDispatcher(services.handlers, () => undefined), dir, infy, config };
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

const placed = (r: IpcResult<unknown>): string => {
  if (!r.ok) throw new Error(`refused: ${r.error.message}`);
  const outcome = r.data as PlaceOutcome;
  if (outcome.state !== 'placed') throw new Error('not placed');
  return outcome.orderId;
};

async function brokerOrder(r: Rig, orderId: string): Promise<Order> {
  const got = await r.dispatch('orders.get', { orderId });
  if (!got.ok) throw new Error(got.error.message);
  return got.data as Order;
}

/** Drives the day's P&L past a hard loss limit: long `quantity` INFY bought at 1,500, the price then 10% down. */
async function lossLockOn(r: Rig, quantity: number): Promise<void> {
  placed(await r.dispatch('orders.place', { order: infy({ orderType: 'MARKET', price: null, quantity }) }));
  r.paper.setPrice(r.infy.instrumentToken, 1350);
  await setLimits(r, { dailyLossLimit: hard(1_000) });
  const state = await r.dispatch('risk.get', undefined);
  expect(state).toMatchObject({ ok: true, data: { status: { blocked: true } } });
}

describe('modify is judged as the order it would become', () => {
  it('a quantity or a price past a hard limit is refused naming it, and the order stays as it was; lowering goes through', async () => {
    const r = await startRig();
    await setLimits(r, { maxOrderValue: hard(1_00_000), maxQuantity: hard(50), maxPriceDeviationPct: hard(5) });
    const id = placed(await r.dispatch('orders.place', { order: infy({}) }));

    const bigger = await r.dispatch('orders.modify', { orderId: id, changes: { quantity: 3_000 } });
    expect(bigger).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'risk.maxOrderValue' } });
    expect(!bigger.ok && bigger.error.fields?.map((f) => f.field)).toEqual(['risk.maxOrderValue', 'risk.maxQuantity']);
    expect(!bigger.ok && bigger.error.message).toMatch(/^Not modified: /);
    const far = await r.dispatch('orders.modify', { orderId: id, changes: { price: 1305 } });
    expect(far).toMatchObject({ ok: false, error: { field: 'risk.maxPriceDeviationPct' } });
    // With the figures: how far from the market it is, the market, and the limit.
    expect(!far.ok && far.error.message).toBe(
      'Not modified: Price is 13% away from the last price 1,500; your limit is 5%',
    );
    // A hard limit has no way round it.
    expect(
      await r.dispatch('orders.modify', { orderId: id, changes: { quantity: 3_000 }, riskOverride: true }),
    ).toMatchObject({ ok: false, error: { field: 'risk.maxOrderValue' } });
    expect(await brokerOrder(r, id)).toMatchObject({ quantity: 10, price: 1450, status: 'OPEN' });

    expect(await r.dispatch('orders.modify', { orderId: id, changes: { quantity: 5 } })).toMatchObject({ ok: true });
    expect((await brokerOrder(r, id)).quantity).toBe(5);
  });

  it('with the loss lock on, an allowed exit modified to more than the position is refused: it would flip it', async () => {
    const r = await startRig();
    await lossLockOn(r, 20);
    const exit = placed(
      await r.dispatch('orders.place', { order: infy({ transactionType: 'SELL', quantity: 20, price: 1400 }) }),
    );
    const flip = await r.dispatch('orders.modify', { orderId: exit, changes: { quantity: 60 } });
    expect(flip).toMatchObject({ ok: false, error: { field: 'risk.dailyLossLimit' } });
    expect((await brokerOrder(r, exit)).quantity).toBe(20);
  });
});

describe('parallel modifications', () => {
  it("with the loss lock on, two exits each modified past what is left at once: one is refused (the first one's growth is reserved)", async () => {
    const r = await startRig();
    await lossLockOn(r, 100);
    const sell = { transactionType: 'SELL' as const, quantity: 30, price: 1400 };
    const a = placed(await r.dispatch('orders.place', { order: infy(sell) }));
    const b = placed(await r.dispatch('orders.place', { order: infy(sell) }));
    // Two windows, at once: each exit to 70 would leave 140 working sells against 100 held.
    const [ra, rb] = await Promise.all([
      r.dispatch('orders.modify', { orderId: a, changes: { quantity: 70 } }),
      r.other('orders.modify', { orderId: b, changes: { quantity: 70 } }),
    ]);
    expect([ra.ok, rb.ok].sort()).toEqual([false, true]);
    const refused = ra.ok ? rb : ra;
    expect(refused).toMatchObject({ ok: false, error: { field: 'risk.dailyLossLimit' } });
    const quantities = [(await brokerOrder(r, a)).quantity, (await brokerOrder(r, b)).quantity].sort();
    expect(quantities).toEqual([30, 70]);
  });

  it('ten modifications of one order at once are applied in the order they came, and the last one wins', async () => {
    const r = await startRig();
    const id = placed(await r.dispatch('orders.place', { order: infy({}) }));
    const prices = Array.from({ length: 10 }, (_, i) => 1440 - i);
    const answers = await Promise.all(
      prices.map((price, i) => (i % 2 ? r.other : r.dispatch)('orders.modify', { orderId: id, changes: { price } })),
    );
    expect(answers.every((x) => x.ok)).toBe(true);
    expect(answers[9]).toMatchObject({ ok: true, data: { state: 'done', action: 'modify', orderId: id } });
    expect(await brokerOrder(r, id)).toMatchObject({ price: 1431, version: 11 });
    const history = await r.dispatch('orders.history', { orderId: id });
    expect(history.ok).toBe(true);
  });
});

describe('parallel clicks count the orders still on their way', () => {
  it('a hard limit of 3 open orders: of 10 clicks at once, 3 are placed and 7 refused, naming the limit', async () => {
    const r = await startRig();
    await setLimits(r, { maxOpenOrders: hard(3) });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => r.dispatch('orders.place', { order: infy({}) })),
    );
    expect(results.filter((x) => x.ok)).toHaveLength(3);
    expect(results.filter((x) => !x.ok).map((x) => !x.ok && x.error.field)).toEqual(
      Array(7).fill('risk.maxOpenOrders'),
    );
    expect(r.paper.orderCount()).toBe(3);
  });

  it('over two connections too: 12 clicks, 3 placed', async () => {
    const r = await startRig();
    await setLimits(r, { maxOpenOrders: hard(3) });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? r.other : r.dispatch)('orders.place', { order: infy({}) })),
    );
    expect(results.filter((x) => x.ok)).toHaveLength(3);
    expect(r.paper.orderCount()).toBe(3);
  });

  it('a hard limit of 5 orders a minute: of 10 clicks at once, 5 are placed', async () => {
    const r = await startRig();
    await setLimits(r, { maxOrdersPerMinute: hard(5) });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => r.dispatch('orders.place', { order: infy({}) })),
    );
    expect(results.filter((x) => x.ok)).toHaveLength(5);
    expect(results.filter((x) => !x.ok).every((x) => !x.ok && x.error.field === 'risk.maxOrdersPerMinute')).toBe(true);
    expect(r.paper.orderCount()).toBe(5);
  });
});

describe('exits that together would flip the position', () => {
  it('long 3,000 with the loss lock on: one SELL 3,000 is an exit; a second and a third, alone or at once, are refused', async () => {
    const r = await startRig();
    await lossLockOn(r, 3_000);
    const exit = infy({ transactionType: 'SELL', quantity: 3_000, price: 1400 }); // above the market: it rests
    placed(await r.dispatch('orders.place', { order: exit }));
    const again = await r.dispatch('orders.place', { order: exit });
    expect(again).toMatchObject({ ok: false, error: { field: 'risk.dailyLossLimit' } });
    const together = await Promise.all([1, 2].map(() => r.dispatch('orders.place', { order: exit })));
    expect(together.every((x) => !x.ok && x.error.field === 'risk.dailyLossLimit')).toBe(true);
    // Half of it is still an exit: 1,500 of the 3,000 left to sell? No — the first exit covers it all.
    expect(await r.dispatch('orders.place', { order: { ...exit, quantity: 1_500 } })).toMatchObject({ ok: false });
    expect(r.paper.orderCount()).toBe(2); // the buy and one exit
  });

  it('two exits sent at once that each fit the position but together flip it: one goes, the other is refused', async () => {
    const r = await startRig();
    await lossLockOn(r, 3_000);
    const exit = infy({ transactionType: 'SELL', quantity: 3_000, price: 1400 });
    const both = await Promise.all([1, 2].map(() => r.dispatch('orders.place', { order: exit })));
    expect(both.filter((x) => x.ok)).toHaveLength(1);
    expect(r.paper.orderCount()).toBe(2);
  });
});

describe('Place again is a new decision', () => {
  it('is judged by the limits in force now: a hard cap it breaks refuses it, naming the limit, and it stays waiting', async () => {
    const r = await startRig();
    // A run journals an intent and dies before sending it.
    placed(await r.dispatch('orders.place', { order: infy({}) }));
    await r.services.close();
    const file = (await readdir(r.dir)).find((f) => f.startsWith('intents-')) ?? 'intents-missing.jsonl';
    const ledger = await IntentsLedger.open(join(r.dir, file));
    await ledger.appendIntent({ clientOrderId: 'td-unsent-big', at: Date.now(), order: infy({ quantity: 500 }) });
    await ledger.close();
    r.services = await createAppServices(r.config);
    r.dispatch = createDispatcher(r.services.handlers, () => undefined);
    const stateOf = async (): Promise<string | undefined> => {
      const list = await r.dispatch('placements.list', undefined);
      return list.ok ? (list.data as Placement[]).find((p) => p.clientOrderId === 'td-unsent-big')?.state : undefined;
    };
    await expect.poll(stateOf, { timeout: 10_000 }).toBe('needs_decision');
    await setLimits(r, { maxOrderValue: hard(1_00_000) });
    const again = await r.dispatch('placements.placeAgain', { clientOrderId: 'td-unsent-big' });
    expect(again).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'risk.maxOrderValue' } });
    expect(await stateOf()).toBe('needs_decision');
    expect(r.paper.orderCount()).toBe(1);
    // Within the limits it goes.
    await setLimits(r, { maxOrderValue: hard(10_00_000) });
    expect(await r.dispatch('placements.placeAgain', { clientOrderId: 'td-unsent-big' })).toMatchObject({ ok: true });
    expect(r.paper.orderCount()).toBe(2);
  });
});

describe('a GTT is judged on what can be known when it is made', () => {
  const gtt = (
    legs: Array<{ transactionType: 'BUY' | 'SELL'; quantity: number; price: number }>,
    triggers: number[],
  ) => ({
    type: legs.length > 1 ? ('oco' as const) : ('single' as const),
    exchange: 'NSE' as const,
    tradingsymbol: 'INFY',
    triggerValues: triggers,
    legs: legs.map((l) => ({ ...l, product: 'MIS' as const })),
  });

  it('a leg over a hard quantity or value limit refuses the GTT, naming the limit; nothing is created', async () => {
    const r = await startRig();
    await setLimits(r, { maxQuantity: hard(50), maxOrderValue: hard(1_00_000) });
    const big = await r.dispatch('gtt.place', {
      gtt: gtt([{ transactionType: 'BUY', quantity: 100, price: 1400 }], [1400]),
    });
    expect(big).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'risk.maxOrderValue' } });
    expect(!big.ok && big.error.message).toMatch(/^Not created: /);
    const list = await r.dispatch('gtt.list', undefined);
    expect(list).toMatchObject({ ok: true, data: [] });
    expect(
      await r.dispatch('gtt.place', { gtt: gtt([{ transactionType: 'BUY', quantity: 10, price: 1400 }], [1400]) }),
    ).toMatchObject({ ok: true });
  });

  it('with the loss lock on, a GTT that would buy more is refused; an OCO exit of the long is not', async () => {
    const r = await startRig();
    await lossLockOn(r, 20);
    const entry = await r.dispatch('gtt.place', {
      gtt: gtt([{ transactionType: 'BUY', quantity: 20, price: 1300 }], [1300]),
    });
    expect(entry).toMatchObject({ ok: false, error: { field: 'risk.dailyLossLimit' } });
    const exits = gtt(
      [
        { transactionType: 'SELL', quantity: 20, price: 1200 },
        { transactionType: 'SELL', quantity: 20, price: 1500 },
      ],
      [1210, 1490],
    );
    expect(await r.dispatch('gtt.place', { gtt: exits })).toMatchObject({ ok: true });
  });
});

describe('what held, and must keep holding', () => {
  it('riskOverride on a hard breach of a new order is refused, naming the limit; nothing reaches the broker', async () => {
    const r = await startRig();
    await setLimits(r, { maxOrderValue: hard(1_00_000) });
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

  it('with the loss lock on, a BUY and a SELL that would flip the long are refused naming the lock, the override too; the exact exit goes', async () => {
    const r = await startRig();
    await lossLockOn(r, 100);
    const before = r.paper.orderCount();
    const lockRefusal = { ok: false, error: { kind: 'bad_request', field: 'risk.dailyLossLimit' } };
    expect(await r.dispatch('orders.place', { order: infy({ quantity: 1 }) })).toMatchObject(lockRefusal);
    const flip = infy({ transactionType: 'SELL', orderType: 'MARKET', price: null, quantity: 150 });
    expect(await r.dispatch('orders.place', { order: flip })).toMatchObject(lockRefusal);
    expect(await r.dispatch('orders.place', { order: flip, riskOverride: true })).toMatchObject(lockRefusal);
    expect(r.paper.orderCount()).toBe(before);
    const exit = infy({ transactionType: 'SELL', orderType: 'MARKET', price: null, quantity: 100 });
    placed(await r.dispatch('orders.place', { order: exit }));
    expect(r.paper.orderCount()).toBe(before + 1);
  });

  it('the same requestId from two pages at once makes one order, and both are answered with it', async () => {
    const r = await startRig();
    const order = infy({});
    const [a, b] = await Promise.all([
      r.dispatch('orders.place', { order, requestId: 'click-two-pages' }, 'page-a'),
      r.other('orders.place', { order, requestId: 'click-two-pages' }, 'page-b'),
    ]);
    expect(a).toMatchObject({ ok: true, data: { state: 'placed', orderId: expect.any(String) } });
    expect(b).toEqual(a);
    expect(r.paper.orderCount()).toBe(1);
    // Asked again later, from either page: the same answer, still one order.
    expect(await r.other('orders.place', { order, requestId: 'click-two-pages' }, 'page-b')).toEqual(a);
    expect(r.paper.orderCount()).toBe(1);
  });
});

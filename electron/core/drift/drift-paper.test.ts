import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import type { DriftStatus } from '@shared/domain/drift';
import { IntentsLedger } from '../ledger/intents-ledger';
import type { TradingCore } from '../trading-core';
import { marketBuy, startCoreFixture, type CoreFixture } from '../testing/core-fixture';

/** Another terminal on the same account: its own session, its own order, straight to the paper broker's HTTP API. */
async function placeElsewhere(
  baseUrl: string,
  order: { tradingsymbol: string; price: number },
): Promise<{ order_id: string }> {
  const session = await fetch(`${baseUrl}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: 'paper', api_secret: 'paper' }),
  });
  const { access_token: token } = (await session.json()) as { access_token: string };
  const placed = await fetch(`${baseUrl}/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      exchange: 'NSE',
      tradingsymbol: order.tradingsymbol,
      transaction_type: 'BUY',
      quantity: 3,
      order_type: 'LIMIT',
      price: order.price,
      product: 'MIS',
      validity: 'DAY',
      client_order_id: 'other-terminal-1',
    }),
  });
  expect(placed.status).toBe(201);
  return (await placed.json()) as { order_id: string };
}

describe('the drift alarm against the real paper broker', () => {
  let fx: CoreFixture;
  let core: TradingCore;

  beforeAll(async () => {
    fx = await startCoreFixture({ rate: { perSecond: 100_000, burst: 100_000 } });
    // The alarm's own timer never fires: the test runs each check itself.
    core = await fx.newCore({ rate: null, drift: { setTimer: () => () => undefined } });
    await core.start();
  });
  afterAll(async () => fx.close());

  it("the desk's own filled order raises nothing; an order placed by another terminal is named on the second check", async () => {
    const instruments = await core.broker.listInstruments();
    const order = marketBuy(instruments);
    await core.catalog.find(order.exchange, order.tradingsymbol);
    expect(await core.orders.place(order)).toMatchObject({ state: 'placed' });
    await core.drift.check();
    expect(await core.drift.check()).toMatchObject({ findings: [], suspected: 0, failure: null });

    const [quote] = await core.broker.getQuotes([
      instruments.find((i) => i.tradingsymbol === order.tradingsymbol)!.instrumentToken,
    ]);
    const price = Math.max(quote!.lowerCircuit, Math.round(quote!.lastPrice * 0.9));
    const { order_id: orderId } = await placeElsewhere(fx.paper.url, { tradingsymbol: order.tradingsymbol, price });

    expect(await core.drift.check()).toMatchObject({ findings: [], suspected: 1 });
    const raised = await core.drift.check();
    expect(raised.findings.map((f) => [f.kind, f.orderId, f.message])).toEqual([
      ['outside_order', orderId, `Order ${orderId} for ${order.tradingsymbol} (BUY 3) was placed outside Tradedesk`],
    ]);
  });

  it('a check whose reads fail says when it could not check, and keeps the finding', async () => {
    const before = core.drift.status();
    expect(before.findings).toHaveLength(1);
    fx.paper.setFaults('server_error=1');
    try {
      const failed = await core.drift.check();
      expect(failed.failure).toMatch(/^Could not check at \d\d:\d\d IST: /);
      expect(failed.findings).toEqual(before.findings);
    } finally {
      fx.paper.setFaults({});
    }
    const again = await core.drift.check();
    expect(again).toMatchObject({ failure: null, findings: [{ kind: 'outside_order' }] });
    expect(core.drift.acknowledge(again.findings[0]!.id).findings).toEqual([]);
    expect(await core.drift.check()).toMatchObject({ findings: [], suspected: 0 });
  });

  it('a check runs at login and again after the stream reconnects, with no timer firing', async () => {
    const seen: DriftStatus[] = [];
    const streaming = await fx.newCore({
      rate: null,
      stream: true,
      drift: { setTimer: () => () => undefined },
      events: { onDrift: (s) => seen.push(s) },
    });
    const checksBegun = (): number => seen.filter((s) => s.checking).length;
    await streaming.start();
    await expect.poll(() => streaming.connection().stream, { timeout: 10_000 }).toBe('open');
    await expect.poll(() => seen.at(-1)?.checking).toBe(false);
    const beforeCut = checksBegun();
    expect(beforeCut).toBeGreaterThanOrEqual(1);

    expect(fx.paper.setStreamAccepting(false)).toBeGreaterThan(0);
    await expect.poll(() => streaming.connection().stream, { timeout: 10_000 }).not.toBe('open');
    fx.paper.setStreamAccepting(true);
    await expect.poll(() => streaming.connection().stream, { timeout: 20_000 }).toBe('open');
    await expect.poll(checksBegun, { timeout: 10_000 }).toBeGreaterThan(beforeCut);
  });

  it("an order whose reply was lost, before any lookup of it, is the desk's own: no alarm", async () => {
    let n = 0;
    const slow = await fx.newCore({
      rate: null,
      drift: { setTimer: () => () => undefined },
      // A reference not in the desk's usual form: only the journal can say it is the desk's.
      newClientOrderId: () => `own-${++n}`,
      placementTimings: { answerDeadlineMs: 300, lookupPacingMs: [60_000] },
    });
    await slow.start();
    await slow.drift.check();
    const known = new Set((await slow.drift.check()).findings.map((f) => f.id));
    const order = marketBuy(await slow.broker.listInstruments());
    await slow.catalog.find(order.exchange, order.tradingsymbol);
    const before = fx.paper.orderCount();
    fx.paper.setFaults('drop_reply=1');
    let answer;
    try {
      answer = await slow.orders.place(order);
    } finally {
      fx.paper.setFaults({});
    }
    expect(answer).toMatchObject({ state: 'unconfirmed', clientOrderId: 'own-1' });
    expect(fx.paper.orderCount() - before).toBe(1);
    await slow.drift.check();
    const after = await slow.drift.check();
    // No lookup was made, yet the drift check's own read of the orders showed it under its
    // reference, and main settles a placement from any order its book takes (docs/money-path.md).
    expect(slow.orders.placements().map((p) => p.state)).toEqual(['placed']);
    expect(after.findings.filter((f) => !known.has(f.id))).toEqual([]);
    expect(after.suspected).toBe(0);
  });
});

describe('the drift alarm and GTT orders', () => {
  let fx: CoreFixture;
  afterAll(async () => fx.close());

  it('an order a GTT placed when it fired is the GTT’s, not "placed outside Tradedesk", on every check', async () => {
    fx = await startCoreFixture({ rate: { perSecond: 100_000, burst: 100_000 } });
    const core = await fx.newCore({ rate: null, drift: { setTimer: () => () => undefined } });
    await core.start();
    const infy = (await core.broker.listInstruments()).find((i) => i.exchange === 'NSE' && i.tradingsymbol === 'INFY');
    fx.paper.setPrice(infy!.instrumentToken, 1500);
    const outcome = await core.gtt.place({
      type: 'single',
      exchange: 'NSE',
      tradingsymbol: 'INFY',
      triggerValues: [1520],
      legs: [{ transactionType: 'BUY', quantity: 1, product: 'MIS', price: 1521 }],
    });
    expect(outcome).toMatchObject({ state: 'placed' });

    fx.paper.setPrice(infy!.instrumentToken, 1525);
    const fired = await vi.waitFor(async () => {
      const [gtt] = await core.gtt.list();
      expect(gtt).toMatchObject({ status: 'triggered' });
      return gtt!.legs[0]!.orderId;
    });
    expect((await core.broker.listOrders()).map((o) => o.orderId)).toContain(fired);

    await core.drift.check();
    expect(await core.drift.check()).toMatchObject({ findings: [], suspected: 0, failure: null });
  });
});

describe('the drift alarm and orders the desk said were not placed', () => {
  let fx: CoreFixture;
  afterAll(async () => fx.close());

  it('an order that appears under a reference the trader discarded (told "nothing was sent") is named, with the reference', async () => {
    fx = await startCoreFixture({ rate: { perSecond: 100_000, burst: 100_000 } });
    const probe = await fx.newCore({ rate: null });
    await probe.start();
    const order = marketBuy(await probe.broker.listInstruments());
    const ledger = await IntentsLedger.open(join(fx.dir, 'intents-paper.jsonl'));
    await ledger.appendIntent({ clientOrderId: 'td-gone-0001', at: Date.now(), order });
    await ledger.close();

    const core = await fx.newCore({
      rate: null,
      drift: { setTimer: () => () => undefined },
      placementTimings: { resendWindowMs: 300, landingHorizonMs: 300 },
    });
    await core.start();
    await core.recovery();
    expect(await core.orders.discard('td-gone-0001')).toMatchObject({ state: 'discarded' });

    const late = await probe.broker.placeOrder({ ...order, clientOrderId: 'td-gone-0001' });
    await core.drift.check();
    const raised = await core.drift.check();
    expect(raised.findings.map((f) => f.message)).toEqual([
      `Order ${late.orderId} for ${order.tradingsymbol} (BUY ${order.quantity}) carries reference td-gone-0001, which Tradedesk reported as not placed`,
    ]);
  });
});

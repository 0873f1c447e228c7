import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IntentsLedger } from '../ledger/intents-ledger';
import { marketBuy, startCoreFixture, type CoreFixture } from '../testing/core-fixture';
import type { TradingCore } from '../trading-core';

/** A started core whose next client reference is `nextId()`'s, and a valid order. */
async function coreWithIds(fx: CoreFixture, nextId: () => string) {
  const core = await fx.newCore({
    rate: null,
    newClientOrderId: nextId,
    placementTimings: { answerDeadlineMs: 1_000 },
  });
  await core.start();
  const order = marketBuy(await core.broker.listInstruments());
  await core.catalog.find(order.exchange, order.tradingsymbol);
  return { core, order };
}

/** Runs `after` once the core's next POST has been answered (or failed), before main sees it. */
function afterNextPost(core: TradingCore, after: () => void): void {
  const place = core.broker.placeOrder.bind(core.broker);
  core.broker.placeOrder = async (...args) => {
    try {
      return await place(...args);
    } finally {
      core.broker.placeOrder = place;
      after();
    }
  };
}

describe('answers the order service gives in the awkward cases', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('a 409 naming the order, then a failed read of that order → placed with that order id (status unknown), not an error', async () => {
    fx = await startCoreFixture();
    const { core, order } = await coreWithIds(fx, () => 'td-dup-0001');
    // The reference is already on the broker (a deduplicating broker answers 409 for it)…
    const existing = await core.broker.placeOrder({ ...order, clientOrderId: 'td-dup-0001' });
    // …and every read now fails with a 5xx.
    fx.paper.setFaults('late_server_error=1');
    const outcome = await core.orders.place(order);
    fx.paper.setFaults({});
    expect(outcome).toEqual({
      state: 'placed',
      orderId: existing.orderId,
      clientOrderId: 'td-dup-0001',
      status: null,
      recovered: true,
    });
    expect(fx.paper.orderCount()).toBe(1);
    expect(core.orders.openIntents()).toBe(0);
  });

  it('a 2xx whose body does not parse → one lookup by reference settles it as placed, and nothing is sent again', async () => {
    fx = await startCoreFixture();
    const { core, order } = await coreWithIds(fx, () => 'td-shape-0001');
    fx.paper.setFaults('shape_change=1'); // the POST's 201 comes back with a renamed field
    afterNextPost(core, () => fx.paper.setFaults({}));
    const sent = core.stats.sent;
    const outcome = await core.orders.place(order);
    const requests = core.stats.sent - sent;
    const held = await core.broker.findOrders('td-shape-0001');
    expect(outcome).toEqual({
      state: 'placed',
      orderId: held[0]?.orderId,
      clientOrderId: 'td-shape-0001',
      status: held[0]?.status,
      recovered: true,
    });
    expect(held).toHaveLength(1);
    expect(requests).toBe(2); // the POST, then one lookup
  });

  it('a 401 on the lookups after a lost reply keeps the intent checking (answered unconfirmed, never refused); after a re-login the lookup finds it placed', async () => {
    fx = await startCoreFixture();
    const { core, order } = await coreWithIds(fx, () => 'td-auth-0001');
    fx.paper.setFaults('drop_reply=1'); // the POST is committed, its reply lost
    afterNextPost(core, () => fx.paper.setFaults('token_expiry=1')); // and every lookup meets a 401
    const outcome = await core.orders.place(order);
    expect(outcome).toMatchObject({ state: 'unconfirmed', clientOrderId: 'td-auth-0001' });
    expect(core.session.info().state).toBe('expired');
    expect(core.orders.placements()).toMatchObject([{ clientOrderId: 'td-auth-0001', state: 'checking' }]);

    fx.paper.setFaults({});
    await core.session.login({ apiKey: 'paper', apiSecret: 'paper' });
    await expect.poll(() => core.orders.placements()[0]?.state, { timeout: 10_000 }).toBe('placed');
    expect(fx.paper.orderCount()).toBe(1);
  });

  it('a lost reply and every read failing: the stream’s push of the order carrying the reference settles it as placed, with no lookup needed', async () => {
    fx = await startCoreFixture();
    const core = await fx.newCore({
      rate: null,
      stream: true,
      newClientOrderId: () => 'td-push-0001',
      placementTimings: { answerDeadlineMs: 1_000 },
    });
    await core.start();
    const order = marketBuy(await core.broker.listInstruments());
    await core.catalog.find(order.exchange, order.tradingsymbol);
    await expect.poll(() => core.connection().stream, { timeout: 10_000 }).toBe('open');
    fx.paper.setFaults('drop_reply=1'); // the POST is committed, its reply lost
    afterNextPost(core, () => fx.paper.setFaults('late_server_error=1')); // and every read after it fails
    const outcome = await core.orders.place(order);
    // Placed at once when the push beats the answer deadline, else settled by it afterwards.
    const known = (): string | null => {
      if (outcome.state === 'placed') return outcome.orderId;
      const p = core.orders.placements().find((x) => x.clientOrderId === 'td-push-0001');
      return p?.state === 'placed' ? (p.orderId ?? null) : null;
    };
    await expect.poll(known, { timeout: 10_000 }).not.toBeNull();
    fx.paper.setFaults({});
    const held = await core.broker.findOrders('td-push-0001');
    expect(held).toHaveLength(1);
    expect(known()).toBe(held[0]?.orderId);
  });

  it('an intent left by a restart and confirmed absent waits for the trader, until the stream shows an order with its reference: then it is placed, so "Place again" cannot make a second', async () => {
    fx = await startCoreFixture();
    const probe = await fx.newCore({ rate: null });
    await probe.start();
    const order = marketBuy(await probe.broker.listInstruments());
    const ledger = await IntentsLedger.open(join(fx.dir, 'intents-paper.jsonl'));
    await ledger.appendIntent({ clientOrderId: 'td-late-0001', at: Date.now(), order });
    await ledger.close();

    const core = await fx.newCore({
      rate: null,
      stream: true,
      placementTimings: { resendWindowMs: 300, landingHorizonMs: 300 },
    });
    await core.start();
    await core.recovery();
    expect(core.orders.placements()).toMatchObject([{ clientOrderId: 'td-late-0001', state: 'needs_decision' }]);
    await expect.poll(() => core.connection().stream, { timeout: 10_000 }).toBe('open');

    // The broker shows the order after all (it was slow to land, or placed from elsewhere with it).
    const late = await probe.broker.placeOrder({ ...order, clientOrderId: 'td-late-0001' });
    await expect
      .poll(() => core.orders.placements().find((p) => p.clientOrderId === 'td-late-0001')?.state, { timeout: 10_000 })
      .toBe('placed');
    expect(core.orders.placements()).toMatchObject([{ orderId: late.orderId }]);
    expect(core.orders.openIntents()).toBe(0);
    await expect(core.orders.placeAgain('td-late-0001')).rejects.toThrow(/not waiting for a decision/);
    expect(fx.paper.orderCount()).toBe(1);
  });
});

describe('the answer deadline on a machine whose timers wake late', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('broker down: the caller is told "Not sent" even when the driver wakes at the deadline before the caller does, and nothing is sent after that answer', async () => {
    fx = await startCoreFixture();
    // Long waits (the caller's wait for its answer) wake 40 ms late, short ones on time: the
    // order in which two timers due at the same moment fire is the machine's, not ours.
    const lateClock = {
      now: () => Date.now(),
      sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms >= 500 ? ms + 40 : ms)),
    };
    const core = await fx.newCore({
      rate: null,
      newClientOrderId: () => 'td-late-0001',
      placementTimings: { answerDeadlineMs: 1_000 },
      orderClock: lateClock,
    });
    await core.start();
    const order = marketBuy(await core.broker.listInstruments());
    await core.catalog.find(order.exchange, order.tradingsymbol);
    await fx.paper.close(); // every send is refused a connection: nothing can be created
    // A send started after the deadline stays on its way until released (a slow connect).
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const sentAfterAnswer: number[] = [];
    let answered = false;
    const place = core.broker.placeOrder.bind(core.broker);
    const started = Date.now();
    core.broker.placeOrder = async (...args) => {
      if (answered) sentAfterAnswer.push(Date.now());
      if (Date.now() >= started + 1_000) await gate;
      return place(...args);
    };
    const outcome = await core.orders.place(order).then(
      (o) => o,
      (err: unknown) => err,
    );
    answered = true;
    release();
    await core.orders.idle();
    expect(outcome).toMatchObject({ info: { kind: 'network', message: expect.stringMatching(/Not sent/) } });
    expect(sentAfterAnswer).toEqual([]);
    expect(core.orders.openIntents()).toBe(0);
  });
});

describe('the answer deadline when refused connects are slow', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('broker down and each refused connect taking 500 ms: no attempt is started that would still be on its way at the deadline, so the caller is told "Not sent"', async () => {
    fx = await startCoreFixture();
    const { core, order } = await coreWithIds(fx, () => 'td-slow-0001');
    await fx.paper.close(); // every send is refused a connection: nothing can be created
    const place = core.broker.placeOrder.bind(core.broker);
    core.broker.placeOrder = async (...args) => {
      await new Promise((resolve) => setTimeout(resolve, 500)); // a loaded machine's slow refusal
      return place(...args);
    };
    const outcome = await core.orders.place(order).then(
      (o) => o,
      (err: unknown) => err,
    );
    await core.orders.idle();
    expect(outcome).toMatchObject({ info: { kind: 'network', message: expect.stringMatching(/Not sent/) } });
    expect(core.orders.openIntents()).toBe(0);
  });
});

describe('a lookup that was on its way when a send ended', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('a broker without unique references: a slow POST that lands (and answers 5xx) after a lookup found nothing, within the same millisecond, is found by the next lookup, not sent again', async () => {
    fx = await startCoreFixture({ idempotency: false });
    // The clock stands still from the POST's start until the lookup's answer is taken: the
    // lookup starts and the send ends in one millisecond, as they can on a busy machine.
    let frozenAt: number | null = null;
    const core = await fx.newCore({
      rate: null,
      newClientOrderId: () => 'td-overlap-0001',
      orderClock: { now: () => frozenAt ?? Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) },
    });
    await core.start();
    const order = marketBuy(await core.broker.listInstruments());
    await core.catalog.find(order.exchange, order.tradingsymbol);

    const place = core.broker.placeOrder.bind(core.broker);
    const find = core.broker.findOrders.bind(core.broker);
    let lookupAnswered: () => void = () => undefined;
    const lookupGate = new Promise<void>((resolve) => (lookupAnswered = resolve));
    let postEnded: () => void = () => undefined;
    const postGate = new Promise<void>((resolve) => (postEnded = resolve));
    // The POST is slow to reach the broker: the order service starts looking it up meanwhile;
    // it lands only after that lookup was served, and its reply is a 5xx after the commit.
    core.broker.placeOrder = async (cmd, options) => {
      core.broker.placeOrder = place;
      frozenAt = Date.now();
      options?.onSlow?.();
      await lookupGate;
      fx.paper.setFaults('late_server_error=1');
      try {
        return await place(cmd, options);
      } finally {
        fx.paper.setFaults({});
        setTimeout(postEnded, 0); // after the order service has taken the POST's end
      }
    };
    core.broker.findOrders = async (ref) => {
      core.broker.findOrders = find;
      const found = await find(ref); // served before the POST lands: nothing yet
      lookupAnswered();
      await postGate;
      frozenAt = null;
      return found;
    };

    const outcome = await core.orders.place(order);
    await core.orders.idle();
    expect(fx.paper.orderCount()).toBe(1);
    expect(outcome).toMatchObject({ state: 'placed', clientOrderId: 'td-overlap-0001' });
  });
});

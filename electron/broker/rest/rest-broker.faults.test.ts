import { afterEach, describe, expect, it } from 'vitest';
import { roundToTick } from '@shared/trading/money';
import { marketBuy, pool, startCoreFixture, type CoreFixture } from '../../core/testing/core-fixture';
import { failure } from '../../core/testing/dialects';

describe('REST client against the paper broker with faults', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('shape_change: a 2xx list or funds reply with a renamed field is unexpected_shape, never a list or figures', async () => {
    fx = await startCoreFixture();
    const core = await fx.newCore();
    await core.start();
    fx.paper.setFaults('shape_change=1');
    expect((await failure(core.broker.listOrders())).kind).toBe('unexpected_shape');
    expect((await failure(core.broker.getFunds())).kind).toBe('unexpected_shape');
  });

  it('a burst of reads stays under the broker limit with the client bucket on', async () => {
    fx = await startCoreFixture(); // paper defaults: 10/s, burst 20
    const core = await fx.newCore(); // client default: 8/s, burst 16
    await core.start();
    const tokens = (await core.broker.listInstruments()).slice(0, 30).map((i) => i.instrumentToken);
    const results = await pool(tokens.length, tokens.length, (i) =>
      core.broker.getCandles(tokens[i] ?? 0, { interval: 'day' }),
    );
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(core.stats.rateLimited).toBe(0);
  });

  it('a quick run of placements is paced under the broker order limit, never refused with 429', async () => {
    fx = await startCoreFixture(); // paper defaults: POST /orders 10/s, burst 10
    const core = await fx.newCore(); // client defaults: placements 8/s, burst 8
    await core.start();
    const order = marketBuy(await core.broker.listInstruments());
    const before = fx.paper.orderCount();
    const results = await pool(20, 20, () => core.orders.place(order));
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(fx.paper.orderCount() - before).toBe(20);
    expect(core.stats.rateLimited).toBe(0);
  });

  it('without the client bucket, a burst of reads over the broker limit meets 429s and still succeeds by honouring Retry-After', async () => {
    // A tight broker limit (4/s, burst 8), so a burst of 16 reads meets 429s however slowly
    // this machine serves candles; a read budget long enough for them all: this is about
    // honouring Retry-After, not about giving up.
    fx = await startCoreFixture({ rate: { perSecond: 4, burst: 8 } });
    const core = await fx.newCore({ rate: null, readBudgetMs: 30_000 });
    await core.start();
    const tokens = (await core.broker.listInstruments()).slice(0, 16).map((i) => i.instrumentToken);
    const results = await pool(tokens.length, tokens.length, (i) =>
      core.broker.getCandles(tokens[i] ?? 0, { interval: 'day' }),
    );
    expect(results.filter((r) => r.status === 'rejected').map((r) => String(r.reason))).toEqual([]);
    expect(core.stats.rateLimited).toBeGreaterThan(0);
  });

  it('recovers from a forced 429 storm: it pauses between tries (fewer than five refused in the storm, each followed by a wait), then the read succeeds', async () => {
    fx = await startCoreFixture();
    const core = await fx.newCore();
    await core.start();
    await core.catalog.find('NSE', 'INFY'); // the login's background reads are done
    fx.paper.setFaults('rate_limit=1'); // every request: 429, Retry-After: 1
    const sentBefore = core.stats.sent;
    const read = core.broker.getFunds();
    // Two refusals seen means the client waited one Retry-After and tried again.
    await expect.poll(() => core.stats.rateLimited, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    fx.paper.setFaults({});
    const funds = await read;
    expect(funds.availableCash).toBeGreaterThan(0);
    // Every request was a refused try followed by its wait, plus the one that succeeded: a
    // client ignoring Retry-After would have sent dozens in the same time on loopback.
    expect(core.stats.sent - sentBefore).toBe(core.stats.rateLimited + 1);
    expect(core.stats.rateLimited).toBeLessThan(5);
  });

  it('one Retry-After: 3600 on a poll pauses polls for 30 s at most, and a cancel still goes out at once', async () => {
    fx = await startCoreFixture();
    const core = await fx.newCore(); // client bucket on: a 429 pauses it
    await core.start();
    await core.catalog.find('NSE', 'INFY'); // the login's background reads are done
    const instruments = await core.broker.listInstruments();
    const order = marketBuy(instruments);
    const eq = instruments.find((i) => i.tradingsymbol === order.tradingsymbol);
    const under = roundToTick((eq?.lastPrice ?? 0) * 0.95, eq?.tickSize ?? 0.05);
    const resting = await core.broker.placeOrder({
      ...order,
      orderType: 'LIMIT',
      price: under,
      clientOrderId: 'rest-1',
    });
    expect(resting.status).toBe('OPEN');
    fx.paper.setFaults('rate_limit=1,retry_after_s=3600');
    const poll = await failure(core.broker.getFunds());
    fx.paper.setFaults({});
    // The poll gave up with the capped pause, instead of waiting an hour (or 30 s) for it.
    expect(poll).toMatchObject({ kind: 'rate_limited', retryAfterMs: 30_000 });
    // The next poll gives up at once without a request: the pause is in force…
    const sent = core.stats.sent;
    expect((await failure(core.broker.getFunds())).kind).toBe('rate_limited');
    expect(core.stats.sent).toBe(sent);
    // …and yet the cancel is not held by it.
    const cancelled = await core.broker.cancelOrder(resting.orderId);
    expect(cancelled.status).toBe('CANCELLED');
  });

  it('a token that expires mid-session costs one re-login and the call still succeeds', async () => {
    fx = await startCoreFixture({ tokenTtlMs: 300 });
    const core = await fx.newCore();
    await core.start();
    const sessionsBefore = fx.paper.sessions().length;
    // Wait until the broker's own expiry time (whole seconds, so +1 s) has certainly passed.
    await expect
      .poll(() => fx.paper.sessions().every((s) => Date.parse(s.expiresAt) + 1_000 < Date.now()), { timeout: 5_000 })
      .toBe(true);
    const list = await core.broker.listPositions();
    expect(Array.isArray(list)).toBe(true);
    expect(core.stats.relogins).toBe(1);
    expect(fx.paper.sessions().length).toBe(sessionsBefore + 1);
    expect(core.session.info().state).toBe('connected');
  });

  it('a 401 that survives the re-login ends the session once, with session.expired', async () => {
    fx = await startCoreFixture();
    const expired: string[] = [];
    const core = await fx.newCore({ events: { onSessionExpired: (r) => expired.push(r) } });
    await core.start();
    await core.catalog.find('NSE', 'INFY'); // the instrument list loaded at login, before the fault
    fx.paper.setFaults('token_expiry=1');
    expect((await failure(core.broker.listPositions())).kind).toBe('unauthorized');
    fx.paper.setFaults({});
    expect(core.stats.relogins).toBe(1);
    expect(expired).toHaveLength(1);
    expect(core.session.info().state).toBe('expired');
    expect(core.session.token()).toBeNull();
    // Nothing more is sent with a dead session.
    const sent = core.stats.sent;
    expect((await failure(core.broker.listPositions())).kind).toBe('unauthorized');
    expect(core.stats.sent).toBe(sent);
  });

  it('a read-scope token gets forbidden on writes, without a retry', async () => {
    fx = await startCoreFixture();
    const core = await fx.newCore({ credentials: { apiKey: 'paper', apiSecret: 'paper', scope: 'read' } });
    await core.start();
    expect(core.session.info().scope).toBe('read');
    const order = marketBuy(await core.broker.listInstruments());
    await core.catalog.find(order.exchange, order.tradingsymbol);
    const before = fx.paper.orderCount();

    let sent = core.stats.sent;
    expect((await failure(core.orders.place(order))).kind).toBe('forbidden');
    expect(core.stats.sent - sent).toBe(1);
    sent = core.stats.sent;
    expect((await failure(core.broker.cancelOrder('no-such-order'))).kind).toBe('forbidden');
    expect((await failure(core.broker.modifyOrder('no-such-order', { quantity: 2 }))).kind).toBe('forbidden');
    expect(core.stats.sent - sent).toBe(2);
    expect(fx.paper.orderCount()).toBe(before);
    expect(core.openIntents()).toBe(0);
  });
});

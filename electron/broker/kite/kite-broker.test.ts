import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startKiteTest, type KiteTest } from '../../paper/kite/test-kite';
import type { AuthSource } from '../auth-source';
import { LimitReached } from '../broker-error';
import { HttpClient } from '../http/http-client';
import { TokenBucket } from '../http/token-bucket';
import { WindowPacer } from '../http/window-pacer';
import { steppedClock } from '../testing/stepped-clock';
import { RestTransport } from '../rest/rest-transport';
import { KiteBroker, kiteTransportOptions } from './kite-broker';
import { kiteTag } from './kite-tag';
import { failure } from '../../core/testing/dialects';
import { limitBuyInfy } from '../testing/orders';

/** The token holder the session manager is in the app: here it only records what it is told. */
class TestAuth implements AuthSource {
  public current: string | null = null;
  public expiries: string[] = [];
  public token(): string | null {
    return this.current;
  }
  public renew(): Promise<string | null> {
    return Promise.resolve(null);
  }
  public expired(reason: string): void {
    this.expiries.push(reason);
    this.current = null;
  }
}

let t: KiteTest;
let auth: TestAuth;
let broker: KiteBroker;

function newBroker(a: AuthSource): { broker: KiteBroker; transport: RestTransport } {
  const tr = new RestTransport(new HttpClient(t.root), a, null, {
    ...kiteTransportOptions('paper'),
    backoff: { baseMs: 1, capMs: 5, maxRetries: 3 },
  });
  return {
    broker: new KiteBroker(t.root, 'Kite (paper)', 'paper', tr, a, { sleep: () => Promise.resolve() }),
    transport: tr,
  };
}

async function requestToken(): Promise<string> {
  return (await t.loginRedirect()).searchParams.get('request_token') ?? '';
}

beforeAll(async () => {
  t = await startKiteTest();
  auth = new TestAuth();
  ({ broker } = newBroker(auth));
  const grant = await broker.login({ apiKey: 'paper', apiSecret: 'paper', requestToken: await requestToken() });
  auth.current = grant.accessToken;
  t.api.broker.setPrice((await t.api.instrument('NSE', 'INFY')).instrument_token, 1500);
});
afterAll(async () => {
  await broker.close();
  await t.close();
});

const limitBuy = limitBuyInfy(1450);

describe('Kite adapter against the paper broker’s /kite (docs/kite.md)', () => {
  it('login exchanges the request token (checksum with the secret) for a token that expires at the next 06:00 IST', async () => {
    const a = new TestAuth();
    const { broker: b } = newBroker(a);
    const grant = await b.login({ apiKey: 'paper', apiSecret: 'paper', requestToken: await requestToken() });
    expect(grant.userId).toBe('PAPER01');
    expect(grant.expiresAt).toMatch(/T06:00:00\+05:30$/);
    await b.close();
  });

  it('a wrong api_secret is refused as unauthorized, and a pasted access token is checked against the profile', async () => {
    const a = new TestAuth();
    const { broker: b } = newBroker(a);
    const refused = await failure(b.login({ apiKey: 'paper', apiSecret: 'wrong', requestToken: await requestToken() }));
    expect(refused.kind).toBe('unauthorized');
    const pasted = await b.login({ apiKey: 'paper', apiSecret: '', accessToken: auth.current ?? '' });
    expect(pasted).toMatchObject({ userId: 'PAPER01', accessToken: auth.current });
    expect((await failure(b.login({ apiKey: 'paper', apiSecret: '', accessToken: 'not-a-token' }))).kind).toBe(
      'unauthorized',
    );
    await b.close();
  });

  it('places with the derived tag and finds the order again by its client reference, order id a string', async () => {
    const ack = await broker.placeOrder({ ...limitBuy, clientOrderId: 'td-conformance-find-1' });
    expect(typeof ack.orderId).toBe('string');
    expect((await t.api.order(ack.orderId)).client_order_id).toBe(kiteTag('td-conformance-find-1'));
    const found = await broker.findOrders('td-conformance-find-1');
    expect(found.map((o) => o.orderId)).toEqual([ack.orderId]);
    expect(found[0]).toMatchObject({ clientOrderId: 'td-conformance-find-1', status: 'OPEN', price: 1450 });
    expect(await broker.findOrders('td-never-placed')).toEqual([]);
  });

  it('a lookup by reference is sent on its own, never merged into a poll of the same order book', async () => {
    const a = new TestAuth();
    a.current = auth.current;
    const { broker: b, transport: tr } = newBroker(a);
    await Promise.all([b.listOrders(), b.findOrders('td-not-merged'), b.listOrders()]);
    expect(tr.stats.sent).toBe(2);
    expect(tr.stats.coalesced).toBe(1);
    await b.close();
  });

  it('lookups of several placements that queue for the client limit share one read of the order book, each finding its own order', async () => {
    const refs = ['td-shared-read-1', 'td-shared-read-2', 'td-shared-read-3', 'td-shared-read-4'];
    const ids = await Promise.all(
      refs.map(async (r) => (await broker.placeOrder({ ...limitBuy, clientOrderId: r })).orderId),
    );
    const clock = steppedClock();
    // The app's client limit, its one token spent: every lookup below waits for the refill.
    const bucket = new TokenBucket({ perSecond: 8, burst: 1 }, clock, { reserves: false });
    await bucket.take('urgent');
    const tr = new RestTransport(new HttpClient(t.root), auth, bucket, kiteTransportOptions('paper'));
    const b = new KiteBroker(t.root, 'Kite (paper)', 'paper', tr, auth);
    const lookups = Promise.all(refs.map((r) => b.findOrders(r)));
    await clock.advance(1_000);
    const found = await lookups;
    expect(found.map((f) => f.map((o) => o.orderId))).toEqual(ids.map((id) => [id]));
    expect(tr.stats.sent).toBe(1);
    // A lookup asked once that read has left is sent on its own: it must see what happened since.
    const later = b.findOrders(refs[0] ?? '');
    await clock.advance(1_000);
    expect((await later).map((o) => o.orderId)).toEqual([ids[0]]);
    expect(tr.stats.sent).toBe(2);
    await b.close();
  });

  it('a MARKET order carries market_protection (automatic by default), so Kite accepts it and holds it as a protected LIMIT', async () => {
    const ack = await broker.placeOrder({ ...limitBuy, orderType: 'MARKET', price: null, clientOrderId: 'td-mkt-1' });
    const order = await broker.getOrder(ack.orderId);
    expect(order).toMatchObject({ orderType: 'LIMIT', price: 1530, marketProtection: { percent: 2, automatic: true } });
  });

  it('modifies and cancels through the variety path; the history shows the interim statuses as working', async () => {
    const ack = await broker.placeOrder({ ...limitBuy, clientOrderId: 'td-modify-1' });
    await broker.modifyOrder(ack.orderId, { price: 1440 });
    expect((await broker.getOrder(ack.orderId)).price).toBe(1440);
    const cancelled = await broker.cancelOrder(ack.orderId);
    expect(cancelled).toMatchObject({ orderId: ack.orderId, status: 'CANCELLED' });
    const history = await broker.orderHistory(ack.orderId);
    expect(history[0]).toMatchObject({ status: 'OPEN', message: 'PUT ORDER REQ RECEIVED' });
    expect(history.at(-1)?.status).toBe('CANCELLED');
  });

  it('a cancel repeated, or of an order that has filled, answers the order’s settled state, not a failure', async () => {
    const ack = await broker.placeOrder({ ...limitBuy, clientOrderId: 'td-cancel-twice' });
    expect(await broker.cancelOrder(ack.orderId)).toMatchObject({ status: 'CANCELLED' });
    expect(await broker.cancelOrder(ack.orderId)).toEqual({ orderId: ack.orderId, status: 'CANCELLED' });
    const filled = await broker.placeOrder({
      ...limitBuy,
      orderType: 'MARKET',
      price: null,
      clientOrderId: 'td-cancel-fill',
    });
    expect(await broker.cancelOrder(filled.orderId)).toEqual({ orderId: filled.orderId, status: 'COMPLETE' });
  });

  it('a cancel once the day’s order writes are used up is refused at once, naming the cap: no wait until the day ends', async () => {
    // The client's own count of Kite's orders a day (docs/kite.md §Limits), shrunk to one.
    const pacer = new WindowPacer(
      [{ limit: 100, ms: 1_000 }],
      { limit: 1, dayOf: () => 'today', endOf: (t) => t + 3_600_000, label: 'Kite allows 1 order a day' },
      { now: () => performance.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) },
    );
    const tr = new RestTransport(new HttpClient(t.root), auth, null, {
      ...kiteTransportOptions('paper'),
      placementBucket: pacer,
    });
    const capped = new KiteBroker(t.root, 'Kite (paper)', 'paper', tr, auth);
    const ack = await capped.placeOrder({ ...limitBuy, clientOrderId: 'td-day-cap' });
    const err = await capped.cancelOrder(ack.orderId).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LimitReached);
    expect((err as LimitReached).info.message).toBe("Kite allows 1 order a day, and today's are used up: not sent");
    expect((await broker.getOrder(ack.orderId)).status).toBe('OPEN');
    await capped.close();
  });

  it('order writes Kite answered 429 do not use up the client’s count of its minute: the next goes once the pause is over', async () => {
    const clock = steppedClock();
    // The client's count of Kite's orders a minute (docs/kite.md §Limits), shrunk to two.
    const pacer = new WindowPacer([{ limit: 2, ms: 60_000 }], null, clock);
    const tr = new RestTransport(new HttpClient(t.root), auth, null, {
      ...kiteTransportOptions('paper'),
      placementBucket: pacer,
    });
    const b = new KiteBroker(t.root, 'Kite (paper)', 'paper', tr, auth);
    t.api.broker.setFaults({ rate_limit: 1 });
    try {
      for (const ref of ['td-429-counted-1', 'td-429-counted-2']) {
        const info = await failure(b.placeOrder({ ...limitBuy, clientOrderId: ref }));
        expect(info.kind).toBe('rate_limited');
        // Its Retry-After (1 s) holds order writes: over before the next one.
        await clock.advance(1_000);
      }
    } finally {
      t.api.broker.setFaults({});
    }
    let status: string | null = null;
    void b.placeOrder({ ...limitBuy, clientOrderId: 'td-429-counted-3' }).then((ack) => (status = ack.status));
    await clock.advance(1_000);
    await vi.waitFor(() => expect(status).toBe('OPEN'));
    await b.close();
  });

  it('Kite counts order writes apart from its reads: a placement goes while the reads’ client limit is spent, and its 429 never holds a lookup', async () => {
    const clock = steppedClock();
    // The app's limits on Kite (docs/kite.md §Limits): order writes in their windows, the rest
    // in the 10/s bucket, here with its one token spent. The clock never moves in this test.
    const pacer = new WindowPacer([{ limit: 8, ms: 1_000 }], null, clock);
    const bucket = new TokenBucket({ perSecond: 8, burst: 1 }, clock, { reserves: false });
    await bucket.take('urgent');
    const tr = new RestTransport(new HttpClient(t.root), auth, bucket, {
      ...kiteTransportOptions('paper'),
      placementBucket: pacer,
    });
    const b = new KiteBroker(t.root, 'Kite (paper)', 'paper', tr, auth);
    let placed: string | null = null;
    void b.placeOrder({ ...limitBuy, clientOrderId: 'td-apart-1' }).then((ack) => (placed = ack.orderId));
    await vi.waitFor(() => expect(placed).not.toBeNull());

    // A placement answered 429 (Retry-After 1 s) holds the order writes, not the reads: another
    // placement's lookup, its token earned, goes at once.
    const fresh = new TokenBucket({ perSecond: 8, burst: 8 }, clock, { reserves: false });
    const tr2 = new RestTransport(new HttpClient(t.root), auth, fresh, {
      ...kiteTransportOptions('paper'),
      placementBucket: pacer,
    });
    const b2 = new KiteBroker(t.root, 'Kite (paper)', 'paper', tr2, auth);
    t.api.broker.setFaults({ rate_limit: 1 });
    try {
      expect((await failure(b2.placeOrder({ ...limitBuy, clientOrderId: 'td-apart-2' }))).kind).toBe('rate_limited');
    } finally {
      t.api.broker.setFaults({});
    }
    let found: string[] | null = null;
    void b2.findOrders('td-apart-1').then((f) => (found = f.map((o) => o.orderId)));
    await vi.waitFor(() => expect(found).toEqual([placed]));
    await b.close();
    await b2.close();
  });

  it('an order write holds its place in Kite’s windows until it is answered, a window from then; one answered 429 frees its place at once', async () => {
    const clock = steppedClock();
    // One write in two seconds (docs/kite.md §Limits, shrunk), each held until then after its answer.
    const pacer = new WindowPacer([{ limit: 1, ms: 2_000 }], null, clock, Date.now, undefined, {
      untilAnswered: true,
    });
    const tr = new RestTransport(new HttpClient(t.root), auth, null, {
      ...kiteTransportOptions('paper'),
      placementBucket: pacer,
    });
    const b = new KiteBroker(t.root, 'Kite (paper)', 'paper', tr, auth);
    const first = await b.placeOrder({ ...limitBuy, clientOrderId: 'td-held-1' });
    expect(first.status).toBe('OPEN');
    // Answered at 0 on the test's clock: the next write goes a window after that answer.
    let cancelled: string | null = null;
    void b.cancelOrder(first.orderId).then((ack) => (cancelled = ack.status));
    await clock.advance(1_999);
    expect(cancelled).toBeNull();
    await clock.advance(1);
    await vi.waitFor(() => expect(cancelled).toBe('CANCELLED'));
    // Refused with a 429: Kite counted nothing, so only its Retry-After (1 s), not the window,
    // holds the next one.
    await clock.advance(2_000);
    t.api.broker.setFaults({ rate_limit: 1 });
    try {
      expect((await failure(b.placeOrder({ ...limitBuy, clientOrderId: 'td-held-2' }))).kind).toBe('rate_limited');
    } finally {
      t.api.broker.setFaults({});
    }
    let placed: string | null = null;
    void b.placeOrder({ ...limitBuy, clientOrderId: 'td-held-3' }).then((ack) => (placed = ack.status));
    await clock.advance(1_000);
    await vi.waitFor(() => expect(placed).toBe('OPEN'));
    await b.close();
  });

  it('a write answered 429 holds its lane for its Retry-After before its place goes to the next write: nothing more is sent in between', async () => {
    const clock = steppedClock();
    // One write a minute (docs/kite.md §Limits, shrunk): the second write can only take the
    // place the first one's 429 gives back.
    const sent: number[] = [];
    const pacer = new WindowPacer([{ limit: 1, ms: 60_000 }], null, clock, Date.now, (at) => sent.push(at), {
      untilAnswered: true,
    });
    const tr = new RestTransport(new HttpClient(t.root), auth, null, {
      ...kiteTransportOptions('paper'),
      placementBucket: pacer,
    });
    const b = new KiteBroker(t.root, 'Kite (paper)', 'paper', tr, auth);
    t.api.broker.setFaults({ rate_limit: 1 });
    let second: string | null = null;
    try {
      const first = failure(b.placeOrder({ ...limitBuy, clientOrderId: 'td-pause-first-1' }));
      void b.placeOrder({ ...limitBuy, clientOrderId: 'td-pause-first-2' }).then(
        (ack) => (second = ack.status),
        () => (second = 'refused'),
      );
      expect((await first).kind).toBe('rate_limited');
      // The second waits out the first one's Retry-After (1 s; the test's clock has not moved).
      expect(sent).toEqual([0]);
    } finally {
      t.api.broker.setFaults({});
    }
    await clock.advance(1_000);
    await vi.waitFor(() => expect(second).toBe('OPEN'));
    expect(sent).toEqual([0, 1_000]);
    await b.close();
  });

  it('a refused order names the field Kite names (InputException → bad_request)', async () => {
    const info = await failure(
      broker.placeOrder({ ...limitBuy, quantity: 1, price: 1450.03, clientOrderId: 'td-bad-tick' }),
    );
    expect(info.kind).toBe('bad_request');
    expect(info.field).toBe('price');
  });

  it('reads positions, funds, trades, instruments, quotes and candles in the app’s types', async () => {
    const instruments = await broker.listInstruments();
    const infy = instruments.find((i) => i.exchange === 'NSE' && i.tradingsymbol === 'INFY');
    expect(infy).toMatchObject({ instrumentType: 'EQ', lotSize: 1 });
    const quotes = await broker.getQuotes([infy?.instrumentToken ?? 0, 999_999_999]);
    expect(quotes).toHaveLength(1);
    expect(quotes[0]).toMatchObject({ exchange: 'NSE', tradingsymbol: 'INFY', lastPrice: 1500 });
    const candles = await broker.getCandles(infy?.instrumentToken ?? 0, { interval: 'day' });
    expect(Array.isArray(candles)).toBe(true);
    expect((await broker.getFunds()).availableMargin).toBeGreaterThan(0);
    expect(Array.isArray(await broker.listPositions())).toBe(true);
    expect(Array.isArray(await broker.listTrades())).toBe(true);
  });

  it('an expired token (TokenException, HTTP 403) ends the session once, with no retry loop', async () => {
    const a = new TestAuth();
    const { broker: b, transport: tr } = newBroker(a);
    a.current = 'expired-token';
    const info = await failure(b.listOrders());
    expect(info.kind).toBe('unauthorized');
    expect(a.expiries).toHaveLength(1);
    expect(tr.stats.sent).toBe(1);
    await b.close();
  });

  it('the ticker refused for an expired token ends the session once and stops, no reconnect loop', async () => {
    const a = new TestAuth();
    a.current = 'expired-token';
    const { broker: b } = newBroker(a);
    const states: string[] = [];
    const stream = b.openStream({
      onOrder: () => undefined,
      onTick: () => undefined,
      onState: (state, detail) => states.push(`${state}:${detail ?? ''}`),
    });
    stream.start();
    await vi.waitFor(() => expect(states).toContain('closed:Session expired'), { timeout: 5_000 });
    expect(a.expiries).toHaveLength(1);
    expect(states.filter((s) => s.startsWith('connecting'))).toHaveLength(1);
    await stream.stop();
    await b.close();
  });

  it('the ticker delivers an order update for an order placed through the adapter, with its client reference', async () => {
    const seen: Array<{ orderId: string; clientOrderId: string | null }> = [];
    const states: string[] = [];
    const stream = broker.openStream({
      onOrder: (o) => seen.push(o),
      onTick: () => undefined,
      onState: (state) => states.push(state),
    });
    stream.start();
    await vi.waitFor(() => expect(states).toContain('open'), { timeout: 5_000 });
    const ack = await broker.placeOrder({ ...limitBuy, clientOrderId: 'td-ticker-update-1' });
    await vi.waitFor(() => expect(seen.map((o) => o.orderId)).toContain(ack.orderId), { timeout: 5_000 });
    expect(seen.find((o) => o.orderId === ack.orderId)?.clientOrderId).toBe('td-ticker-update-1');
    await stream.stop();
  });
});

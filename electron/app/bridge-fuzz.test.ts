import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instrument } from '@shared/domain/instrument';
import { REQUEST_CHANNELS, requests } from '@shared/ipc/contract';
import type { IpcResult } from '@shared/ipc/result';
import { roundToTick } from '@shared/trading/money';
import { validateOrder } from '@shared/trading/rules';
import { createDispatcher, type Dispatch } from './dispatcher';
import { startPaperBroker, type PaperBroker } from '../paper';
import { createAppServices, type AppServices } from './app-services';
import { useAppOnPaper } from './testing/app-on-paper';

/** A refusal a form can show: bad_request with a named field. */
function expectNamedRefusal(r: IpcResult<unknown>): void {
  expect(r.ok).toBe(false);
  if (r.ok) return;
  expect(r.error.kind).toBe('bad_request');
  expect(typeof r.error.field).toBe('string');
  expect(r.error.field?.length).toBeGreaterThan(0);
}

/** For object inputs: the right keys with arbitrary values, which finds deeper refusals than random blobs. */
function keyedPayload(channel: (typeof REQUEST_CHANNELS)[number]): fc.Arbitrary<unknown> {
  const shape = (requests[channel].input as { shape?: Record<string, unknown> }).shape;
  if (!shape) return fc.anything();
  return fc.dictionary(fc.constantFrom(...Object.keys(shape)), fc.anything(), { minKeys: 1 });
}

describe('bridge fuzzing through the real handlers', () => {
  const app = useAppOnPaper({
    name: 'fuzz',
    config: {
      core: { stream: false },
      // A fuzzed `session.loginPage` listens for the redirect: on any free port, not the product's.
      kiteRedirectPort: 0,
    },
    problems: () => undefined,
  });
  const { dispatch } = app;

  it('refuses every malformed payload on every channel with a named bad_request, sending nothing', async () => {
    const before = app.paper.orderCount();
    for (const channel of REQUEST_CHANNELS) {
      const schema = requests[channel].input;
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.anything(), keyedPayload(channel)), async (payload) => {
          fc.pre(!schema.safeParse(payload).success);
          expectNamedRefusal(await dispatch(channel, payload));
        }),
        { numRuns: 60 },
      );
    }
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), fc.anything(), async (channel, payload) => {
        fc.pre(!(REQUEST_CHANNELS as readonly string[]).includes(channel));
        expect(await dispatch(channel, payload)).toMatchObject({
          ok: false,
          error: { kind: 'bad_request', field: 'channel' },
        });
      }),
      { numRuns: 100 },
    );
    expect(app.paper.orderCount()).toBe(before);
  });

  it('margins.basket refuses a basket whose second leg breaks a rule as that leg: field orders.1.price, message "Leg 2: …"', async () => {
    const infy = app.instruments.find((i) => i.exchange === 'NSE' && i.tradingsymbol === 'INFY');
    if (!infy) throw new Error('no INFY');
    const good = {
      exchange: 'NSE' as const,
      tradingsymbol: 'INFY',
      transactionType: 'BUY' as const,
      quantity: 1,
      orderType: 'LIMIT' as const,
      product: 'MIS' as const,
      validity: 'DAY' as const,
      price: 1500,
    };
    const offTick = { ...good, price: 1500.03 };
    const single = await dispatch('margins.order', offTick);
    const basket = await dispatch('margins.basket', { orders: [good, offTick] });
    expectNamedRefusal(basket);
    if (basket.ok || single.ok) throw new Error('expected refusals');
    expect(basket.error.field).toBe('orders.1.price');
    expect(basket.error.message).toBe(`Leg 2: ${single.error.message}`);
    const quoted = await dispatch('margins.basket', { orders: [good, good] });
    expect(quoted).toMatchObject({
      ok: true,
      data: { initial: 600, final: 600, legs: [{ total: 300 }, { total: 300 }] },
    });
  });

  it('refuses well-formed orders that break a trading rule, naming the field, before anything is sent; a margin quote for one is refused with the very same error', async () => {
    const before = app.paper.orderCount();
    const arbOrder = fc.record({
      instrument: fc.constantFrom(...app.instruments),
      transactionType: fc.constantFrom('BUY', 'SELL'),
      quantity: fc.integer({ min: 1, max: 2_000_000 }),
      orderType: fc.constantFrom('MARKET', 'LIMIT', 'SL', 'SL-M'),
      product: fc.constantFrom('MIS', 'CNC', 'NRML'),
      validity: fc.constantFrom('DAY', 'IOC'),
      price: fc.option(fc.double({ min: 0.01, max: 100_000, noNaN: true }), { nil: undefined }),
      triggerPrice: fc.option(fc.double({ min: 0.01, max: 100_000, noNaN: true }), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(arbOrder, async ({ instrument, ...rest }) => {
        const order = { exchange: instrument.exchange, tradingsymbol: instrument.tradingsymbol, ...rest };
        const violations = validateOrder(order, instrument);
        fc.pre(violations.length > 0);
        const placed = await dispatch('orders.place', { order });
        const quoted = await dispatch('margins.order', order);
        expectNamedRefusal(placed);
        if (!placed.ok) expect(violations.map((v) => v.field)).toContain(placed.error.field);
        // One check for both (core/orders/order-rules.ts): the ticket shows the same refusal either way.
        expect(quoted).toEqual(placed);
      }),
      { numRuns: 150 },
    );
    // An instrument the broker does not list is refused on its symbol.
    const unknown = await dispatch('orders.place', {
      order: {
        exchange: 'NSE',
        tradingsymbol: 'NO-SUCH-SYMBOL',
        transactionType: 'BUY',
        quantity: 1,
        orderType: 'MARKET',
        product: 'MIS',
        validity: 'DAY',
      },
    });
    expect(unknown).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'tradingsymbol' } });
    expect(app.paper.orderCount()).toBe(before);
  });

  it('logout wipes the session: the token is gone and every call is unauthorized until login', async () => {
    expect(await dispatch('session.logout', undefined)).toMatchObject({
      ok: true,
      data: { state: 'disconnected', userId: null },
    });
    expect(await dispatch('orders.list', undefined)).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
    const again = await dispatch('session.login', {
      profile: { kind: 'rest', baseUrl: app.paper.url, apiKey: 'paper', apiSecret: 'paper' },
    });
    expect(again).toMatchObject({ ok: true, data: { state: 'connected' } });
    expect(JSON.stringify(again)).not.toMatch(/access_token|accessToken|apiSecret/);
  });

  it('no token the broker issued ever appears in a reply or an event', async () => {
    const seen: string[] = [];
    const off = app.services.events.onAny((event, payload) => seen.push(JSON.stringify({ event, payload })));
    for (const channel of [
      'session.status',
      'connection.status',
      'orders.list',
      'positions.list',
      'funds.get',
      'trades.list',
    ] as const) {
      seen.push(JSON.stringify(await dispatch(channel, undefined)));
    }
    seen.push(
      JSON.stringify(
        await dispatch('session.login', {
          profile: { kind: 'rest', baseUrl: app.paper.url, apiKey: 'paper', apiSecret: 'paper' },
        }),
      ),
    );
    seen.push(JSON.stringify(await dispatch('session.logout', undefined)));
    off();
    const tokens = app.paper.sessions().map((s) => s.token);
    expect(tokens.length).toBeGreaterThan(0);
    for (const text of seen) for (const token of tokens) expect(text).not.toContain(token);
  });
});

// ------------------------------------------------------------------------------------------
// The other half: payloads the schema accepts but no trader would send.

/**
 * A loopback HTTP proxy in front of the paper broker that remembers every request line, so a
 * test can tell "refused before sending" from "sent and refused by the broker".
 */
async function countingProxy(target: URL): Promise<{ url: string; sent: string[]; close: () => Promise<void> }> {
  const sent: string[] = [];
  const server = createServer((req, res) => {
    sent.push(`${req.method} ${(req.url ?? '').split('?')[0]}`);
    const up = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    sent,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Positive integers from ordinary to the largest a JSON number holds exactly. */
const hugeInt = fc.oneof(
  fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  fc.integer({ min: 2 ** 31, max: Number.MAX_SAFE_INTEGER }),
  fc.constantFrom(2 ** 31, 2 ** 32 + 1, Number.MAX_SAFE_INTEGER),
);

/** Positive prices no one trades at: denormals, dust below ₹0.0001, astronomical ones, on-grid ones far past any band. */
const absurdPrice = fc.oneof(
  fc.double({ min: Number.MIN_VALUE, max: 1e300, noNaN: true, noDefaultInfinity: true }).filter((x) => x > 0),
  fc.constantFrom(Number.MIN_VALUE, 1e-11, 0.00005, 1e9, 1e12, 1e15, 1e300, Number.MAX_VALUE),
  fc.integer({ min: 1, max: 2 ** 33 }).map((k) => Math.round(k * 0.05 * 100) / 100),
);

/** Dates far in the future (and the odd far past), as the contract's ISO datetimes. */
const oddIso = fc
  .oneof(
    fc.date({ min: new Date('2030-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
    fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('1970-01-01T00:00:00Z'), noInvalidDate: true }),
  )
  .map((d) => d.toISOString());

/** Order ids this account never received: another account's style of id, numbers past ours, path-like text. */
const foreignOrderId = fc
  .oneof(
    fc.integer({ min: 260_000_100_000, max: 269_999_999_999 }).map(String),
    fc.bigInt({ min: 100_000_000_000_000n, max: 999_999_999_999_999n }).map(String),
    fc.string({ minLength: 1, maxLength: 64 }),
    fc.constantFrom('.', '..', '../session', '%2e%2e', '0', '-1', 'null', '260000000000'),
  )
  .filter((id) => requests['orders.get'].input.safeParse({ orderId: id }).success); // the contract refuses path-like ids

describe('bridge fuzzing: schema-valid but absurd payloads through the real handlers', () => {
  let dir: string;
  let paper: PaperBroker;
  let proxy: Awaited<ReturnType<typeof countingProxy>>;
  let services: AppServices;
  let dispatch: Dispatch;
  let instruments: Instrument[];
  let working: string[];
  const thrown: string[] = [];

  /** Intents the order service journaled (lines of its intents ledger). */
  const journaled = async (): Promise<number> => {
    let n = 0;
    for (const f of (await readdir(dir)).filter((x) => /^intents-.*\.jsonl$/.test(x))) {
      n += (await readFile(join(dir, f), 'utf8')).split('\n').filter((l) => l.includes('"t":"intent"')).length;
    }
    return n;
  };
  const posted = (): number => proxy.sent.filter((s) => s === 'POST /v1/orders').length;

  /** Dispatches with a clean record of what handlers threw (each call is judged on its own). */
  const send = (channel: string, payload: unknown): Promise<IpcResult<unknown>> => {
    thrown.length = 0;
    return dispatch(channel, payload);
  };

  /** The call ended as a value: a typed error (never `internal`, nothing thrown) or its channel's reply data. */
  const expectTyped = (channel: (typeof REQUEST_CHANNELS)[number], r: IpcResult<unknown>, payload: unknown): void => {
    const what = `${channel} ${JSON.stringify(payload)} → ${JSON.stringify(r)}`;
    expect(thrown, what).toEqual([]);
    if (r.ok) expect(requests[channel].output.safeParse(r.data).success, what).toBe(true);
    else expect(r.error.kind, what).not.toBe('internal');
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-absurd-'));
    paper = await startPaperBroker({ port: 0, tickIntervalMs: 0, rate: { perSecond: 100_000, burst: 100_000 } });
    proxy = await countingProxy(new URL(paper.url));
    services = await createAppServices({
      dataDir: dir,
      brokerUrl: proxy.url,
      apiKey: 'paper',
      apiSecret: 'paper',
      core: { rate: null, stream: false },
      kiteRedirectPort: 0,
    });
    dispatch = createDispatcher(services.handlers, (msg, err) => thrown.push(`${msg}: ${String(err)}`));
    const list = await dispatch('instruments.list', undefined);
    if (!list.ok) throw new Error(list.error.message);
    const all = list.data as Instrument[];
    const pick = (p: (i: Instrument) => boolean): Instrument => all.find(p) as Instrument;
    instruments = [
      pick((i) => i.exchange === 'NSE' && i.tradingsymbol === 'INFY'),
      pick((i) => i.exchange === 'NSE' && i.tradingsymbol === 'IDEA'),
      pick((i) => i.exchange === 'NFO' && i.name === 'NIFTY' && i.instrumentType === 'CE'),
      pick((i) => i.exchange === 'NFO' && i.name === 'BANKNIFTY' && i.instrumentType === 'FUT'),
      pick((i) => i.exchange === 'CDS' && i.name === 'USDINR'),
    ];
    // A few working orders whose real ids the modify/cancel fuzz can aim at.
    working = [];
    for (const i of instruments.slice(0, 2)) {
      const r = await dispatch('orders.place', {
        order: {
          exchange: i.exchange,
          tradingsymbol: i.tradingsymbol,
          transactionType: 'BUY',
          quantity: i.lotSize,
          orderType: 'LIMIT',
          product: 'MIS',
          validity: 'DAY',
          price: roundToTick(i.lastPrice * 0.95, i.tickSize),
        },
      });
      if (!r.ok || (r.data as { state: string }).state !== 'placed') throw new Error(JSON.stringify(r));
      working.push((r.data as { orderId: string }).orderId);
    }
  });
  afterAll(async () => {
    await services.close();
    await proxy.close();
    await paper.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Anything the schema takes: absurd sizes and prices on any combination (mostly refused by the rules). */
  const wildOrder = () =>
    fc
      .record({
        instrument: fc.constantFrom(...instruments),
        unknown: fc.oneof(
          { weight: 5, arbitrary: fc.constant(null) },
          { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 64 }) },
        ),
        transactionType: fc.constantFrom('BUY' as const, 'SELL' as const),
        orderType: fc.constantFrom('MARKET' as const, 'LIMIT' as const, 'SL' as const, 'SL-M' as const),
        product: fc.constantFrom('MIS' as const, 'CNC' as const, 'NRML' as const),
        validity: fc.constantFrom('DAY' as const, 'IOC' as const),
        quantity: fc.oneof(hugeInt, fc.integer({ min: 1, max: 1_000_000 })),
        lots: fc.boolean(),
        price: fc.option(absurdPrice, { nil: undefined }),
        triggerPrice: fc.option(absurdPrice, { nil: undefined }),
      })
      .map(({ instrument: i, unknown, lots, quantity, ...rest }) => ({
        instrument: i,
        order: {
          exchange: i.exchange,
          tradingsymbol: unknown ?? i.tradingsymbol,
          quantity: lots
            ? Math.min(Number.MAX_SAFE_INTEGER - (Number.MAX_SAFE_INTEGER % i.lotSize), quantity * i.lotSize)
            : quantity,
          ...rest,
        },
      }));

  /**
   * Absurd orders the rules let through: a valid combination, up to the freeze quantity, with a
   * price on the tick grid but one tick, far past the band, or dust below ₹0.0001.
   */
  const ruleShapedOrder = () =>
    fc
      .record({
        instrument: fc.constantFrom(...instruments),
        transactionType: fc.constantFrom('BUY' as const, 'SELL' as const),
        orderType: fc.constantFrom('MARKET' as const, 'LIMIT' as const, 'SL' as const, 'SL-M' as const),
        lots: fc.integer({ min: 1, max: 1_000_000 }),
        ticks: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 2 ** 40 })),
        dust: fc.boolean(),
      })
      .map(({ instrument: i, transactionType, orderType, lots, ticks, dust }) => {
        const type =
          orderType === 'SL-M' && (i.instrumentType === 'CE' || i.instrumentType === 'PE') ? 'SL' : orderType;
        const price = dust ? 1e-11 : roundToTick(ticks * i.tickSize, i.tickSize);
        return {
          instrument: i,
          order: {
            exchange: i.exchange,
            tradingsymbol: i.tradingsymbol,
            transactionType,
            quantity: (((lots - 1) % Math.floor(i.freezeQuantity / i.lotSize)) + 1) * i.lotSize,
            orderType: type,
            product: 'MIS' as const,
            validity: 'DAY' as const,
            ...(type === 'LIMIT' || type === 'SL' ? { price } : {}),
            ...(type === 'SL' || type === 'SL-M' ? { triggerPrice: price } : {}),
          },
        };
      });

  const absurdOrder = () => fc.oneof(wildOrder(), ruleShapedOrder());

  it('places an absurd order only when the rules allow it; a refusal journals and sends nothing, a failure creates nothing', async () => {
    let refusedByRules = 0;
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(
        absurdOrder(),
        // The contract refuses a click more than a minute ahead of main's clock: absurd but valid is up to that.
        fc.option(fc.integer({ min: 1, max: Date.now() + 60_000 }), { nil: undefined }),
        async ({ instrument, order }, clickedAt) => {
          const payload = { order, ...(clickedAt === undefined ? {} : { clickedAt }) };
          expect(requests['orders.place'].input.safeParse(payload).success, JSON.stringify(payload)).toBe(true);
          const ruled =
            order.tradingsymbol !== instrument.tradingsymbol
              ? [{ field: 'tradingsymbol' }]
              : validateOrder(order, instrument);
          const before = { intents: await journaled(), posts: posted(), orders: paper.orderCount() };
          const r = await send('orders.place', payload);
          expectTyped('orders.place', r, payload);
          const what = `${JSON.stringify(payload)} → ${JSON.stringify(r)}`;
          if (ruled.length > 0) {
            refusedByRules += 1;
            expect(r.ok, what).toBe(false);
            if (!r.ok) {
              expect(r.error.kind, what).toBe('bad_request');
              expect(
                ruled.map((v) => v.field),
                what,
              ).toContain(r.error.field);
            }
            expect(
              { intents: await journaled(), posts: posted(), orders: paper.orderCount() },
              `${what}: refused by the rules yet journaled or sent`,
            ).toEqual(before);
            return;
          }
          sent += 1;
          expect(posted(), what).toBeGreaterThan(before.posts);
          if (!r.ok) expect(paper.orderCount(), `${what}: a failed call created an order`).toBe(before.orders);
          else if ((r.data as { state: string }).state === 'placed') {
            expect(paper.orderCount(), what).toBe(before.orders + 1);
            const got = await dispatch('orders.get', { orderId: (r.data as { orderId: string }).orderId });
            expect(got.ok, `${what}: the placed order is not at the broker`).toBe(true);
          }
        },
      ),
      { numRuns: 250, seed: 20261123 },
    );
    // Both halves of the rule must have been exercised, or the property proved little.
    expect(refusedByRules).toBeGreaterThan(50);
    expect(sent).toBeGreaterThan(5);
  });

  it('answers absurd margins, modifications, cancels, lookups, candles and subscriptions with typed errors, creating nothing', async () => {
    const orders = paper.orderCount();
    const changes = fc.record(
      {
        quantity: hugeInt,
        price: fc.option(absurdPrice, { nil: null }),
        triggerPrice: fc.option(absurdPrice, { nil: null }),
        orderType: fc.constantFrom('MARKET' as const, 'LIMIT' as const, 'SL' as const, 'SL-M' as const),
        validity: fc.constantFrom('DAY' as const, 'IOC' as const),
      },
      { requiredKeys: [] },
    );
    const token = fc.oneof(hugeInt, fc.constantFrom(...instruments.map((i) => i.instrumentToken)));
    const call = fc.oneof(
      absurdOrder().map(({ order }) => ['margins.order', order] as const),
      fc
        .array(absurdOrder(), { minLength: 1, maxLength: 3 })
        .map((legs) => ['margins.basket', { orders: legs.map((l) => l.order) }] as const),
      fc
        .record({ orderId: fc.oneof(fc.constantFrom(...working), foreignOrderId), changes })
        .map((p) => ['orders.modify', p] as const),
      foreignOrderId.map((orderId) => ['orders.cancel', { orderId }] as const),
      foreignOrderId.map((orderId) => ['orders.get', { orderId }] as const),
      foreignOrderId.map((orderId) => ['orders.history', { orderId }] as const),
      fc
        .record(
          {
            instrumentToken: token,
            interval: fc.constantFrom(
              'minute' as const,
              '5minute' as const,
              '15minute' as const,
              '60minute' as const,
              'day' as const,
            ),
            from: oddIso,
            to: oddIso,
          },
          { requiredKeys: ['instrumentToken', 'interval'] },
        )
        .map((p) => ['candles.get', p] as const),
      fc
        .record({ owner: fc.string({ minLength: 1, maxLength: 32 }), tokens: fc.array(token, { maxLength: 500 }) })
        .map((p) => ['market.subscribe', p] as const),
      fc
        .stringMatching(/^[A-Za-z0-9_-]{1,36}$/)
        .chain((clientOrderId) =>
          fc.constantFrom(
            ['placements.placeAgain', { clientOrderId }] as const,
            ['placements.discard', { clientOrderId }] as const,
          ),
        ),
    );
    await fc.assert(
      fc.asyncProperty(call, async ([channel, payload]) => {
        expect(requests[channel].input.safeParse(payload).success, JSON.stringify(payload)).toBe(true);
        const r = await send(channel, payload);
        expectTyped(channel, r, payload);
        const foreign =
          'orderId' in payload && typeof payload.orderId === 'string' && !working.includes(payload.orderId);
        if (foreign) {
          expect(r.ok, `${channel} ${JSON.stringify(payload)} reached an order this account does not have`).toBe(false);
          if (!r.ok) expect(['not_found', 'bad_request'], JSON.stringify(r)).toContain(r.error.kind);
        }
        expect(paper.orderCount(), `${channel} ${JSON.stringify(payload)} created an order`).toBe(orders);
      }),
      { numRuns: 400, seed: 20261123 },
    );
  });

  it('drift.acknowledge of any id the alarm does not list (prototype keys included) is a bad_request naming id', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ minLength: 1, maxLength: 200 }), fc.constantFrom('__proto__', 'constructor', 'toString')),
        async (id) => {
          const r = await dispatch('drift.acknowledge', { id });
          expect(r).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'id' } });
        },
      ),
      { numRuns: 100 },
    );
    expect(await dispatch('drift.status', undefined)).toMatchObject({ ok: true });
  });
});

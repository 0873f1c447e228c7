import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instrument } from '../../shared/domain/instrument';
import { REQUEST_CHANNELS, requests } from '../../shared/ipc/contract';
import type { IpcResult } from '../../shared/ipc/result';
import { validateOrder } from '../../shared/trading/rules';
import { createDispatcher, type Dispatch } from '../main/ipc/dispatcher';
import { startPaperBroker, type PaperBroker } from '../paper';
import { createAppServices, type AppServices } from './app-services';

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
  let dir: string;
  let paper: PaperBroker;
  let services: AppServices;
  let dispatch: Dispatch;
  let instruments: Instrument[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-fuzz-'));
    paper = await startPaperBroker({ port: 0, tickIntervalMs: 0 });
    services = await createAppServices({
      dataDir: dir,
      brokerUrl: paper.url,
      apiKey: 'paper',
      apiSecret: 'paper',
      core: { stream: false },
    });
    dispatch = createDispatcher(services.handlers, () => undefined);
    const list = await dispatch('instruments.list', undefined);
    if (!list.ok) throw new Error(list.error.message);
    instruments = list.data as Instrument[];
  });
  afterAll(async () => {
    await services.close();
    await paper.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses every malformed payload on every channel with a named bad_request, sending nothing', async () => {
    const before = paper.orderCount();
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
    expect(paper.orderCount()).toBe(before);
  });

  it('refuses well-formed orders that break a trading rule, naming the field, before anything is sent', async () => {
    const before = paper.orderCount();
    const arbOrder = fc.record({
      instrument: fc.constantFrom(...instruments),
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
        for (const channel of ['orders.place', 'margins.order'] as const) {
          const r = await dispatch(channel, channel === 'orders.place' ? { order } : order);
          expectNamedRefusal(r);
          if (!r.ok) expect(violations.map((v) => v.field)).toContain(r.error.field);
        }
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
    expect(paper.orderCount()).toBe(before);
  });

  it('logout wipes the session: the token is gone and every call is unauthorized until login', async () => {
    expect(await dispatch('session.logout', undefined)).toMatchObject({
      ok: true,
      data: { state: 'disconnected', userId: null },
    });
    expect(await dispatch('orders.list', undefined)).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
    const again = await dispatch('session.login', {
      profile: { kind: 'rest', baseUrl: paper.url, apiKey: 'paper', apiSecret: 'paper' },
    });
    expect(again).toMatchObject({ ok: true, data: { state: 'connected' } });
    expect(JSON.stringify(again)).not.toMatch(/access_token|accessToken|apiSecret/);
  });

  it('no token the broker issued ever appears in a reply or an event', async () => {
    const seen: string[] = [];
    const off = services.events.onAny((event, payload) => seen.push(JSON.stringify({ event, payload })));
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
          profile: { kind: 'rest', baseUrl: paper.url, apiKey: 'paper', apiSecret: 'paper' },
        }),
      ),
    );
    seen.push(JSON.stringify(await dispatch('session.logout', undefined)));
    off();
    const tokens = paper.sessions().map((s) => s.token);
    expect(tokens.length).toBeGreaterThan(0);
    for (const text of seen) for (const token of tokens) expect(text).not.toContain(token);
  });
});

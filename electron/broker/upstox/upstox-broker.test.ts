import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Tick } from '@shared/domain/market';
import { newClientOrderId } from '../../core/orders/client-order-id';
import { startCoreFixture, type CoreFixture } from '../../core/testing/core-fixture';
import { coreOn, failure, NO_UPSTOX_LIMITS } from '../../core/testing/dialects';
import { classifyUpstoxReply, upstoxTokenRefused } from './upstox-errors';
import { upstoxTokens } from './upstox-to-domain';
import { limitBuyInfy as limit } from '../testing/orders';

/**
 * The Upstox adapter against the paper broker's `/upstox` (docs/upstox.md §The adapter): what
 * the conformance suite does not ask of every adapter — the static-IP refusal told apart from an
 * ended token, a tag that is a label, the market-data feed's protobuf ticks, the closed market.
 */

const errorBody = (code: string, message: string, property: string | null = null) => ({
  status: 'error',
  errors: [{ errorCode: code, error_code: code, message, propertyPath: property, property_path: property }],
});

describe('the Upstox adapter on the paper broker', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  async function start(options: Parameters<typeof startCoreFixture>[0] = {}) {
    fx = await startCoreFixture({
      upstoxRates: NO_UPSTOX_LIMITS,
      rate: { perSecond: 10_000, burst: 10_000 },
      ...options,
    });
    const expiries: string[] = [];
    const core = await coreOn(fx, 'upstox', { events: { onSessionExpired: (reason) => expiries.push(reason) } });
    const infy = (await core.broker.listInstruments('NSE')).find((i) => i.tradingsymbol === 'INFY');
    fx.paper.setPrice(infy?.instrumentToken ?? 0, 1500);
    return { core, expiries, infy: infy?.instrumentToken ?? 0 };
  }

  it('an order write from an unregistered IP is refused as forbidden saying where to register it; the session stays, nothing is created, reads go on', async () => {
    const { core, expiries } = await start({ upstoxAllowedIps: [] });
    const before = fx.paper.orderCount();
    const info = await failure(core.broker.placeOrder({ ...limit(1450), clientOrderId: newClientOrderId() }));
    expect(info.kind).toBe('forbidden');
    expect(info.message).toMatch(/static IP/);
    expect(fx.paper.orderCount()).toBe(before);
    expect(expiries).toEqual([]);
    expect(Array.isArray(await core.broker.listOrders())).toBe(true);
  });

  it('an ended token is unauthorized and ends the session once (what the static-IP refusal must never do)', async () => {
    const { core, expiries } = await start();
    fx.paper.setFaults('token_expiry=1');
    expect((await failure(core.broker.listOrders())).kind).toBe('unauthorized');
    fx.paper.setFaults({});
    expect(expiries).toHaveLength(1);
  });

  it('a tag is a label: two orders under one reference are both found, each once by its own id', async () => {
    const { core } = await start();
    const cid = newClientOrderId();
    const a = await core.broker.placeOrder({ ...limit(1450), clientOrderId: cid });
    const b = await core.broker.placeOrder({ ...limit(1440), clientOrderId: cid });
    const found = await core.broker.findOrders(cid);
    expect(found.map((o) => o.orderId).sort()).toEqual([a.orderId, b.orderId].sort());
    expect(found.map((o) => [o.price, o.clientOrderId]).sort()).toEqual([
      [1440, cid],
      [1450, cid],
    ]);
    expect(await core.broker.findOrders(newClientOrderId())).toEqual([]);
  });

  it('the market data feed delivers a price move as a tick with its depth, decoded from protobuf', async () => {
    const { core, infy } = await start();
    const ticks: Tick[] = [];
    const states: string[] = [];
    const stream = core.broker.openStream({
      onOrder: () => undefined,
      onTick: (t) => ticks.push(t),
      onState: (s) => states.push(s),
    });
    stream.start();
    stream.setSubscriptions(new Set([infy]));
    await vi.waitFor(() => expect(states.at(-1)).toBe('open'), { timeout: 5_000 });
    await vi.waitFor(() => expect(ticks.some((t) => t.instrumentToken === infy)).toBe(true), { timeout: 5_000 });
    fx.paper.setPrice(infy, 1512.5);
    await vi.waitFor(
      () => expect(ticks.find((t) => t.instrumentToken === infy && t.lastPrice === 1512.5)?.depth).toBeDefined(),
      { timeout: 5_000 },
    );
    await stream.stop();
  });

  it('a regular order while the exchange is closed is refused saying so, and nothing is created', async () => {
    // Sunday 10:00 IST: NSE is closed.
    const { core } = await start({ marketClock: { at: Date.parse('2026-11-29T10:00:00+05:30'), speed: 1 } });
    const before = fx.paper.orderCount();
    const info = await failure(core.broker.placeOrder({ ...limit(1450), clientOrderId: newClientOrderId() }));
    expect(info).toMatchObject({ kind: 'bad_request', message: expect.stringMatching(/exchange is closed/) });
    expect(fx.paper.orderCount()).toBe(before);
  });
});

describe("Upstox's replies as the app reads them", () => {
  it('a 429 without Retry-After waits for the next one-second window', () => {
    expect(classifyUpstoxReply(429, errorBody('UDAPI10005', 'Too Many Request Sent'), undefined)).toMatchObject({
      kind: 'rate_limited',
      retryAfterMs: 1_000,
    });
  });

  it('the static-IP refusal never reads as an ended token; a 401 does', () => {
    const ip = errorBody(
      'UDAPI1154',
      'Access to this API is blocked due to static IP restrictions (request from 10.1.2.3)',
    );
    expect(upstoxTokenRefused(403, ip)).toBe(false);
    expect(classifyUpstoxReply(403, ip, undefined).message).toMatch(/10\.1\.2\.3/);
    expect(upstoxTokenRefused(401, errorBody('UDAPI100050', 'Invalid token used to access API'))).toBe(true);
  });

  it('bad input names the field in the app’s spelling; a finished order is a conflict, an unknown one not found', () => {
    expect(
      classifyUpstoxReply(400, errorBody('UDAPI100036', 'trigger_price: bad', 'trigger_price'), undefined),
    ).toMatchObject({
      kind: 'bad_request',
      field: 'triggerPrice',
    });
    expect(classifyUpstoxReply(400, errorBody('UDAPI100040', 'already complete'), undefined).kind).toBe('conflict');
    expect(classifyUpstoxReply(400, errorBody('UDAPI100010', 'Order not found'), undefined).kind).toBe('not_found');
  });

  it('two segments sharing an exchange token get two tokens: the first segment keeps the number', () => {
    const row = (segment: string) => ({
      segment,
      instrument_key: `${segment}|2885`,
      exchange_token: '2885',
      trading_symbol: 'X',
      instrument_type: 'EQ',
      lot_size: 1,
      tick_size: 5,
    });
    const [fo, bse, eq] = upstoxTokens([row('NSE_FO'), row('BSE_EQ'), row('NSE_EQ')]);
    expect(eq).toBe(2885);
    expect(new Set([fo, bse, eq]).size).toBe(3);
  });
});

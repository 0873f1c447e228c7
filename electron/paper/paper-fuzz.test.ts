import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WireProblem, WireStreamServerMessage } from '../wire/rest-schemas';
import { rawHttp, type RawHttpReply } from './raw-http';
import { type Api, startTestBroker } from './test-helpers';
import { FUZZ_RUNS, fuzzSocket, socketFrames, watchUnexpectedErrors } from './testing/fuzz';

/**
 * The paper broker under random request targets, headers, bodies and stream frames
 * (docs/api.md §Hostile input). Whatever arrives: no 5xx, every refusal is problem+json, no
 * order is created except by a 201, no exception escapes (Vitest fails the file on one), and
 * the broker keeps serving.
 */

let api: Api;
beforeAll(async () => {
  // No control interface: a fuzzed body must not be able to switch faults on.
  api = await startTestBroker({ control: false });
});
afterAll(() => api.close());
const unexpected = watchUnexpectedErrors();

/** Characters that break URL parsers, path matching and percent-decoding. */
const targetChar = fc.constantFrom(..."/[]%:@?#.\\~!$&'()*+,;=-_abcAZ09 \t%zz%2e%2F%00é😀".split(''));
const target = fc.oneof(
  fc.constantFrom(
    '//[',
    '//[/v1/funds',
    'http://[::1/v1/stream',
    '*',
    '/v1/orders/%',
    '/v1/../v1/funds',
    '/v1/orders/..',
  ),
  fc.tuple(fc.boolean(), fc.string({ unit: targetChar, maxLength: 120 })).map(([api, s]) => (api ? `/v1/${s}` : s)),
);
const method = fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'BREW');
const headerName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/);
const headerValue = fc.string({ unit: fc.constantFrom(...'abc Bearer;=,/"\'0123\t'.split('')), maxLength: 60 });
const headers = fc.dictionary(headerName, headerValue, { maxKeys: 5 });

/** Bodies: any JSON, text that is not JSON, and order-shaped objects with wild values. */
const orderish = fc.record(
  {
    exchange: fc.oneof(fc.constantFrom('NSE', 'NFO', 'XX'), fc.anything()),
    tradingsymbol: fc.oneof(fc.constantFrom('INFY', 'ITC', ''), fc.anything()),
    transaction_type: fc.oneof(fc.constantFrom('BUY', 'SELL'), fc.anything()),
    quantity: fc.oneof(fc.integer(), fc.double(), fc.anything()),
    order_type: fc.oneof(fc.constantFrom('MARKET', 'LIMIT', 'SL', 'SL-M'), fc.anything()),
    product: fc.oneof(fc.constantFrom('MIS', 'CNC', 'NRML'), fc.anything()),
    validity: fc.oneof(fc.constantFrom('DAY', 'IOC'), fc.anything()),
    price: fc.oneof(fc.double(), fc.constantFrom(1e-9, 5e-324, 1e308, -0), fc.anything()),
    trigger_price: fc.oneof(fc.double(), fc.anything()),
    client_order_id: fc.oneof(fc.string({ maxLength: 40 }), fc.anything()),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  fc.json().map((text) => ({ text, twice: false })),
  fc.string({ maxLength: 200 }).map((text) => ({ text, twice: false })),
  orderish.map((o) => ({ text: JSON.stringify(o), twice: false })),
  // A basket's legs (POST /margins/basket): hostile orders inside the `orders` array.
  fc.array(orderish, { maxLength: 3 }).map((orders) => ({ text: JSON.stringify({ orders }), twice: false })),
  // A key twice, which JSON.parse would resolve silently: always a 400. (A `quantity` that
  // JSON.stringify drops, such as undefined, must not leave `{,"quantity":1}`: that is not JSON.)
  orderish.map((o) => ({
    text: `${JSON.stringify({ ...o, quantity: 1 }).slice(0, -1)},"quantity":1}`,
    twice: true,
  })),
);

/** GTT-shaped bodies (docs/api.md §GTT) with wild values, including hostile objects in the legs. */
const gttLeg = fc.record(
  {
    transaction_type: fc.oneof(fc.constantFrom('BUY', 'SELL'), fc.anything()),
    quantity: fc.oneof(fc.integer(), fc.double(), fc.anything()),
    product: fc.oneof(fc.constantFrom('MIS', 'CNC'), fc.anything()),
    order_type: fc.oneof(fc.constant('LIMIT'), fc.anything()),
    price: fc.oneof(fc.double(), fc.constantFrom(1e-9, 5e-324, 1e308, 1500), fc.anything()),
  },
  { requiredKeys: [] },
);
const gttish = fc.record(
  {
    type: fc.oneof(fc.constantFrom('single', 'oco'), fc.anything()),
    exchange: fc.oneof(fc.constant('NSE'), fc.anything()),
    tradingsymbol: fc.oneof(fc.constant('INFY'), fc.anything()),
    trigger_values: fc.oneof(fc.array(fc.oneof(fc.double(), fc.integer()), { maxLength: 3 }), fc.anything()),
    orders: fc.oneof(fc.array(gttLeg, { maxLength: 3 }), fc.anything()),
    client_gtt_id: fc.oneof(fc.string({ maxLength: 40 }), fc.anything()),
  },
  { requiredKeys: [] },
);
const gttBody = fc.oneof(
  fc.json(),
  gttish.map((o) => JSON.stringify(o)),
  fc.constantFrom(
    '{"__proto__":{"type":"single"},"type":"single"}',
    '{"type":{"toString":0,"valueOf":0}}',
    '{"trigger_values":[1e308,-1],"orders":[{"__proto__":null}]}',
  ),
);

function request(m: string, t: string, h: Record<string, string>, b: string | null, auth: boolean): string {
  const lines = [`${m} ${t} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
  for (const [k, v] of Object.entries(h)) {
    if (/^(host|connection|content-length|transfer-encoding|expect|upgrade)$/i.test(k)) continue;
    lines.push(`${k}: ${v}`);
  }
  if (auth) lines.push(`Authorization: Bearer ${api.token}`);
  if (b !== null) lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(b)}`);
  return `${lines.join('\r\n')}\r\n\r\n${b ?? ''}`;
}

function expectSane(r: RawHttpReply | null): void {
  // Every request gets an answer (a HEAD has no body to check).
  expect(r).not.toBeNull();
  const reply = r as RawHttpReply;
  expect(reply.status).toBeLessThan(500);
  if (reply.status >= 400 && reply.body !== '') {
    expect(reply.headers['content-type']).toBe('application/problem+json');
    expect(WireProblem.safeParse(JSON.parse(reply.body)).success).toBe(true);
  }
}

describe('paper broker fuzz', () => {
  it('random request targets, methods and headers: never a 5xx, always problem+json', async () => {
    await fc.assert(
      fc.asyncProperty(method, target, headers, fc.boolean(), async (m, t, h, auth) => {
        expectSane(await rawHttp(api.broker.port, request(m, t, h, null, auth)));
      }),
      { numRuns: FUZZ_RUNS },
    );
    expect((await api.call('GET', '/funds')).status).toBe(200);
  });

  it('random bodies on every endpoint that takes one: 201 only for a valid order, else a named 4xx', async () => {
    const paths = ['/v1/orders', '/v1/margins/orders', '/v1/margins/basket', '/v1/session', '/v1/orders/260000000001'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.constantFrom('POST', 'PATCH'), body, async (p, m, b) => {
        const before = api.broker.orderCount();
        const r = await rawHttp(api.broker.port, request(m, p, {}, b.text, true));
        expectSane(r);
        if (b.twice && r?.status !== 405) {
          expect(r?.status).toBe(400);
          expect(JSON.parse(r?.body ?? '{}').errors).toEqual([
            { field: 'quantity', message: expect.stringContaining('more than once') },
          ]);
        }
        const created = api.broker.orderCount() - before;
        expect(created).toBe(r?.status === 201 && p === '/v1/orders' ? 1 : 0);
      }),
      { numRuns: FUZZ_RUNS },
    );
    expect(unexpected()).toEqual([]);
  });

  it('random bodies on the GTT endpoints: a GTT only from a 201 on POST /gtt, else a named 4xx', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const seed = await api.call('POST', '/gtt', {
      exchange: 'NSE',
      tradingsymbol: 'INFY',
      type: 'single',
      trigger_values: [Math.round((infy.last_price + 100) * 20) / 20],
      orders: [{ transaction_type: 'SELL', quantity: 1, product: 'MIS', order_type: 'LIMIT', price: 1500 }],
    });
    expect(seed.status).toBe(201);
    const paths = ['/v1/gtt', `/v1/gtt/${String(seed.body.gtt_id)}`, '/v1/gtt/1', '/v1/gtt/%zz'];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.constantFrom('POST', 'PATCH', 'PUT', 'DELETE', 'GET'),
        gttBody,
        async (p, m, b) => {
          const before = api.broker.gttCount();
          const r = await rawHttp(api.broker.port, request(m, p, {}, m === 'GET' || m === 'DELETE' ? null : b, true));
          expectSane(r);
          expect(api.broker.gttCount() - before).toBe(r?.status === 201 && p === '/v1/gtt' ? 1 : 0);
        },
      ),
      { numRuns: FUZZ_RUNS },
    );
    expect(unexpected()).toEqual([]);
  });

  it('random stream frames: an error message or ticks back, the socket open, the broker serving', async () => {
    const ws = new WebSocket(`${api.broker.url.replace('http', 'ws')}/stream`, {
      headers: { authorization: `Bearer ${api.token}` },
    });
    const frames = socketFrames(
      fc
        .record({
          action: fc.oneof(fc.constantFrom('subscribe', 'unsubscribe'), fc.anything()),
          tokens: fc.oneof(fc.array(fc.integer(), { maxLength: 50 }), fc.anything()),
        })
        .map((o) => JSON.stringify(o)),
    );
    // A message the broker refuses is answered; one it takes is quiet or answered with ticks.
    const { texts, closed } = await fuzzSocket(
      ws,
      frames,
      JSON.stringify({ action: 'subscribe', tokens: ['ping-back'] }),
    );
    for (const m of texts) expect(WireStreamServerMessage.safeParse(JSON.parse(m)).success).toBe(true);
    expect(closed).toBeNull();
    ws.terminate();
    expect((await api.call('GET', '/funds')).status).toBe(200);
  });
});

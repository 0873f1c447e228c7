import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { rawHttp, type RawHttpReply } from '../raw-http';
import { FUZZ_RUNS, fuzzSocket, socketFrames, watchUnexpectedErrors } from '../testing/fuzz';
import { type KiteTest, startKiteTest } from './test-kite';

/**
 * The /kite dialect under random request targets, headers, form bodies and ticker frames
 * (docs/kite.md §The wire, docs/api.md §Hostile input). Whatever arrives: no 5xx, every API
 * refusal is Kite's error envelope, no order is created except by a 200 on `POST
 * /kite/orders/:variety`, no exception escapes, and the broker keeps serving.
 */

let t: KiteTest;
let auth: string;
beforeAll(async () => {
  t = await startKiteTest({ control: false });
});
// A fuzzed DELETE /kite/session/token may log the token out: each test starts logged in.
beforeEach(async () => {
  const kc = await t.login();
  auth = `token paper:${(kc as unknown as { access_token: string }).access_token}`;
});
afterAll(() => t.close());
const unexpected = watchUnexpectedErrors();

const targetChar = fc.constantFrom(..."/[]%:@?#.\\~!$&'()*+,;=-_abcAZ09%zz%2e%2F%00é😀".split(''));
const KNOWN = [
  '/kite/orders/regular',
  '/kite/orders/amo/260000000001',
  '/kite/orders/260000000001',
  '/kite/orders/260000000001/trades',
  '/kite/gtt/triggers',
  '/kite/gtt/triggers/7000001',
  '/kite/gtt/triggers/%zz',
  '/kite/quote?i=NSE:INFY&i=%zz',
  '/kite/quote/ltp?i=',
  '/kite/instruments/historical/1/minute?from=2026-13-45&to=x',
  '/kite/instruments/%',
  '/kite/user/margins/%2F',
  '/kite/session/token',
  '/kite/connect/login?api_key=paper&redirect_params=%',
  '/kite/connect/login?api_key=paper&redirect_params=request_token%3Dmine',
];
const target = fc.oneof(
  fc.constantFrom(...KNOWN),
  fc.string({ unit: targetChar, maxLength: 120 }).map((s) => `/kite/${s}`),
);
const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS');
const formValue = fc.oneof(
  fc.constantFrom(
    'NSE',
    'INFY',
    'BUY',
    'SELL',
    'LIMIT',
    'MARKET',
    'SL-M',
    'MIS',
    'CNC',
    'DAY',
    '1',
    '0',
    '-1',
    '1e9',
    '1500.05',
    '',
  ),
  fc.string({ maxLength: 30 }),
);
const formKey = fc.constantFrom(
  'exchange',
  'tradingsymbol',
  'transaction_type',
  'order_type',
  'quantity',
  'product',
  'validity',
  'price',
  'trigger_price',
  'tag',
  'market_protection',
  'api_key',
  'request_token',
  'checksum',
);
const form = fc
  .array(fc.tuple(formKey, formValue), { maxLength: 14 })
  .map((pairs) => new URLSearchParams(pairs).toString());
/** A JSON array of order-ish objects: what the margin calculators (orders, basket) read. */
const marginArray = fc
  .array(fc.dictionary(formKey, fc.oneof(formValue, fc.integer(), fc.double(), fc.constant(null))), { maxLength: 3 })
  .map((items) => JSON.stringify(items));
const body = fc.oneof(form, fc.string({ maxLength: 200 }), fc.json(), marginArray);

function request(m: string, tgt: string, b: string | null, withAuth: boolean, type: string): string {
  const lines = [`${m} ${tgt} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', 'X-Kite-Version: 3'];
  if (withAuth) lines.push(`Authorization: ${auth}`);
  if (b !== null) lines.push(`Content-Type: ${type}`, `Content-Length: ${Buffer.byteLength(b)}`);
  return `${lines.join('\r\n')}\r\n\r\n${b ?? ''}`;
}

/** Whether a target, its dot segments resolved as a URL's are, still names a path under /kite. */
function staysUnderKite(tgt: string): boolean {
  try {
    return /^\/kite(\/|$)/.test(new URL(tgt, 'http://127.0.0.1').pathname);
  } catch {
    return true;
  }
}

/**
 * No 5xx; an API error is Kite's envelope (the HTTP parser's own refusals stay problem+json). A
 * target that leaves /kite once its dot segments are resolved (`/kite/..` is `/`) is the root's to
 * answer: its 404 names the path in problem+json, as any other path outside the dialects.
 */
function expectSane(r: RawHttpReply | null, tgt = '/kite/'): void {
  expect(r).not.toBeNull();
  const reply = r as RawHttpReply;
  expect(reply.status).toBeLessThan(500);
  if (reply.status < 400 || reply.body === '') return;
  const type = reply.headers['content-type'] ?? '';
  if (type.startsWith('text/html')) return; // the login page's own refusal
  if (type === 'application/problem+json') return expect(reply.status).toBe(staysUnderKite(tgt) ? 400 : 404);
  expect(type).toBe('application/json');
  const parsed = JSON.parse(reply.body) as Record<string, unknown>;
  expect(parsed).toMatchObject({
    status: 'error',
    data: null,
    error_type: expect.any(String),
    message: expect.any(String),
  });
}

describe('/kite fuzz', () => {
  it('random targets and methods, with and without a token: never a 5xx, always Kite’s envelope', async () => {
    await fc.assert(
      fc.asyncProperty(method, target, fc.boolean(), async (m, tgt, withAuth) => {
        expectSane(await rawHttp(t.port, request(m, tgt, null, withAuth, '')), tgt);
      }),
      { numRuns: FUZZ_RUNS, examples: [['GET', '/kite/..', false]] },
    );
    await expect((await t.login()).getProfile()).resolves.toMatchObject({ user_id: 'PAPER01' });
  });

  it('random bodies on the endpoints that take one: an order only from a 200 placement, else a named 4xx', async () => {
    const paths = [
      ['POST', '/kite/orders/regular'],
      ['POST', '/kite/orders/amo'],
      ['PUT', '/kite/orders/regular/260000000001'],
      ['POST', '/kite/session/token'],
      ['POST', '/kite/margins/orders'],
      ['POST', '/kite/margins/basket?consider_positions=true'],
      ['POST', '/kite/margins/basket?mode=__proto__'],
    ] as const;
    const types = fc.constantFrom('application/x-www-form-urlencoded', 'application/json', 'text/plain');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), body, types, async ([m, p], b, type) => {
        const before = t.api.broker.orderCount();
        const r = await rawHttp(t.port, request(m, p, b, true, type));
        expectSane(r);
        const created = t.api.broker.orderCount() - before;
        expect(created).toBe(r?.status === 200 && m === 'POST' && p.startsWith('/kite/orders/') ? 1 : 0);
      }),
      { numRuns: FUZZ_RUNS },
    );
    expect(unexpected()).toEqual([]);
  });

  it('random GTT forms on /gtt/triggers: a trigger only from a 200 create, else a named 4xx', async () => {
    const jsonish = fc.oneof(
      fc.json(),
      fc.constantFrom(
        '{"exchange":"NSE","tradingsymbol":"INFY","trigger_values":[1400,1600],"last_price":1500}',
        '{"exchange":"NSE","tradingsymbol":"INFY","trigger_values":[1e308],"__proto__":{"x":1}}',
        '[{"transaction_type":"SELL","quantity":1,"product":"MIS","order_type":"LIMIT","price":1400},{"transaction_type":"SELL","quantity":1,"product":"MIS","order_type":"LIMIT","price":1600}]',
        '[{"toString":0,"valueOf":0}]',
        '{"trigger_values":{"length":2}}',
      ),
    );
    const gttForm = fc
      .record(
        {
          type: fc.oneof(fc.constantFrom('single', 'two-leg', 'oco'), fc.string({ maxLength: 10 })),
          condition: jsonish,
          orders: jsonish,
          trigger_id: fc.string({ maxLength: 10 }),
        },
        { requiredKeys: [] },
      )
      .map((o) => new URLSearchParams(o as Record<string, string>).toString());
    const paths = [
      ['POST', '/kite/gtt/triggers'],
      ['PUT', '/kite/gtt/triggers/7000001'],
      ['PUT', '/kite/gtt/triggers/1'],
      ['DELETE', '/kite/gtt/triggers/%zz'],
    ] as const;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), gttForm, async ([m, p], b) => {
        const before = t.api.broker.gttCount();
        const r = await rawHttp(t.port, request(m, p, b, true, 'application/x-www-form-urlencoded'));
        expectSane(r);
        expect(t.api.broker.gttCount() - before).toBe(r?.status === 200 && m === 'POST' ? 1 : 0);
      }),
      { numRuns: FUZZ_RUNS },
    );
    expect(unexpected()).toEqual([]);
  });

  it('random ticker frames: an error back or quiet, the socket open, the broker serving', async () => {
    const token = (await t.api.instrument('NSE', 'INFY')).instrument_token;
    const ws = new WebSocket(
      `ws://127.0.0.1:${t.port}/kite/ws?api_key=paper&${auth.replace('token paper:', 'access_token=')}`,
    );
    const frames = socketFrames(
      fc
        .record({
          a: fc.oneof(fc.constantFrom('subscribe', 'unsubscribe', 'mode'), fc.anything()),
          v: fc.oneof(
            fc.array(fc.integer(), { maxLength: 50 }),
            fc.tuple(fc.constantFrom('ltp', 'quote', 'full', 'x'), fc.array(fc.constantFrom(token, -1, 2 ** 40))),
            fc.anything(),
          ),
        })
        .map((o) => JSON.stringify(o)),
    );
    // Something the ticker always refuses, so every round ends with an answer.
    const { texts, closed } = await fuzzSocket(ws, frames, '{"a":"ping-back"}');
    for (const m of texts) expect(JSON.parse(m)).toMatchObject({ type: expect.stringMatching(/^(error|order)$/) });
    expect(closed).toBeNull();
    ws.terminate();
    expect((await fetch(`${t.root}/user/profile`, { headers: { authorization: auth } })).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WireProblem } from '../wire/rest-schemas';
import { type Api, MARKET_BUY_INFY, findInstrument, startTestBroker } from './test-helpers';

let api: Api;
beforeAll(async () => {
  api = await startTestBroker();
});
afterAll(() => api.close());

/** Asserts a problem+json reply and returns its body. */
function problem(r: { status: number; headers: Headers; body: unknown }, status: number, code: string) {
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toBe('application/problem+json');
  const p = WireProblem.parse(r.body);
  expect(p.code).toBe(code);
  expect(p.status).toBe(status);
  return p;
}

describe('request errors (never a 500 for bad input)', () => {
  it('400 unsupported_media_type for a non-JSON content type', async () => {
    const r = await api.call('POST', '/orders', undefined, {
      raw: 'exchange=NSE',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    problem(r, 400, 'unsupported_media_type');
    const none = await api.call('POST', '/orders', undefined, { raw: '{}', headers: { 'content-type': 'text/plain' } });
    problem(none, 400, 'unsupported_media_type');
  });

  it('accepts application/json with a charset parameter', async () => {
    const r = await api.call('POST', '/margins/orders', MARKET_BUY_INFY, {
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(r.status).toBe(200);
  });

  it('400 invalid_json for malformed or empty JSON', async () => {
    problem(
      await api.call('POST', '/orders', undefined, {
        raw: '{"exchange":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'invalid_json',
    );
    problem(
      await api.call('POST', '/orders', undefined, { raw: '', headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_json',
    );
    const arr = await api.call('POST', '/orders', [1, 2]);
    expect(problem(arr, 400, 'invalid_field').errors?.[0]?.field).toBe('body');
  });

  it('rejects unknown fields, naming them', async () => {
    const p = problem(await api.place({ tag: 'x', trigger_prce: 5 }), 400, 'invalid_field');
    expect(p.errors?.map((e) => e.field).sort()).toEqual(['tag', 'trigger_prce']);
  });

  it('names every offending field in wire spelling', async () => {
    const p = problem(
      await api.place({
        quantity: 0,
        transaction_type: 'HOLD',
        order_type: 'STOP',
        product: 'X',
        validity: 'GTC',
        client_order_id: 'has space',
      }),
      400,
      'invalid_field',
    );
    expect(p.errors?.map((e) => e.field).sort()).toEqual([
      'client_order_id',
      'order_type',
      'product',
      'quantity',
      'transaction_type',
      'validity',
    ]);
    const missing = problem(await api.call('POST', '/orders', { exchange: 'NSE' }), 400, 'invalid_field');
    expect(missing.errors?.find((e) => e.field === 'tradingsymbol')?.message).toBe('is required');
  });

  it('400 on an unknown instrument, naming tradingsymbol', async () => {
    const p = problem(await api.place({ tradingsymbol: 'NOPE' }), 400, 'invalid_field');
    expect(p.errors).toEqual([{ field: 'tradingsymbol', message: 'No instrument NOPE on NSE' }]);
  });

  it('maps every trading rule to its wire field', async () => {
    const opt = await findInstrument(
      api,
      (i) => i.instrument_type === 'CE' && String(i.tradingsymbol).startsWith('NIFTY'),
    );
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ quantity: 1.5 }, 'quantity', 'invalid_field'],
      [{ product: 'NRML' }, 'product', 'invalid_combination'],
      [{ validity: 'IOC', order_type: 'SL', price: 100, trigger_price: 99 }, 'validity', 'invalid_combination'],
      [{ order_type: 'LIMIT' }, 'price', 'invalid_field'],
      [{ order_type: 'LIMIT', price: 100.03 }, 'price', 'invalid_field'],
      [{ order_type: 'MARKET', price: 100 }, 'price', 'invalid_combination'],
      [{ order_type: 'SL', price: 100 }, 'trigger_price', 'invalid_field'],
      [{ order_type: 'SL', price: 100, trigger_price: 101 }, 'trigger_price', 'invalid_combination'],
      [
        { order_type: 'SL', price: 100, trigger_price: 99, transaction_type: 'SELL' },
        'trigger_price',
        'invalid_combination',
      ],
      [{ order_type: 'SL-M', trigger_price: 100.02 }, 'trigger_price', 'invalid_field'],
      [{ order_type: 'LIMIT', price: 100, trigger_price: 99 }, 'trigger_price', 'invalid_combination'],
      [
        {
          exchange: 'NFO',
          tradingsymbol: opt.tradingsymbol,
          order_type: 'SL-M',
          trigger_price: 100,
          quantity: opt.lot_size,
          product: 'NRML',
        },
        'order_type',
        'invalid_combination',
      ],
      [{ exchange: 'NFO', tradingsymbol: opt.tradingsymbol, quantity: opt.lot_size + 1 }, 'quantity', 'invalid_field'],
      [
        { exchange: 'NFO', tradingsymbol: opt.tradingsymbol, quantity: opt.freeze_quantity + opt.lot_size },
        'quantity',
        'invalid_field',
      ],
      [
        { exchange: 'NFO', tradingsymbol: opt.tradingsymbol, quantity: opt.lot_size, product: 'CNC' },
        'product',
        'invalid_combination',
      ],
    ];
    for (const [override, field, code] of cases) {
      const r = await api.place(override);
      expect(r.status, JSON.stringify(override)).toBe(400);
      expect(
        r.body.errors.map((e: { field: string }) => e.field),
        JSON.stringify(override),
      ).toContain(field);
      expect(r.body.errors.find((e: { field: string }) => e.field === field).message.length).toBeGreaterThan(10);
      if (r.body.errors.length === 1) expect(r.body.code).toBe(code);
    }
  });

  it('refuses a price that would round to ₹0.00 or off the tick, on placement and on modification', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const before = api.broker.orderCount();
    for (const price of [1e-9, 5e-324]) {
      const p = problem(await api.place({ order_type: 'LIMIT', price }), 400, 'invalid_field');
      expect(p.errors).toEqual([{ field: 'price', message: 'Price must be at least one tick (₹0.05)' }]);
      const t = problem(await api.place({ order_type: 'SL-M', trigger_price: price }), 400, 'invalid_field');
      expect(t.errors).toEqual([
        { field: 'trigger_price', message: 'Trigger price must be at least one tick (₹0.05)' },
      ]);
    }
    expect(api.broker.orderCount()).toBe(before);

    const limit = Math.round((infy.last_price - 20) * 20) / 20;
    const resting = await api.place({ order_type: 'LIMIT', price: limit });
    for (const price of [5e-324, limit + 0.0000001]) {
      const p = problem(await api.call('PATCH', `/orders/${resting.body.order_id}`, { price }), 400, 'invalid_field');
      expect(p.errors?.[0]?.field).toBe('price');
    }
    expect(await api.order(resting.body.order_id)).toMatchObject({ price: limit, status: 'OPEN' });
  });

  it('404 for unknown orders, paths and instruments; 405 with Allow for a wrong method', async () => {
    problem(await api.call('GET', '/orders/123'), 404, 'not_found');
    problem(await api.call('GET', '/orders/123/history'), 404, 'not_found');
    problem(await api.call('PATCH', '/orders/123', { quantity: 2 }), 404, 'not_found');
    problem(await api.call('DELETE', '/orders/123'), 404, 'not_found');
    problem(await api.call('GET', '/nope'), 404, 'not_found');
    problem(await api.call('GET', '/instruments/999/candles?interval=day'), 404, 'not_found');
    const r = await api.call('DELETE', '/funds');
    problem(r, 405, 'method_not_allowed');
    expect(r.headers.get('allow')).toBe('GET');
  });

  it('413 for an oversized body', async () => {
    const r = await api.call('POST', '/orders', undefined, {
      raw: `{"x":"${'a'.repeat(70_000)}"}`,
      headers: { 'content-type': 'application/json' },
    });
    problem(r, 413, 'payload_too_large');
  });

  it('hides the control interface unless enabled', async () => {
    const plain = await startTestBroker({ control: false });
    try {
      problem(await plain.call('GET', '/_control/sessions'), 404, 'not_found');
    } finally {
      await plain.close();
    }
    expect((await api.call('GET', '/_control/sessions', undefined, { token: null })).status).toBe(200);
  });

  it.each([
    ['no control secret', {}, 'missing'],
    ['a wrong control secret', { 'X-Paper-Control': 'guess' }, 'wrong secret'],
    ['a session token instead of the secret', { 'X-Paper-Control': 'TOKEN' }, 'wrong secret'],
  ])('refuses %s with 401 naming X-Paper-Control, and lists no tokens', async (_, given, why) => {
    const headers = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, v.replace('TOKEN', api.token)]));
    for (const [method, path] of [
      ['GET', '/_control/sessions'],
      ['POST', '/_control/faults'],
    ] as const) {
      const r = await fetch(`${api.broker.url}${path}`, {
        method,
        headers: { ...headers, 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: JSON.stringify({ server_error: 1 }) } : {}),
      });
      const body = (await r.json()) as { code: string; detail: string; errors: unknown[] };
      expect(r.status).toBe(401);
      expect(r.headers.get('content-type')).toMatch(/problem\+json/);
      expect(body.code).toBe('token_invalid');
      expect(body.errors).toEqual([{ field: 'X-Paper-Control', message: why }]);
      expect(JSON.stringify(body)).not.toContain(api.token);
    }
    // Nothing changed: orders still go through (the faults were not set).
    expect((await api.place()).status).toBe(201);
  });

  it('answers the secret the broker printed (on its handle)', async () => {
    expect(api.broker.controlSecret).toMatch(/^[\w-]{32}$/);
    const r = await fetch(`${api.broker.url}/_control/sessions`, {
      headers: { 'X-Paper-Control': api.broker.controlSecret ?? '' },
    });
    expect(r.status).toBe(200);
  });
});

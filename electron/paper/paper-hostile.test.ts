import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WireProblem } from '../wire/rest-schemas';
import { rawHttp, upgradeRequest, type RawHttpReply } from './raw-http';
import { AUTH_FAILURES } from './auth-guard';
import { type Api, startTestBroker } from './test-helpers';

/**
 * Inputs an attacker on the same machine can send without credentials, each of which once
 * crashed the broker or earned a degraded answer (docs/api.md §Hostile input). Every reply
 * here must be problem+json naming what is wrong, and the broker must keep serving.
 */

let api: Api;
beforeAll(async () => {
  api = await startTestBroker();
});
afterAll(() => api.close());

function problemOf(r: RawHttpReply | null, status: number): WireProblem {
  expect(r?.status).toBe(status);
  expect(r?.headers['content-type']).toBe('application/problem+json');
  return WireProblem.parse(JSON.parse(r?.body ?? ''));
}

async function stillServes(): Promise<void> {
  expect((await api.call('GET', '/funds')).status).toBe(200);
}

describe('request targets new URL() cannot parse', () => {
  it.each(['//[/v1/funds', 'http://[::1/v1/funds', '//[/v1/stream'])(
    'GET %s answers 400 naming the path, not 500',
    async (target) => {
      const r = await rawHttp(
        api.broker.port,
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      );
      expect(problemOf(r, 400).errors?.[0]?.field).toBe('path');
      await stillServes();
    },
  );

  it.each(['//[/v1/stream', 'http://[::1/v1/stream'])(
    'a WebSocket upgrade to %s is refused with 400 and the broker keeps serving',
    async (target) => {
      const r = await rawHttp(api.broker.port, upgradeRequest(target, { Authorization: `Bearer ${api.token}` }));
      expect(problemOf(r, 400).errors?.[0]?.field).toBe('path');
      await stillServes();
    },
  );
});

describe('oversized and malformed requests', () => {
  it('a 20 KB path or bearer token gets 431 problem+json, not a bare status line', async () => {
    const longPath = await rawHttp(
      api.broker.port,
      `GET /v1/orders/${'9'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    expect(problemOf(longPath, 431).code).toBe('headers_too_large');
    const longBearer = await rawHttp(
      api.broker.port,
      `GET /v1/funds HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
    );
    expect(problemOf(longBearer, 431).code).toBe('headers_too_large');
    await stillServes();
  });

  it('a request line that is not HTTP gets 400 problem+json', async () => {
    const r = await rawHttp(api.broker.port, 'HELLO THERE\r\n\r\n');
    expect(problemOf(r, 400).code).toBe('malformed_request');
    await stillServes();
  });
});

describe('clients that give up', () => {
  it('a client that aborts a request body is not logged as a bug, and the broker keeps serving', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      for (let i = 0; i < 5; i++) {
        const socket = connect(api.broker.port, '127.0.0.1');
        await new Promise((resolve) => socket.once('connect', resolve));
        // `Expect: 100-continue` makes the server say when its handler is reading the body.
        const reading = new Promise((resolve) => socket.once('data', resolve));
        socket.write(
          `POST /v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${api.token}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 500\r\nExpect: 100-continue\r\n\r\n',
        );
        expect(String(await reading)).toMatch(/^HTTP\/1\.1 100/);
        socket.write('{"exchange":"NSE",');
        socket.destroy();
      }
      await stillServes();
      await api.call('GET', '/funds'); // a full round trip after the last abort was handled
      expect(errors.mock.calls.filter((c) => String(c[0]).includes('unexpected error'))).toEqual([]);
    } finally {
      errors.mockRestore();
    }
  });
});

describe('order bodies that say two things', () => {
  it('a body naming transaction_type twice is refused with 400 naming it, and no order is created', async () => {
    const before = api.broker.orderCount();
    const raw =
      '{"exchange":"NSE","tradingsymbol":"INFY","transaction_type":"BUY","quantity":1,"order_type":"MARKET",' +
      '"product":"MIS","validity":"DAY","transaction_type":"SELL"}';
    const r = await api.call('POST', '/orders', undefined, { raw, headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ field: 'transaction_type', message: expect.stringContaining('more than once') }]);
    expect(api.broker.orderCount()).toBe(before);
  });

  it.each([1e-9, 5e-324])('a LIMIT price of %s (zero once rounded to ₹0.0001) is a 400 naming price', async (price) => {
    const before = api.broker.orderCount();
    const r = await api.place({ order_type: 'LIMIT', price });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { field: string }) => e.field)).toEqual(['price']);
    expect(api.broker.orderCount()).toBe(before);
  });
});

describe('guessing credentials', () => {
  it('wrong bearer tokens from one address are refused with 429 after a burst, while a valid token keeps working', async () => {
    const started = Date.now();
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 60; i++) {
      const r = await api.call('GET', '/funds', undefined, { token: `guess-${i}` });
      statuses.push(r.status);
      if (r.status === 429) retryAfter ??= r.headers.get('retry-after');
    }
    const allowed = AUTH_FAILURES.burst + Math.ceil(((Date.now() - started) / 1000) * AUTH_FAILURES.perSecond);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(allowed);
    expect(statuses.at(-1)).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect((await api.call('GET', '/funds')).status).toBe(200);
  });

  it('wrong api secrets are refused with 429 after a burst, while the right secret still logs in', async () => {
    const b = await startTestBroker();
    try {
      const login = (secret: string) =>
        b.call('POST', '/session', { api_key: 'paper', api_secret: secret }, { token: null });
      const statuses: number[] = [];
      for (let i = 0; i < 60; i++) statuses.push((await login(`guess-${i}`)).status);
      expect(statuses.at(-1)).toBe(429);
      expect(statuses.filter((s) => s === 401).length).toBeLessThan(60);
      expect((await login('paper')).status).toBe(201);
    } finally {
      await b.close();
    }
  });
});

describe('a page that rebinds its own name to 127.0.0.1', () => {
  const get = (target: string, host: string, extra = ''): Promise<RawHttpReply | null> =>
    rawHttp(api.broker.port, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\n${extra}Connection: close\r\n\r\n`);

  it.each(['/v1/funds', '/v1/_control/sessions', '/kite/user/margins'])(
    'GET %s under Host attacker.example is refused with 403 naming Host',
    async (target) => {
      const r = await get(target, 'attacker.example:8080', `Authorization: Bearer ${api.token}\r\n`);
      expect(problemOf(r, 403).errors?.[0]?.field).toBe('Host');
    },
  );

  it('the stream refuses the upgrade under that name', async () => {
    const r = await rawHttp(
      api.broker.port,
      upgradeRequest('/v1/stream', { Host: 'attacker.example', Authorization: `Bearer ${api.token}` }),
    );
    expect(problemOf(r, 403).errors?.[0]?.field).toBe('Host');
  });

  it.each(['127.0.0.1', `127.0.0.1:${'PORT'}`, 'localhost', 'LOCALHOST:1', '[::1]:9'])(
    'a loopback name (%s) is answered',
    async (host) => {
      const r = await get(
        '/v1/funds',
        host.replace('PORT', String(api.broker.port)),
        `Authorization: Bearer ${api.token}\r\n`,
      );
      expect(r?.status).toBe(200);
    },
  );
});

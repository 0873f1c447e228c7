import { describe, expect, it } from 'vitest';
import { WireOrderAck } from '../wire/rest-schemas';
import { parseFaults } from './faults';
import { startTestBroker } from './test-helpers';

describe('rate limits', () => {
  it('answers 429 with Retry-After and RateLimit headers once the burst is spent', async () => {
    const api = await startTestBroker({ rate: { perSecond: 1, burst: 3 } });
    try {
      // The login took one request from the address bucket, not the token's.
      const ok = await api.call('GET', '/funds');
      expect(ok.headers.get('ratelimit-policy')).toBe('"default";q=3;w=3');
      expect(ok.headers.get('ratelimit')).toMatch(/^"default";r=2;t=\d+$/);
      await api.call('GET', '/funds');
      await api.call('GET', '/funds');
      const refused = await api.call('GET', '/funds');
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get('ratelimit')).toMatch(/r=0/);
    } finally {
      await api.close();
    }
  });

  it('limits order placement with its own bucket', async () => {
    const api = await startTestBroker({ rate: { perSecond: 2, burst: 50 } });
    try {
      const statuses: number[] = [];
      for (let n = 0; n < 4; n++) statuses.push((await api.place()).status);
      expect(statuses.slice(0, 2)).toEqual([201, 201]);
      expect(statuses).toContain(429);
      const r = await api.place();
      expect(r.headers.get('ratelimit-policy')).toContain('"orders";q=2;w=1');
      expect((await api.call('GET', '/orders')).status).toBe(200);
    } finally {
      await api.close();
    }
  });
});

describe('faults', () => {
  it('parses a spec and refuses unknown faults or bad values', () => {
    expect(parseFaults('drop_reply=0.2, latency_ms=30')).toEqual({ drop_reply: 0.2, latency_ms: 30 });
    expect(() => parseFaults('explode=1')).toThrow(/unknown fault/);
    expect(() => parseFaults('drop_reply=2')).toThrow(/probability/);
  });

  it('drop_reply commits the order, then destroys the connection', async () => {
    const api = await startTestBroker({ faults: 'drop_reply=1' });
    try {
      const before = api.broker.orderCount();
      await expect(api.place({ client_order_id: 'lost-1' })).rejects.toThrow();
      api.broker.setFaults({});
      expect(api.broker.orderCount()).toBe(before + 1);
      const found = (await api.call('GET', '/orders?client_order_id=lost-1')).body.orders;
      expect(found).toHaveLength(1);
    } finally {
      await api.close();
    }
  });

  it('server_error answers 5xx, about half of them after committing', async () => {
    const api = await startTestBroker({ faults: 'server_error=1', seed: 3 });
    try {
      const statuses = new Set<number>();
      for (let n = 0; n < 24; n++) {
        const r = await api.place({ client_order_id: `se-${n}` });
        statuses.add(r.status);
        expect(r.headers.get('content-type')).toBe('application/problem+json');
      }
      for (const s of statuses) expect([500, 502, 503, 504]).toContain(s);
      api.broker.setFaults({});
      const committed = api.broker.orderCount();
      expect(committed).toBeGreaterThan(0);
      expect(committed).toBeLessThan(24);
    } finally {
      await api.close();
    }
  });

  it('rate_limit answers 429 with Retry-After without doing anything', async () => {
    const api = await startTestBroker({ faults: { rate_limit: 1 } });
    try {
      const r = await api.place();
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).toBe('1');
      expect(api.broker.orderCount()).toBe(0);
    } finally {
      await api.close();
    }
  });

  it('shape_change answers 2xx with a renamed field; latency only delays', async () => {
    const api = await startTestBroker({ control: true });
    try {
      api.broker.setFaults('shape_change=1');
      const r = await api.place();
      expect(r.status).toBe(201);
      expect(WireOrderAck.safeParse(r.body).success).toBe(false);
      expect(r.body.orderId).toBeDefined();
      const list = await api.call('GET', '/orders');
      expect(list.body.orders).toBeUndefined();
      api.broker.setFaults('latency_ms=20');
      expect((await api.call('GET', '/funds')).status).toBe(200);
    } finally {
      await api.close();
    }
  });

  it('token_expiry answers 401 token_expired and the token stays dead', async () => {
    const api = await startTestBroker({ faults: 'token_expiry=1' });
    try {
      const r = await api.call('GET', '/funds');
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('token_expired');
      api.broker.setFaults({});
      expect((await api.call('GET', '/funds')).body.code).toBe('token_expired');
    } finally {
      await api.close();
    }
  });

  it('never faults the control interface, which can also set and clear faults', async () => {
    const api = await startTestBroker({ faults: 'drop_reply=1,server_error=1' });
    try {
      const set = await api.call('POST', '/_control/faults', { rate_limit: 1 }, { token: null });
      expect(set.body).toEqual({ faults: { rate_limit: 1 } });
      expect((await api.call('GET', '/funds')).status).toBe(429);
      expect((await api.call('POST', '/_control/faults', { nope: 1 }, { token: null })).status).toBe(400);
      await api.call('POST', '/_control/faults', {}, { token: null });
      expect((await api.call('GET', '/funds')).status).toBe(200);
      const infy = await api.instrument('NSE', 'INFY');
      const p = await api.call(
        'POST',
        '/_control/price',
        { instrument_token: infy.instrument_token, last_price: 1234.5 },
        { token: null },
      );
      expect(p.body).toMatchObject({ instrument_token: infy.instrument_token, last_price: 1234.5 });
      expect((await api.instrument('NSE', 'INFY')).last_price).toBe(1234.5);
      expect(
        (
          await api.call(
            'POST',
            '/_control/price',
            { instrument_token: infy.instrument_token, last_price: 1234.51 },
            { token: null },
          )
        ).status,
      ).toBe(400);
      expect(
        (await api.call('POST', '/_control/price', { instrument_token: 1, last_price: 10 }, { token: null })).status,
      ).toBe(404);
      const tick = await api.call('POST', '/_control/tick', { count: 2 }, { token: null });
      expect(tick.body.moved).toBeGreaterThan(0);
      const sessions = (await api.call('GET', '/_control/sessions', undefined, { token: null })).body.sessions;
      expect(sessions[0]).toMatchObject({ access_token: api.token, user_id: 'PAPER01', scope: 'trade', active: true });
    } finally {
      await api.close();
    }
  });
});

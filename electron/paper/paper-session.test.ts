import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WireProblem, WireSession } from '../wire/rest-schemas';
import { type Api, startTestBroker } from './test-helpers';

let api: Api;
beforeAll(async () => {
  api = await startTestBroker();
});
afterAll(() => api.close());

describe('session', () => {
  it('logs in with paper/paper and returns a Bearer token with an IST expiry', async () => {
    const r = await api.call('POST', '/session', { api_key: 'paper', api_secret: 'paper' }, { token: null });
    expect(r.status).toBe(201);
    const s = WireSession.parse(r.body);
    expect(s).toMatchObject({ token_type: 'Bearer', scope: 'trade', user_id: 'PAPER01' });
    expect(s.expires_at).toMatch(/\+05:30$/);
    expect(api.broker.sessions().some((x) => x.token === s.access_token)).toBe(true);
  });

  it('refuses wrong credentials with 401 and a bad body with 400', async () => {
    const bad = await api.call('POST', '/session', { api_key: 'paper', api_secret: 'nope' }, { token: null });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('content-type')).toBe('application/problem+json');
    expect(WireProblem.parse(bad.body).code).toBe('invalid_credentials');
    const missing = await api.call('POST', '/session', { api_key: 'paper' }, { token: null });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ field: 'api_secret', message: 'is required' }]);
    const scope = await api.call(
      'POST',
      '/session',
      { api_key: 'paper', api_secret: 'paper', scope: 'admin' },
      { token: null },
    );
    expect(scope.body.errors[0].field).toBe('scope');
  });

  it('answers 401 token_invalid without a token, with a garbage token, and after logout', async () => {
    expect((await api.call('GET', '/orders', undefined, { token: null })).body.code).toBe('token_invalid');
    const garbage = await api.call('GET', '/orders', undefined, { token: 'nope' });
    expect(garbage.status).toBe(401);
    expect(garbage.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const s = await api.call('POST', '/session', { api_key: 'paper', api_secret: 'paper' }, { token: null });
    const t = s.body.access_token as string;
    expect((await api.call('DELETE', '/session', undefined, { token: t })).status).toBe(204);
    const after = await api.call('GET', '/funds', undefined, { token: t });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('token_invalid');
  });

  it('answers 401 token_expired once the token lifetime has passed, not a millisecond before', async () => {
    let now = Date.parse('2026-11-24T10:00:00+05:30');
    const short = await startTestBroker({ tokenTtlMs: 30_000, clock: () => now });
    try {
      now += 29_999;
      expect((await short.call('GET', '/orders')).status).toBe(200);
      now += 1;
      const r = await short.call('GET', '/orders');
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('token_expired');
    } finally {
      await short.close();
    }
  });

  it('gives read-scope tokens 403 on order changes, before looking at state', async () => {
    const s = await api.call(
      'POST',
      '/session',
      { api_key: 'paper', api_secret: 'paper', scope: 'read' },
      { token: null },
    );
    const read = s.body.access_token as string;
    expect(s.body.scope).toBe('read');
    expect((await api.call('GET', '/orders', undefined, { token: read })).status).toBe(200);
    const place = await api.call('POST', '/orders', { nonsense: true }, { token: read });
    expect(place.status).toBe(403);
    expect(place.body.code).toBe('forbidden');
    // Even on an order that does not exist, and on one already cancelled.
    expect((await api.call('DELETE', '/orders/does-not-exist', undefined, { token: read })).status).toBe(403);
    expect((await api.call('PATCH', '/orders/does-not-exist', { quantity: 1 }, { token: read })).status).toBe(403);
    expect((await api.call('PUT', '/orders/does-not-exist', { quantity: 1 }, { token: read })).status).toBe(403);
  });
});

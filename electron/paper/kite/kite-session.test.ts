import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KiteTest, placeParams, startKiteTest } from './test-kite';

let t: KiteTest;
beforeAll(async () => {
  t = await startKiteTest({ kiteRedirectUrl: 'http://127.0.0.1:1/app/callback?from=kite' });
});
afterAll(() => t.close());

describe('/kite login (docs/kite.md §Login)', () => {
  it('the login page redirects to the app with a request token, action=login, status=success and the redirect_params echoed', async () => {
    const to = await t.loginRedirect(`&redirect_params=${encodeURIComponent('basket=7&who=me')}`);
    expect(`${to.origin}${to.pathname}`).toBe('http://127.0.0.1:1/app/callback');
    expect(to.searchParams.get('from')).toBe('kite');
    expect(to.searchParams.get('request_token')).toMatch(/^[0-9a-f]{32}$/);
    expect(to.searchParams.get('action')).toBe('login');
    expect(to.searchParams.get('status')).toBe('success');
    expect(to.searchParams.get('basket')).toBe('7');
    expect(to.searchParams.get('who')).toBe('me');
  });

  it('the login page refuses an unknown api_key with no request token', async () => {
    const r = await fetch(`${t.root}/connect/login?v=3&api_key=other`, { redirect: 'manual' });
    expect(r.status).toBe(400);
    expect(r.headers.get('location')).toBeNull();
  });

  it('generateSession trades the request token for an access token that reads the profile', async () => {
    const kc = t.client();
    const rt = (await t.loginRedirect()).searchParams.get('request_token') ?? '';
    const s = await kc.generateSession(rt, 'paper');
    expect(s.access_token).toEqual(expect.any(String));
    expect(s.user_id).toBe('PAPER01');
    expect(s.login_time).toBeInstanceOf(Date);
    const profile = await kc.getProfile();
    expect(profile.user_id).toBe('PAPER01');
    expect(profile.order_types).toContain('SL-M');
  });

  it('a request token works once: the second exchange is a TokenException with HTTP 403', async () => {
    const rt = (await t.loginRedirect()).searchParams.get('request_token') ?? '';
    await t.client().generateSession(rt, 'paper');
    await expect(t.client().generateSession(rt, 'paper')).rejects.toMatchObject({ error_type: 'TokenException' });
    const checksum = createHash('sha256').update(`paper${rt}paper`).digest('hex');
    const r = await fetch(`${t.root}/session/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-kite-version': '3' },
      body: new URLSearchParams({ api_key: 'paper', request_token: rt, checksum }).toString(),
    });
    expect(r.status).toBe(403);
    expect(await r.json()).toMatchObject({ status: 'error', error_type: 'TokenException', data: null });
  });

  it('a wrong api_secret (bad checksum) is a TokenException and leaves the request token usable', async () => {
    const rt = (await t.loginRedirect()).searchParams.get('request_token') ?? '';
    await expect(t.client().generateSession(rt, 'wrong')).rejects.toMatchObject({ error_type: 'TokenException' });
    await expect(t.client().generateSession(rt, 'paper')).resolves.toMatchObject({ user_id: 'PAPER01' });
  });

  it('failed token exchanges are counted per address: past the budget they are 429s, a good one still works', async () => {
    const other = await startKiteTest({ authFailures: { perSecond: 0.001, burst: 2 } });
    try {
      const rt = (await other.loginRedirect()).searchParams.get('request_token') ?? '';
      const wrong = () => other.client().generateSession(rt, 'wrong');
      await expect(wrong()).rejects.toMatchObject({ error_type: 'TokenException' });
      await expect(wrong()).rejects.toMatchObject({ error_type: 'TokenException' });
      await expect(wrong()).rejects.toMatchObject({ error_type: 'NetworkException' });
      await expect(other.client().generateSession(rt, 'paper')).resolves.toMatchObject({ user_id: 'PAPER01' });
    } finally {
      await other.close();
    }
  });

  it('a call without a token is a TokenException, and the session-expiry hook sees it', async () => {
    const kc = t.client();
    let fired = 0;
    kc.setSessionExpiryHook(() => {
      fired += 1;
    });
    await expect(kc.getProfile()).rejects.toMatchObject({ error_type: 'TokenException' });
    expect(fired).toBe(1);
  });

  it('invalidateAccessToken logs out: the token no longer reads the profile', async () => {
    const kc = await t.login();
    await expect(kc.invalidateAccessToken()).resolves.toBe(true);
    await expect(kc.getProfile()).rejects.toMatchObject({ error_type: 'TokenException' });
  });

  it('the default redirect is the broker’s own page showing the request token', async () => {
    const other = await startKiteTest();
    try {
      const to = await other.loginRedirect();
      expect(to.pathname).toBe('/kite/connect/done');
      const page = await (await fetch(to)).text();
      expect(page).toContain(to.searchParams.get('request_token'));
    } finally {
      await other.close();
    }
  });
});

describe('/kite sessions across a restart (docs/kite.md §Login)', () => {
  it('an access token keeps working after the broker restarts on its journal, until its 06:00 IST', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kite-journal-'));
    try {
      const first = await startKiteTest({ dataDir: dir });
      const kc = await first.login();
      const token = (kc as unknown as { access_token: string }).access_token;
      const { order_id } = await kc.placeOrder(
        'regular',
        placeParams({ price: (await first.api.instrument('NSE', 'INFY')).last_price, tag: 'restart' }),
      );
      await first.close();
      const second = await startKiteTest({ dataDir: dir });
      try {
        const again = second.client();
        again.setAccessToken(token);
        const orders = await again.getOrders();
        expect(orders.find((o) => o.order_id === order_id)).toMatchObject({ tag: 'restart' });
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { REDIRECT, type UpstoxTest, sdkFeedResponse, startUpstoxTest } from './test-upstox';
import { upstoxExpiry } from './session';

/**
 * The /upstox dialect's edges over plain HTTP (docs/upstox.md): the two hosts, the login's
 * refusals, the token's 03:30 IST cut-off, injected faults in Upstox's words (and what a lost
 * reply leaves at the broker), and the market feed's mode changes and unsubscriptions.
 */

let t: UpstoxTest | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

interface Reply {
  status: number;
  body: { status: string; data?: unknown; errors?: Array<{ errorCode: string; propertyPath: string | null }> };
  headers: Headers;
}

async function call(method: string, url: string, token?: string, body?: unknown): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const r = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as Reply['body'], headers: r.headers };
}

async function token(
  u: UpstoxTest,
  redirectUri = REDIRECT,
): Promise<{ status: number; token: string; body: Reply['body'] }> {
  const code = (await u.authorize()).searchParams.get('code') ?? '';
  const form = new URLSearchParams({
    code,
    client_id: 'paper',
    client_secret: 'paper',
    redirect_uri: redirectUri,
    grant_type: 'authorization_code',
  });
  const r = await fetch(`${u.root}/v2/login/authorization/token`, { method: 'POST', body: form });
  const body = (await r.json()) as Reply['body'] & { access_token?: string };
  return { status: r.status, token: body.access_token ?? '', body };
}

async function equityKey(u: UpstoxTest): Promise<{ key: string; token: number; price: number }> {
  const rows = (await (await fetch(`${u.root}/instruments/complete.json`)).json()) as Array<{
    instrument_key: string;
    segment: string;
    exchange_token: string;
  }>;
  const row = rows.find((r) => r.segment === 'NSE_EQ')!;
  return { key: row.instrument_key, token: Number(row.exchange_token), price: 0 };
}

const placeBody = (key: string, o: Record<string, unknown> = {}) => ({
  quantity: 1,
  product: 'I',
  validity: 'DAY',
  price: 0,
  instrument_token: key,
  order_type: 'MARKET',
  transaction_type: 'BUY',
  trigger_price: 0,
  ...o,
});

describe('/upstox edges', () => {
  it('ends a token at the next 03:30 IST', () => {
    expect(upstoxExpiry(Date.parse('2026-11-27T10:00:00+05:30'))).toBe(Date.parse('2026-11-28T03:30:00+05:30'));
    expect(upstoxExpiry(Date.parse('2026-11-27T02:00:00+05:30'))).toBe(Date.parse('2026-11-27T03:30:00+05:30'));
    expect(upstoxExpiry(Date.parse('2026-11-27T03:30:00+05:30'))).toBe(Date.parse('2026-11-28T03:30:00+05:30'));
  });

  it('refuses the token at its cut-off with 401 UDAPI100050', async () => {
    let now = Date.parse('2026-11-27T03:29:00+05:30');
    t = await startUpstoxTest({ clock: () => now });
    const { token: tok } = await token(t);
    expect((await call('GET', `${t.root}/v2/user/profile`, tok)).status).toBe(200);
    now = Date.parse('2026-11-27T03:30:00+05:30');
    const after = await call('GET', `${t.root}/v2/user/profile`, tok);
    expect(after.status).toBe(401);
    expect(after.body.errors?.[0]?.errorCode).toBe('UDAPI100050');
  });

  it('counts guessed tokens against the address, never a login that ended', async () => {
    let now = Date.parse('2026-11-27T03:29:00+05:30');
    t = await startUpstoxTest({ clock: () => now, authFailures: { perSecond: 1, burst: 2 } });
    const { token: tok } = await token(t);
    now = Date.parse('2026-11-27T03:30:00+05:30');
    // A desk still polling with yesterday's token keeps hearing "log in again".
    for (let n = 0; n < 5; n++) expect((await call('GET', `${t.root}/v2/user/profile`, tok)).status).toBe(401);
    const guesses: number[] = [];
    for (let n = 0; n < 5; n++) guesses.push((await call('GET', `${t.root}/v2/user/profile`, `guess-${n}`)).status);
    expect(guesses).toContain(429);
  });

  it('serves only the order writes on the HFT host', async () => {
    t = await startUpstoxTest();
    const { token: tok } = await token(t);
    const hft = `http://127.0.0.1:${t.port}/upstox-hft`;
    const read = await call('GET', `${hft}/v2/order/retrieve-all`, tok);
    expect(read.status).toBe(404);
    expect(read.body.errors?.[0]?.errorCode).toBe('UDAPI100060');
    const { key } = await equityKey(t);
    const placed = await call('POST', `${hft}/v3/order/place`, tok, placeBody(key));
    expect(placed.status).toBe(200);
    expect((placed.body.data as { order_ids: string[] }).order_ids).toHaveLength(1);
  });

  it("refuses a bad login in Upstox's words, naming what is wrong", async () => {
    t = await startUpstoxTest();
    const dialog = (q: string) => fetch(`${t!.root}/v2/login/authorization/dialog?${q}`, { redirect: 'manual' });
    const wrongClient = await dialog(`client_id=other&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT)}`);
    expect(wrongClient.status).toBe(401);
    const wrongType = await dialog(`client_id=paper&response_type=token&redirect_uri=${encodeURIComponent(REDIRECT)}`);
    expect(((await wrongType.json()) as Reply['body']).errors?.[0]?.propertyPath).toBe('response_type');
    const other = await token(t, 'http://127.0.0.1:5999/elsewhere');
    expect(other.status).toBe(401);
    expect(other.body.errors?.[0]).toMatchObject({ errorCode: 'UDAPI100016', propertyPath: 'redirect_uri' });
  });

  it('answers injected 429s without Retry-After, and a dropped reply leaves the order findable by its tag', async () => {
    t = await startUpstoxTest();
    const { token: tok } = await token(t);
    const { key } = await equityKey(t);
    t.api.broker.setFaults('rate_limit=1');
    const limited = await call('GET', `${t.root}/v2/order/retrieve-all`, tok);
    expect(limited.status).toBe(429);
    expect(limited.body.errors?.[0]?.errorCode).toBe('UDAPI10005');
    expect(limited.headers.get('retry-after')).toBeNull();
    t.api.broker.setFaults('drop_reply=1');
    const before = t.api.broker.orderCount();
    await expect(call('POST', `${t.root}/v3/order/place`, tok, placeBody(key, { tag: 'lost-1' }))).rejects.toThrow();
    t.api.broker.setFaults({});
    expect(t.api.broker.orderCount()).toBe(before + 1);
    const found = await call('GET', `${t.root}/v2/order/history?tag=lost-1`, tok);
    const ids = new Set((found.body.data as Array<{ order_id: string }>).map((h) => h.order_id));
    expect(ids.size).toBe(1);
  });

  it('changes a subscription’s mode and stops feeding what was unsubscribed', async () => {
    t = await startUpstoxTest();
    const { token: tok } = await token(t);
    const rows = (await (await fetch(`${t.root}/instruments/complete.json`)).json()) as Array<{
      instrument_key: string;
      segment: string;
      exchange_token: string;
    }>;
    const [a, b, c] = rows.filter((r) => r.segment === 'NSE_EQ');
    const FeedResponse = await sdkFeedResponse();
    const auth = await call('GET', `${t.root}/v3/feed/market-data-feed/authorize`, tok);
    const ws = new WebSocket((auth.body.data as { authorized_redirect_uri: string }).authorized_redirect_uri);
    type Msg = { type?: string; feeds?: Record<string, Record<string, unknown>> };
    const got: Msg[] = [];
    const waiters: Array<() => void> = [];
    ws.on('message', (d: Buffer) => {
      got.push(FeedResponse.toObject(FeedResponse.decode(d), { enums: String, longs: Number }) as Msg);
      for (const w of waiters.splice(0)) w();
    });
    const waitFor = async (pred: (m: Msg) => boolean): Promise<Msg> => {
      for (;;) {
        const m = got.find(pred);
        if (m) return m;
        await new Promise<void>((r) => waiters.push(r));
      }
    };
    await waitFor((m) => m.type === 'market_info');
    const send = (method: string, keys: string[], mode?: string) =>
      ws.send(
        Buffer.from(
          JSON.stringify({ guid: method, method, data: { instrumentKeys: keys, ...(mode ? { mode } : {}) } }),
        ),
      );
    send('sub', [a!.instrument_key, b!.instrument_key], 'full');
    await waitFor((m) => m.type === 'initial_feed');
    send('change_mode', [a!.instrument_key], 'ltpc');
    await waitFor((m) => m.type === 'initial_feed' && m.feeds?.[a!.instrument_key]?.requestMode === 'ltpc');
    send('unsub', [b!.instrument_key]);
    // Requests are handled in order: once `c`'s initial feed is here, the unsubscription is done.
    got.length = 0;
    send('sub', [c!.instrument_key], 'ltpc');
    await waitFor((m) => m.type === 'initial_feed' && m.feeds?.[c!.instrument_key] !== undefined);
    got.length = 0;
    // Both move; only `a` is still subscribed, now in ltpc.
    t.api.broker.setPrice(Number(b!.exchange_token), 777);
    t.api.broker.setPrice(Number(a!.exchange_token), 555);
    const live = await waitFor((m) => m.type === 'live_feed' && m.feeds?.[a!.instrument_key] !== undefined);
    expect(live.feeds?.[a!.instrument_key]).toMatchObject({ ltpc: { ltp: 555 }, requestMode: 'ltpc' });
    expect(got.some((m) => m.feeds?.[b!.instrument_key] !== undefined)).toBe(false);
    ws.close();
  });

  it('closes a feed socket with 1008 once its login ends', async () => {
    t = await startUpstoxTest({ heartbeatMs: 50 });
    const { token: tok } = await token(t);
    const auth = await call('GET', `${t.root}/v3/feed/market-data-feed/authorize`, tok);
    const ws = new WebSocket((auth.body.data as { authorized_redirect_uri: string }).authorized_redirect_uri);
    await new Promise((r) => ws.once('open', r));
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    expect((await call('DELETE', `${t.root}/v2/logout`, tok)).status).toBe(200);
    expect(await closed).toBe(1008);
  });
});

import type { Connect } from 'kiteconnect';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { PaperBrokerOptions } from '../index';
import { parseAllowedIps } from './app-settings';
import { type KiteTest, placeParams, startKiteTest } from './test-kite';

/**
 * What a Kite app's developer console decides, as the paper dialect models it (docs/kite.md §Static
 * IP, §The plan), driven by Zerodha's own `kiteconnect` client.
 */

const LIMIT = placeParams({ price: 1400 });

let t: KiteTest | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

async function start(opts: PaperBrokerOptions): Promise<{ t: KiteTest; kc: Connect; expiries: () => number }> {
  t = await startKiteTest(opts);
  const kc = await t.login();
  let expired = 0;
  kc.setSessionExpiryHook(() => {
    expired += 1;
  });
  t.api.broker.setPrice((await t.api.instrument('NSE', 'INFY')).instrument_token, 1500);
  return { t, kc, expiries: () => expired };
}

describe('static IP (docs/kite.md §Static IP)', () => {
  it('an order from an address the app has not registered is a 403 PermissionException naming it; nothing is created and the session lives on', async () => {
    const { t, kc, expiries } = await start({ kiteAllowedIps: ['203.0.113.7'] });
    const refusal = {
      status: 'error',
      error_type: 'PermissionException',
      message:
        'IP (127.0.0.1) is not allowed to place orders for this app. Update allowed IPs on the Kite developer console. Learn more - https://support.zerodha.com/category/trading-and-markets/general-kite/kite-api/articles/static-ip',
    };
    await expect(kc.placeOrder('regular', LIMIT)).rejects.toMatchObject(refusal);
    expect(t.api.broker.orderCount()).toBe(0);
    // Modify and cancel are order writes too: an order placed on /v1 cannot be touched from here.
    const placed = await t.api.place({ order_type: 'LIMIT', price: 1400 });
    const id = placed.body.order_id as string;
    await expect(kc.modifyOrder('regular', id, { price: 1401 })).rejects.toMatchObject(refusal);
    await expect(kc.cancelOrder('regular', id)).rejects.toMatchObject(refusal);
    expect((await kc.getOrderHistory(id)).at(-1)).toMatchObject({ status: 'OPEN', price: 1400 });
    // Reads work from anywhere, and the token is still good: not a TokenException.
    await expect(kc.getProfile()).resolves.toMatchObject({ user_id: 'PAPER01' });
    await expect(kc.getPositions()).resolves.toHaveProperty('net');
    expect(expiries()).toBe(0);
  });

  it('the raw reply is HTTP 403, the status an expired token has: only the words tell them apart', async () => {
    const { t, kc } = await start({ kiteAllowedIps: ['2001:db8::7'] });
    const r = await fetch(`${t.root}/orders/regular`, {
      method: 'POST',
      headers: {
        authorization: `token paper:${(kc as unknown as { access_token: string }).access_token}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ ...(LIMIT as unknown as Record<string, string>), quantity: '1', price: '1400' }),
    });
    expect(r.status).toBe(403);
    expect(await r.json()).toMatchObject({
      error_type: 'PermissionException',
      message: /^IP \(127\.0\.0\.1\) is not allowed/,
    });
  });

  it('an app with no IP registered: "No IPs configured for this app."', async () => {
    const { t, kc } = await start({ kiteAllowedIps: [] });
    await expect(kc.placeOrder('regular', LIMIT)).rejects.toMatchObject({
      error_type: 'PermissionException',
      message: 'No IPs configured for this app.',
    });
    expect(t.api.broker.orderCount()).toBe(0);
  });

  it('127.0.0.1 is allowed by default, and a registered address (IPv4-mapped IPv6 as IPv4) places as usual', async () => {
    const { kc } = await start({});
    await expect(kc.placeOrder('regular', LIMIT)).resolves.toHaveProperty('order_id');
    expect(parseAllowedIps('127.0.0.1, 2001:DB8::1')).toEqual(['127.0.0.1', '2001:db8::1']);
    expect(parseAllowedIps('none')).toEqual([]);
    expect(() => parseAllowedIps('127.0.0.1,my-laptop')).toThrow(/my-laptop is not one/);
  });
});

describe('the personal plan: no market data (docs/kite.md §The plan)', () => {
  it('quotes and candles are 403 PermissionException "Insufficient permission for that call."; orders, positions, funds and holdings work', async () => {
    const { t, kc, expiries } = await start({ kitePlan: 'personal' });
    const refusal = { error_type: 'PermissionException', message: 'Insufficient permission for that call.' };
    await expect(kc.getLTP(['NSE:INFY'])).rejects.toMatchObject(refusal);
    await expect(kc.getOHLC(['NSE:INFY'])).rejects.toMatchObject(refusal);
    await expect(kc.getQuote(['NSE:INFY'])).rejects.toMatchObject(refusal);
    const token = (await t.api.instrument('NSE', 'INFY')).instrument_token;
    await expect(
      kc.getHistoricalData(token, 'minute', '2026-11-23 09:15:00', '2026-11-23 10:00:00'),
    ).rejects.toMatchObject(refusal);
    await expect(kc.placeOrder('regular', LIMIT)).resolves.toHaveProperty('order_id');
    await expect(kc.getOrders()).resolves.toHaveLength(1);
    await expect(kc.getPositions()).resolves.toHaveProperty('net');
    await expect(kc.getMargins()).resolves.toHaveProperty('equity');
    await expect(kc.getHoldings()).resolves.toEqual([]);
    // The instrument list is not market data: it stays public.
    expect((await kc.getInstruments('NSE')).length).toBeGreaterThan(0);
    expect(expiries()).toBe(0);
  });

  it('the ticker refuses the upgrade with a bare 403 "Authentication failed." — the words a refused token gets', async () => {
    const { t, kc } = await start({ kitePlan: 'personal' });
    const token = (kc as unknown as { access_token: string }).access_token;
    const ws = new WebSocket(`ws://127.0.0.1:${t.port}/kite/ws?api_key=paper&access_token=${token}`);
    const answer = await new Promise<{ status: number; body: string }>((resolve) =>
      ws.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += String(c)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      }),
    );
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual({ status: 'error', message: 'Authentication failed.' });
  });
});

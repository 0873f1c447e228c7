import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  HistoryV3Api,
  LoginApi,
  MarketQuoteApi,
  MarketQuoteV3Api,
  OrderApi,
  OrderApiV3,
  PortfolioApi,
  UserApi,
  WebsocketApi,
} from 'upstox-js-sdk';
import { REDIRECT, type UpstoxTest, codeOf, dataOf, sdk, sdkFeedResponse, startUpstoxTest } from './test-upstox';

/**
 * The /upstox dialect driven by Upstox's own SDK (docs/upstox.md): the login, every order call,
 * lookups by tag, the errors an Upstox client reads, the 429 without Retry-After, the static-IP
 * refusal, and both feeds — the market feed decoded with the `.proto` the SDK ships.
 */

let t: UpstoxTest | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

interface Row {
  instrument_key: string;
  trading_symbol: string;
  segment: string;
  instrument_type: string;
  lot_size: number;
  freeze_quantity: number;
  exchange_token: string;
}

async function master(u: UpstoxTest): Promise<Row[]> {
  const r = await fetch(`${u.root}/instruments/complete.json`);
  expect(r.status).toBe(200);
  return (await r.json()) as Row[];
}

/** A price 3% under the last, on the tick: a LIMIT BUY there rests. */
async function restingPrice(u: UpstoxTest, token: string, key: string): Promise<number> {
  const a = dataOf(await sdk((cb) => new MarketQuoteV3Api(u.client(token)).getLtp({ instrumentKey: key }, cb)));
  const q = Object.values(a.data as Record<string, { lastPrice?: number; last_price?: number }>)[0];
  return Math.floor((q?.lastPrice ?? q?.last_price ?? 0) * 0.97);
}

async function login(u: UpstoxTest): Promise<string> {
  const code = (await u.authorize()).searchParams.get('code') ?? '';
  const a = await sdk((cb) =>
    new LoginApi(u.client()).token(
      '2.0',
      { code, clientId: 'paper', clientSecret: 'paper', redirectUri: REDIRECT, grantType: 'authorization_code' },
      cb,
    ),
  );
  const token = (dataOf(a) as { accessToken?: string }).accessToken;
  if (!token) throw new Error('no access token');
  return token;
}

/** A LIMIT BUY 1 resting below the market (`price` set by `restingPrice`), overridden by `o`. */
let price = 1;
const limitBuy = (key: string, o: Record<string, unknown> = {}) => ({
  quantity: 1,
  product: 'I',
  validity: 'DAY',
  price,
  instrumentToken: key,
  orderType: 'LIMIT',
  transactionType: 'BUY',
  disclosedQuantity: 0,
  triggerPrice: 0,
  isAmo: false,
  ...o,
});

const idsOf = (a: Record<string, unknown>): string[] =>
  (a.data as { orderIds?: string[]; order_ids?: string[] }).orderIds ?? (a.data as { order_ids: string[] }).order_ids;

describe('/upstox with upstox-js-sdk', () => {
  it('logs in by authorization code: redirect with code and state, single-use code, token reads the profile', async () => {
    t = await startUpstoxTest();
    const to = await t.authorize('s-42');
    expect(to.origin + to.pathname).toBe(REDIRECT);
    expect(to.searchParams.get('state')).toBe('s-42');
    const code = to.searchParams.get('code') ?? '';
    const exchange = () =>
      sdk((cb) =>
        new LoginApi(t!.client()).token(
          '2.0',
          { code, clientId: 'paper', clientSecret: 'paper', redirectUri: REDIRECT, grantType: 'authorization_code' },
          cb,
        ),
      );
    const first = await exchange();
    const token = (dataOf(first) as { accessToken: string }).accessToken;
    const again = await exchange();
    expect(again.ok).toBe(false);
    expect(codeOf(again)).toBe('UDAPI100016');
    const profile = dataOf(await sdk((cb) => new UserApi(t!.client(token)).getProfile('2.0', cb)));
    expect((profile.data as { broker: string }).broker).toBe('UPSTOX');
    const refused = await sdk((cb) => new UserApi(t!.client('not-a-token')).getProfile('2.0', cb));
    expect(refused.ok ? 0 : refused.status).toBe(401);
    expect(codeOf(refused)).toBe('UDAPI100050');
  });

  it('places, modifies, cancels and reads an order; lower-case statuses; order ids always an array', async () => {
    t = await startUpstoxTest();
    const token = await login(t);
    const rows = await master(t);
    const infy = rows.find((r) => r.segment === 'NSE_EQ' && r.trading_symbol === 'INFY');
    expect(infy?.instrument_key).toMatch(/^NSE_EQ\|INE[0-9A-Z]{9}$/);
    const key = infy!.instrument_key;
    const c = t.client(token);
    price = await restingPrice(t, token, key);
    const placed = dataOf(
      await sdk((cb) => new OrderApiV3(c).placeOrder(limitBuy(key, { tag: 'desk-1' }), {}, cb, 'tradedesk')),
    );
    const [id] = idsOf(placed);
    expect(id).toBeTruthy();
    const details = dataOf(await sdk((cb) => new OrderApi(c).getOrderStatus({ orderId: id! }, cb)));
    expect(details.data).toMatchObject({ status: 'open', product: 'I', tag: 'desk-1', instrumentToken: key });
    dataOf(
      await sdk((cb) =>
        new OrderApiV3(c).modifyOrder(
          { orderId: id, quantity: 2, price: price - 1, orderType: 'LIMIT', validity: 'DAY', triggerPrice: 0 },
          cb,
        ),
      ),
    );
    const book = dataOf(await sdk((cb) => new OrderApi(c).getOrderBook('2.0', cb)));
    expect((book.data as Array<Record<string, unknown>>).find((o) => o.orderId === id)).toMatchObject({
      quantity: 2,
      price: price - 1,
    });
    dataOf(await sdk((cb) => new OrderApiV3(c).cancelOrder(id!, cb)));
    const history = dataOf(await sdk((cb) => new OrderApi(c).getOrderDetails('2.0', { orderId: id! }, cb)));
    const statuses = (history.data as Array<{ status: string }>).map((h) => h.status);
    expect(statuses.at(-1)).toBe('cancelled');
    expect(statuses).toContain('open');
    // A market buy fills: its trade, the position and the funds read back through the SDK.
    const filled = idsOf(
      dataOf(await sdk((cb) => new OrderApiV3(c).placeOrder(limitBuy(key, { orderType: 'MARKET', price: 0 }), {}, cb))),
    );
    const trades = dataOf(await sdk((cb) => new OrderApi(c).getTradesByOrder(filled[0]!, '2.0', cb)));
    expect((trades.data as unknown[]).length).toBeGreaterThan(0);
    const day = dataOf(await sdk((cb) => new OrderApi(c).getTradeHistory('2.0', cb)));
    expect((day.data as Array<{ orderId: string }>).some((tr) => tr.orderId === filled[0])).toBe(true);
    const positions = dataOf(await sdk((cb) => new PortfolioApi(c).getPositions('2.0', cb)));
    expect((positions.data as Array<Record<string, unknown>>).find((p) => p.instrumentToken === key)).toMatchObject({
      quantity: 1,
      product: 'I',
    });
    dataOf(await sdk((cb) => new PortfolioApi(c).getHoldings('2.0', cb)));
    const funds = dataOf(await sdk((cb) => new UserApi(c).getUserFundMargin('2.0', {}, cb)));
    expect((funds.data as { equity: { availableMargin?: number; available_margin?: number } }).equity).toBeTruthy();
    const ltp = dataOf(await sdk((cb) => new MarketQuoteV3Api(c).getLtp({ instrumentKey: key }, cb)));
    expect(Object.keys(ltp.data as object)).toEqual(['NSE_EQ:INFY']);
    const quote = dataOf(await sdk((cb) => new MarketQuoteApi(c).getFullMarketQuote(key, '2.0', cb)));
    expect(Object.keys(quote.data as object)).toEqual(['NSE_EQ:INFY']);
    const today = new Date(t.api.broker.marketNow() + 5.5 * 3600_000).toISOString().slice(0, 10);
    const candles = dataOf(
      await sdk((cb) => new HistoryV3Api(c).getHistoricalCandleData1(key, 'days', '1', today, '2020-01-01', cb)),
    );
    expect(((candles.data as { candles: unknown[] }).candles ?? []).length).toBeGreaterThan(0);
  });

  it('looks orders up by tag: a tag is a label, history?tag lists every order carrying it', async () => {
    t = await startUpstoxTest();
    const token = await login(t);
    const key = (await master(t)).find((r) => r.segment === 'NSE_EQ')!.instrument_key;
    const c = t.client(token);
    price = await restingPrice(t, token, key);
    const a = idsOf(dataOf(await sdk((cb) => new OrderApiV3(c).placeOrder(limitBuy(key, { tag: 'same' }), {}, cb))));
    const b = idsOf(dataOf(await sdk((cb) => new OrderApiV3(c).placeOrder(limitBuy(key, { tag: 'same' }), {}, cb))));
    const byTag = dataOf(await sdk((cb) => new OrderApi(c).getOrderDetails('2.0', { tag: 'same' }, cb)));
    const ids = new Set((byTag.data as Array<{ orderId: string }>).map((h) => h.orderId));
    expect(ids).toEqual(new Set([a[0], b[0]]));
    const none = await sdk((cb) => new OrderApi(c).getOrderDetails('2.0', { tag: 'never' }, cb));
    expect(codeOf(none)).toBe('UDAPI100010');
  });

  it('slices above the freeze quantity into several orders under one tag', async () => {
    t = await startUpstoxTest();
    const token = await login(t);
    const fut = (await master(t)).find((r) => r.segment === 'NSE_FO' && r.instrument_type === 'FUT')!;
    const qty = fut.freeze_quantity + fut.lot_size;
    const placed = dataOf(
      await sdk((cb) =>
        new OrderApiV3(t!.client(token)).placeOrder(
          limitBuy(fut.instrument_key, { quantity: qty, product: 'D', tag: 'big' }),
          { slice: true },
          cb,
        ),
      ),
    );
    expect(idsOf(placed).length).toBe(2);
  });

  it("answers Upstox's errors: unknown order, cancel of a closed order, bad input naming the field", async () => {
    t = await startUpstoxTest();
    const token = await login(t);
    const key = (await master(t)).find((r) => r.segment === 'NSE_EQ')!.instrument_key;
    const c = t.client(token);
    const unknown = await sdk((cb) => new OrderApiV3(c).cancelOrder('999999999', cb));
    expect(codeOf(unknown)).toBe('UDAPI100010');
    const filled = idsOf(
      dataOf(await sdk((cb) => new OrderApiV3(c).placeOrder(limitBuy(key, { orderType: 'MARKET', price: 0 }), {}, cb))),
    );
    const closed = await sdk((cb) => new OrderApiV3(c).cancelOrder(filled[0]!, cb));
    expect(codeOf(closed)).toBe('UDAPI100040');
    const bad = await sdk((cb) => new OrderApiV3(c).placeOrder(limitBuy(key, { product: 'X' }), {}, cb));
    expect(bad.ok ? null : (bad.body as { errors: Array<{ propertyPath: string }> }).errors[0]?.propertyPath).toBe(
      'product',
    );
  });

  it('refuses a regular order while the market is closed with UDAPI100057, nothing created', async () => {
    // Sunday 10:00 IST: NSE is closed.
    t = await startUpstoxTest({ marketClock: { at: Date.parse('2026-11-29T10:00:00+05:30'), speed: 1 } });
    const token = await login(t);
    const key = (await master(t)).find((r) => r.segment === 'NSE_EQ')!.instrument_key;
    const before = t.api.broker.orderCount();
    const a = await sdk((cb) => new OrderApiV3(t!.client(token)).placeOrder(limitBuy(key), {}, cb));
    expect(codeOf(a)).toBe('UDAPI100057');
    expect(t.api.broker.orderCount()).toBe(before);
  });

  it('answers 429 UDAPI10005 with no Retry-After past the order limit', async () => {
    const at = Date.parse('2026-11-27T10:00:00.100+05:30');
    t = await startUpstoxTest({ clock: () => at, upstoxRates: { orders: { perSecond: 2 } } });
    const token = await login(t);
    const key = (await master(t)).find((r) => r.segment === 'NSE_EQ')!.instrument_key;
    const c = t.client(token);
    for (let n = 0; n < 2; n++) dataOf(await sdk((cb) => new OrderApiV3(c).placeOrder(limitBuy(key), {}, cb)));
    const over = await sdk((cb) => new OrderApiV3(c).placeOrder(limitBuy(key), {}, cb));
    expect(over.ok ? 0 : over.status).toBe(429);
    expect(codeOf(over)).toBe('UDAPI10005');
    expect(over.ok ? 'x' : over.headers['retry-after']).toBeUndefined();
  });

  it('refuses order writes from an unregistered IP with 403 UDAPI1154; reads still work', async () => {
    t = await startUpstoxTest({ upstoxAllowedIps: ['203.0.113.7'] });
    const token = await login(t);
    const key = (await master(t)).find((r) => r.segment === 'NSE_EQ')!.instrument_key;
    const c = t.client(token);
    const before = t.api.broker.orderCount();
    const refused = await sdk((cb) => new OrderApiV3(c).placeOrder(limitBuy(key), {}, cb));
    expect(refused.ok ? 0 : refused.status).toBe(403);
    expect(codeOf(refused)).toBe('UDAPI1154');
    expect(t.api.broker.orderCount()).toBe(before);
    dataOf(await sdk((cb) => new OrderApi(c).getOrderBook('2.0', cb)));
  });

  it("streams the market feed as protobuf FeedResponses the SDK's proto decodes, and the portfolio stream as JSON", async () => {
    t = await startUpstoxTest();
    const token = await login(t);
    const infy = (await master(t)).find((r) => r.segment === 'NSE_EQ' && r.trading_symbol === 'INFY')!;
    const c = t.client(token);
    const FeedResponse = await sdkFeedResponse();
    const auth = dataOf(await sdk((cb) => new WebsocketApi(c).getMarketDataFeedAuthorizeV3(cb)));
    const url = (auth.data as { authorizedRedirectUri: string }).authorizedRedirectUri;
    const ws = new WebSocket(url);
    const decoded: Array<Record<string, unknown>> = [];
    const waitFor = (pred: (m: Record<string, unknown>) => boolean) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const found = decoded.find(pred);
        if (found) return resolve(found);
        const on = () => {
          const m = decoded.find(pred);
          if (m) {
            ws.off('message', on);
            resolve(m);
          }
        };
        ws.on('message', on);
      });
    ws.on('message', (data: Buffer) => {
      decoded.push(
        FeedResponse.toObject(FeedResponse.decode(data), { enums: String, longs: Number }) as Record<string, unknown>,
      );
    });
    await waitFor((m) => m.type === 'market_info');
    ws.send(
      Buffer.from(
        JSON.stringify({ guid: 'g1', method: 'sub', data: { mode: 'full', instrumentKeys: [infy.instrument_key] } }),
      ),
    );
    const initial = await waitFor((m) => m.type === 'initial_feed');
    const feed = (initial.feeds as Record<string, { fullFeed: { marketFF: { ltpc: { ltp: number } } } }>)[
      infy.instrument_key
    ];
    expect(feed?.fullFeed.marketFF.ltpc.ltp).toBeGreaterThan(0);
    t.api.broker.setPrice(Number(infy.exchange_token), 1234.5);
    const live = await waitFor(
      (m) =>
        m.type === 'live_feed' &&
        (m.feeds as Record<string, { fullFeed?: { marketFF: { ltpc: { ltp: number } } } }>)[infy.instrument_key]
          ?.fullFeed?.marketFF.ltpc.ltp === 1234.5,
    );
    expect(live).toBeTruthy();
    ws.close();

    const pauth = await fetch(`${t.root}/v2/feed/portfolio-stream-feed/authorize?update_types=order,position`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const purl = ((await pauth.json()) as { data: { authorized_redirect_uri: string } }).data.authorized_redirect_uri;
    const pws = new WebSocket(purl);
    const texts: Array<Record<string, unknown>> = [];
    const opened = new Promise((r) => pws.once('open', r));
    pws.on('message', (d: Buffer) => texts.push(JSON.parse(d.toString('utf8')) as Record<string, unknown>));
    await opened;
    const id = idsOf(
      dataOf(
        await sdk((cb) =>
          new OrderApiV3(c).placeOrder(limitBuy(infy.instrument_key, { orderType: 'MARKET', price: 0 }), {}, cb),
        ),
      ),
    )[0];
    await new Promise<void>((resolve) => {
      const check = () => {
        if (
          texts.some((m) => m.update_type === 'order' && m.order_id === id && m.status === 'complete') &&
          texts.some((m) => m.update_type === 'position')
        )
          resolve();
        else pws.once('message', () => setImmediate(check));
      };
      check();
    });
    // A spent feed URL opens nothing.
    const again = new WebSocket(purl);
    const status = await new Promise<number>((r) =>
      again.once('unexpected-response', (_q, res) => r(res.statusCode ?? 0)),
    );
    expect(status).toBe(401);
    pws.close();
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Instrument } from '@shared/domain/instrument';
import { MarketQuote, Tick } from '@shared/domain/market';
import { Order, OrderEvent, Trade } from '@shared/domain/order';
import { BasketMargin, Funds, Holding, Position } from '@shared/domain/portfolio';
import { classifyKiteReply, kiteTokenRefused } from './kite-errors';
import { parseInstrumentsCsv } from '../../wire/kite-instruments-csv';
import { kiteTag } from './kite-tag';
import { decodeKitePacket, splitKiteFrame } from './kite-ticker';
import {
  kiteStatus,
  toCandle,
  toFunds,
  toHolding,
  toMarketQuote,
  toOrder,
  toOrderEvent,
  toPosition,
  toTrade,
  toBasketMargin,
} from './kite-to-domain';
import {
  KiteCandles,
  KiteHoldings,
  KiteMargins,
  KiteOrder,
  KiteOrderId,
  KiteOrderList,
  KiteOrderMargins,
  KiteBasketMargins,
  KitePositions,
  KiteProfile,
  KiteQuotes,
  KiteSession,
  KiteTradeList,
} from './kite-wire';

/** Zerodha's own mock replies (fixtures/SOURCE.md). */
const text = (name: string): string => readFileSync(join(__dirname, 'fixtures', name), 'utf8');
const json = (name: string): unknown => JSON.parse(text(name));

describe("Kite adapter on Zerodha's fixtures", () => {
  it('orders.json: every order the app can represent maps to a valid Order; MTF, iceberg, auction and TTL rows are left out', () => {
    const w = KiteOrderList.parse(json('orders.json'));
    const mapped = w.data.map((o) => toOrder(o));
    const kept = mapped.filter((o) => o !== null);
    for (const o of kept) expect(Order.parse(o)).toEqual(o);
    // 10 rows: the iceberg/TTL one, the auction one and the MTF one are not the app's.
    expect(kept).toHaveLength(7);
    expect(mapped[3]).toBeNull();
    expect(mapped[6]).toBeNull();
    expect(mapped[7]).toBeNull();
    expect(kept[0]).toMatchObject({
      orderId: '100000000000000',
      status: 'CANCELLED',
      exchange: 'CDS',
      price: 72,
      triggerPrice: null,
      placedAt: '2021-05-31T09:15:38+05:30',
      updatedAt: '2021-05-31T09:18:58+05:30',
    });
  });

  it('order_info.json: interim statuses are working (OPEN) with the raw status as the message', () => {
    const w = KiteOrderList.parse(json('order_info.json'));
    const events = w.data.map(toOrderEvent);
    for (const e of events) expect(OrderEvent.parse(e)).toEqual(e);
    expect(events[0]).toMatchObject({ status: 'OPEN', message: 'PUT ORDER REQ RECEIVED' });
    expect(events[1]).toMatchObject({ status: 'OPEN', message: 'VALIDATION PENDING' });
    expect(kiteStatus('CANCELLED AMO')).toBe('CANCELLED');
    expect(kiteStatus('SOMETHING NEW')).toBe('OPEN');
  });

  it('postback.json (the order-update shape) maps to an order; a tag this session sent maps back to its client reference', () => {
    const w = KiteOrder.parse({ ...(json('postback.json') as object), tag: kiteTag('td-abc') });
    const o = toOrder(w, (tag) => (tag === kiteTag('td-abc') ? 'td-abc' : null));
    expect(o).toMatchObject({ orderId: '220303000308932', status: 'COMPLETE', clientOrderId: 'td-abc', price: null });
  });

  it('order_response / order_modify / order_cancel: the order id stays a string', () => {
    for (const f of ['order_response.json', 'order_modify.json', 'order_cancel.json']) {
      expect(typeof KiteOrderId.parse(json(f)).data.order_id).toBe('string');
    }
  });

  it('trades.json and order_trades.json map to valid trades', () => {
    for (const f of ['trades.json', 'order_trades.json']) {
      const trades = KiteTradeList.parse(json(f)).data.map(toTrade);
      expect(trades.length).toBeGreaterThan(0);
      for (const t of trades) expect(Trade.parse(t)).toEqual(t);
    }
  });

  it('positions.json maps the net positions with the multiplier kept; the cover-order (CO) one is left out', () => {
    const net = KitePositions.parse(json('positions.json')).data.net.map(toPosition);
    expect(net[2]).toBeNull();
    for (const p of net.slice(0, 2)) expect(Position.parse(p)).toEqual(p);
    expect(net[0]).toMatchObject({ tradingsymbol: 'LEADMINI17DECFUT', multiplier: 1000, buyValue: 161050 });
  });

  it('holdings.json and margins.json map to holdings and funds', () => {
    const holdings = KiteHoldings.parse(json('holdings.json')).data.map(toHolding);
    for (const h of holdings) expect(Holding.parse(h)).toEqual(h);
    const funds = toFunds(KiteMargins.parse(json('margins.json')).data);
    expect(Funds.parse(funds)).toEqual(funds);
    expect(funds.availableMargin).toBeCloseTo(99725.05);
    expect(KiteOrderMargins.parse(json('order_margins.json')).data[0]?.total).toBeGreaterThan(0);
  });

  it('basket_margins.json: a spread is its hedged total beside the total before hedging, with each leg', () => {
    const m = toBasketMargin(KiteBasketMargins.parse(json('basket_margins.json')).data);
    expect(BasketMargin.parse(m)).toEqual(m);
    expect(m).toEqual({
      initial: 96504.975,
      final: 34786.725000000006,
      legs: [{ total: 95983.725 }, { total: 521.25 }],
    });
  });

  it('quote.json: a padded book loses its zero levels, the bid is absent when nobody bids', () => {
    const w = KiteQuotes.parse(json('quote.json'));
    const q = toMarketQuote(
      { exchange: 'NSE', tradingsymbol: 'INFY' },
      w.data['NSE:INFY'] as never,
      'open',
      '2021-06-08T15:45:56+05:30',
    );
    expect(MarketQuote.parse(q)).toEqual(q);
    expect(q).toMatchObject({
      bid: null,
      ask: 1412.95,
      previousClose: 1389.65,
      lastTradeAt: '2021-06-08T15:45:52+05:30',
    });
    expect(q.depth.buy).toEqual([]);
    expect(q.change).toBeCloseTo(23.3);
  });

  it('historical_minute.json and historical_oi.json (with the oi column) map to candles at +05:30', () => {
    for (const f of ['historical_minute.json', 'historical_oi.json']) {
      const candles = KiteCandles.parse(json(f)).data.candles.map(toCandle);
      expect(candles.length).toBeGreaterThan(0);
      expect(candles[0]?.ts).toMatch(/T09:15:00\+05:30$/);
    }
  });

  it('generate_session.json and profile.json give the user (and the access token)', () => {
    expect(KiteSession.parse(json('generate_session.json')).data).toMatchObject({
      user_id: 'XX0000',
      access_token: 'XXXXXX',
    });
    expect(KiteProfile.parse(json('profile.json')).data.user_id).toEqual(expect.any(String));
  });

  it('instruments CSV (CRLF): every EQ/FUT/CE/PE row of a known exchange becomes a valid instrument', async () => {
    const all = await parseInstrumentsCsv(text('instruments_all.csv'), 0);
    expect(all.instruments).toHaveLength(99);
    for (const i of all.instruments) expect(Instrument.parse(i)).toEqual(i);
    const option = all.instruments.find((i) => i.instrumentType === 'CE');
    expect(option?.strike).toBeGreaterThan(0);
    expect(option?.expiry).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await parseInstrumentsCsv(text('instruments_nse.csv'))).instruments.length).toBeGreaterThan(0);
    await expect(parseInstrumentsCsv('instrument_token,tradingsymbol\r\n1,X')).rejects.toMatchObject({
      info: { kind: 'unexpected_shape' },
    });
  });

  it('ticker packets decode to the values Zerodha’s client decodes (quote 44 bytes, full 184 bytes)', () => {
    const now = Date.parse('2021-07-05T10:41:27+05:30');
    const quote = decodeKitePacket(Buffer.from(text('ticker_quote.packet').trim(), 'base64'), now);
    const q = json('ticker_quote.json') as { last_price: number; volume: number; buy_quantity: number };
    expect(Tick.parse(quote)).toEqual(quote);
    // (ticker_quote.json's `change` is the full packet's, copied: it is not checked here.)
    expect(quote).toMatchObject({
      instrumentToken: 408065,
      lastPrice: q.last_price,
      volume: q.volume,
      totalBuyQuantity: q.buy_quantity,
    });

    const full = decodeKitePacket(Buffer.from(text('ticker_full.packet').trim(), 'base64'), 0);
    const f = json('ticker_full.json') as {
      last_price: number;
      change: number;
      timestamp: string;
      depth: { buy: unknown[]; sell: unknown[] };
    };
    expect(Tick.parse(full)).toEqual(full);
    expect(full?.change).toBeCloseTo(f.change);
    expect(full).toMatchObject({ lastPrice: f.last_price, ts: f.timestamp, bid: 1573.4, depth: f.depth });
  });

  it('prices divide by the token segment’s divisor: NSE currency (low byte 3) by 10⁷, BSE currency (6) by 10⁴', () => {
    const ltp = (token: number, raw: number): number | undefined => {
      const p = Buffer.alloc(8);
      p.writeUInt32BE(token, 0);
      p.writeInt32BE(raw, 4);
      return decodeKitePacket(p, 0)?.lastPrice;
    };
    expect(ltp((1610 << 8) | 3, 831_234_567)).toBeCloseTo(83.1234567, 7);
    expect(ltp((1610 << 8) | 6, 831_234)).toBeCloseTo(83.1234, 4);
    expect(ltp(408065, 157_370)).toBe(1573.7);
  });

  it('a frame splits into its packets; a 1-byte heartbeat holds none', () => {
    const p = Buffer.from(text('ticker_quote.packet').trim(), 'base64');
    const frame = Buffer.concat([Buffer.from([0, 2, 0, p.length]), p, Buffer.from([0, p.length]), p]);
    expect(splitKiteFrame(frame)).toHaveLength(2);
    expect(splitKiteFrame(Buffer.from([0]))).toEqual([]);
  });

  it('the tag is 20 lower-case letters and digits, the same for the same reference and different for another', () => {
    const a = kiteTag('td-AAAAAAAAAAAAAAAAAAAAAAAA');
    expect(a).toMatch(/^td[a-z2-7]{18}$/);
    expect(kiteTag('td-AAAAAAAAAAAAAAAAAAAAAAAA')).toBe(a);
    expect(kiteTag('td-AAAAAAAAAAAAAAAAAAAAAAAB')).not.toBe(a);
  });

  it('Kite error types map to the app’s kinds, naming the field Kite names', () => {
    const err = (status: number, error_type: string, message = 'x') =>
      classifyKiteReply(status, { status: 'error', message, error_type, data: null }, '2');
    expect(err(403, 'TokenException').kind).toBe('unauthorized');
    expect(err(403, 'PermissionException').kind).toBe('forbidden');
    expect(err(400, 'InputException', 'Invalid `trigger_price`.')).toMatchObject({
      kind: 'bad_request',
      field: 'triggerPrice',
    });
    expect(err(400, 'InputException', 'quantity: is required')).toMatchObject({ field: 'quantity' });
    expect(err(400, 'OrderException', 'Order cannot be cancelled').kind).toBe('conflict');
    expect(err(400, 'InputException', "Couldn't find that `order_id` (1).").kind).toBe('not_found');
    expect(err(429, 'NetworkException')).toMatchObject({ kind: 'rate_limited', retryAfterMs: 2000 });
    expect(err(502, 'DataException').kind).toBe('server_error');
    expect(err(503, 'NetworkException').kind).toBe('server_error');
    expect(err(500, 'GeneralException').kind).toBe('server_error');
    expect(err(404, 'GeneralException').kind).toBe('not_found');
    expect(classifyKiteReply(502, undefined, undefined).kind).toBe('server_error');
  });

  it('the static-IP refusal is read by its words, whatever its type, and never as an expired token', () => {
    const ipv4 =
      'IP (3.86.244.195) is not allowed to place orders for this app. Update allowed IPs on the Kite developer console. Learn more - https://support.zerodha.com/category/trading-and-markets/general-kite/kite-api/articles/static-ip';
    for (const error_type of ['PermissionException', 'TokenException', undefined]) {
      const body = { status: 'error', message: ipv4, ...(error_type ? { error_type } : {}), data: null };
      expect(classifyKiteReply(403, body, undefined)).toEqual({
        kind: 'forbidden',
        message:
          "Kite refused orders from this computer's IP (3.86.244.195) — add it to the app's allowed IPs in the Kite developer console",
      });
      expect(kiteTokenRefused(403, body)).toBe(false);
    }
    const v6 = {
      status: 'error',
      message: 'IP (2409:4090:1012:be04::1) is not allowed to place orders for this app.',
      error_type: 'PermissionException',
    };
    expect(classifyKiteReply(403, v6, undefined).message).toContain('(2409:4090:1012:be04::1)');
    const none = { status: 'error', message: 'No IPs configured for this app.', error_type: 'PermissionException' };
    expect(classifyKiteReply(403, none, undefined)).toMatchObject({
      kind: 'forbidden',
      message: expect.stringContaining('no allowed IPs'),
    });
    expect(kiteTokenRefused(403, none)).toBe(false);
    // An expired token is still one.
    expect(
      kiteTokenRefused(403, {
        status: 'error',
        message: 'Incorrect `api_key` or `access_token`.',
        error_type: 'TokenException',
      }),
    ).toBe(true);
  });

  it('Kite’s decoder names the field it could not read', () => {
    const info = classifyKiteReply(
      400,
      {
        status: 'error',
        message: 'Invalid request (failed to decode quantity, got: 65.0 (expected int))',
        error_type: 'InputException',
      },
      undefined,
    );
    expect(info).toMatchObject({ kind: 'bad_request', field: 'quantity' });
  });
});

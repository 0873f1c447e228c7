import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type TickFields, divisorOf, encodePacket, frame } from './packets';

/**
 * The ticker's encoder against Zerodha's own fixtures (fixtures/SOURCE.md): the fields of
 * `ticker_full.json` encode to exactly the bytes of `ticker_full.packet`, and a decoder written
 * to docs/kite.md §Ticker (our own) reads the fixture packets back to the fixture's values.
 */

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const packet = (name: string): Buffer => Buffer.from(fixture(name).trim(), 'base64');
interface JsonTick {
  instrument_token: number;
  last_price: number;
  last_quantity: number;
  average_price: number;
  volume: number;
  buy_quantity: number;
  sell_quantity: number;
  ohlc: { open: number; high: number; low: number; close: number };
  last_trade_time?: string;
  timestamp?: string;
  oi?: number;
  oi_day_high?: number;
  oi_day_low?: number;
  depth?: {
    buy: Array<{ price: number; quantity: number; orders: number }>;
    sell: Array<{ price: number; quantity: number; orders: number }>;
  };
}
const json = (name: string): JsonTick => JSON.parse(fixture(name)) as JsonTick;

function fieldsOf(t: JsonTick): TickFields {
  return {
    token: t.instrument_token,
    lastPrice: t.last_price,
    lastQuantity: t.last_quantity,
    averagePrice: t.average_price,
    volume: t.volume,
    buyQuantity: t.buy_quantity,
    sellQuantity: t.sell_quantity,
    ...t.ohlc,
    lastTradeTime: t.last_trade_time ? Date.parse(t.last_trade_time) / 1000 : 0,
    oi: t.oi ?? 0,
    oiDayHigh: t.oi_day_high ?? 0,
    oiDayLow: t.oi_day_low ?? 0,
    exchangeTimestamp: t.timestamp ? Date.parse(t.timestamp) / 1000 : 0,
    depth: t.depth ?? { buy: [], sell: [] },
  };
}

/** Our reading of docs/kite.md §Ticker: the fields at their offsets, prices over the divisor. */
function decode(b: Buffer): Record<string, unknown> {
  const token = b.readUInt32BE(0);
  const div = divisorOf(token);
  const price = (at: number): number => b.readInt32BE(at) / div;
  const out: Record<string, unknown> = { token, last_price: price(4) };
  if (b.length === 8) return out;
  Object.assign(out, {
    last_quantity: b.readInt32BE(8),
    average_price: price(12),
    volume: b.readInt32BE(16),
    buy_quantity: b.readInt32BE(20),
    sell_quantity: b.readInt32BE(24),
    ohlc: { open: price(28), high: price(32), low: price(36), close: price(40) },
  });
  if (b.length === 44) return out;
  const level = (n: number) => ({
    quantity: b.readInt32BE(64 + n * 12),
    price: price(68 + n * 12),
    orders: b.readUInt16BE(72 + n * 12),
  });
  return Object.assign(out, {
    last_trade_time: new Date(b.readInt32BE(44) * 1000).toISOString(),
    oi: b.readInt32BE(48),
    timestamp: new Date(b.readInt32BE(60) * 1000).toISOString(),
    depth: { buy: [0, 1, 2, 3, 4].map(level), sell: [5, 6, 7, 8, 9].map(level) },
  });
}

describe('Kite ticker packets (docs/kite.md §Ticker)', () => {
  it('the full fixture’s fields encode to exactly the fixture’s 184 bytes', () => {
    expect(encodePacket('full', fieldsOf(json('ticker_full.json'))).equals(packet('ticker_full.packet'))).toBe(true);
  });

  it('the quote fixture’s fields encode to exactly the fixture’s 44 bytes', () => {
    expect(encodePacket('quote', fieldsOf(json('ticker_quote.json'))).equals(packet('ticker_quote.packet'))).toBe(true);
  });

  it('the fixture packets decode to the fixture ticks: prices, quantities, times and the 5+5 depth', () => {
    const full = json('ticker_full.json');
    const got = decode(packet('ticker_full.packet'));
    expect(got).toMatchObject({
      token: 408065,
      last_price: full.last_price,
      last_quantity: full.last_quantity,
      average_price: full.average_price,
      volume: full.volume,
      buy_quantity: full.buy_quantity,
      sell_quantity: full.sell_quantity,
      ohlc: full.ohlc,
      oi: 0,
      depth: full.depth,
    });
    expect(Date.parse(got.last_trade_time as string)).toBe(Date.parse(full.last_trade_time ?? ''));
    expect(Date.parse(got.timestamp as string)).toBe(Date.parse(full.timestamp ?? ''));
    expect(decode(packet('ticker_quote.packet'))).toMatchObject({
      last_price: json('ticker_quote.json').last_price,
      ohlc: json('ticker_quote.json').ohlc,
    });
  });

  it('an ltp packet is the token and the price in 8 bytes', () => {
    const ltp = json('ticker_ltp.json');
    const b = encodePacket('ltp', fieldsOf({ ...json('ticker_quote.json'), last_price: ltp.last_price }));
    expect(b).toHaveLength(8);
    expect(decode(b)).toEqual({ token: 408065, last_price: 1573.15 });
  });

  it('a currency token (low byte 3) carries 0.0025 ticks exactly, at 10⁷ to the rupee', () => {
    const b = encodePacket('ltp', { ...fieldsOf(json('ticker_full.json')), token: 0x1234_03, lastPrice: 83.2525 });
    expect(b.readInt32BE(4)).toBe(832_525_000);
  });

  it('a value beyond its field is clamped, never thrown', () => {
    const f = { ...fieldsOf(json('ticker_full.json')), volume: 2 ** 40, lastPrice: Number.NaN };
    const b = encodePacket('full', { ...f, depth: { buy: [{ price: 1, quantity: 1, orders: 1e9 }], sell: [] } });
    expect(b.readInt32BE(16)).toBe(0x7fffffff);
    expect(b.readInt32BE(4)).toBe(0);
    expect(b.readUInt16BE(72)).toBe(0xffff);
  });

  it('a message is the packet count, then each packet behind its length', () => {
    const a = encodePacket('ltp', fieldsOf(json('ticker_full.json')));
    const m = frame([a, a]);
    expect(m.readUInt16BE(0)).toBe(2);
    expect(m.readUInt16BE(2)).toBe(8);
    expect(m.subarray(4, 12).equals(a)).toBe(true);
    expect(m).toHaveLength(2 + 2 * 10);
  });
});

/**
 * The Kite ticker's binary packets (docs/kite.md §Ticker): big-endian, prices as integers of
 * rupees × the token's divisor, several packets to a message behind a count and a length each.
 * The encoder never throws: a value outside its field's range is clamped to it, so no market
 * state can crash a tick.
 */

/** Bytes of each packet mode. */
export const PACKET_BYTES = { ltp: 8, quote: 44, full: 184 } as const;

/** A tick packet's mode. */
export type PacketMode = keyof typeof PACKET_BYTES;

/** One depth level as the ticker carries it (rupees). */
export interface DepthLevel {
  readonly price: number;
  readonly quantity: number;
  readonly orders: number;
}

/** Everything a `full` packet carries; `ltp` and `quote` packets carry a prefix of it. */
export interface TickFields {
  readonly token: number;
  readonly lastPrice: number;
  readonly lastQuantity: number;
  readonly averagePrice: number;
  readonly volume: number;
  readonly buyQuantity: number;
  readonly sellQuantity: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  /** The previous session's close. */
  readonly close: number;
  /** Epoch seconds of the last trade, 0 when none. */
  readonly lastTradeTime: number;
  readonly oi: number;
  readonly oiDayHigh: number;
  readonly oiDayLow: number;
  /** Epoch seconds of the tick. */
  readonly exchangeTimestamp: number;
  /** Up to five levels a side, best first (missing levels are sent as zeros). */
  readonly depth: { readonly buy: readonly DepthLevel[]; readonly sell: readonly DepthLevel[] };
}

/**
 * The price divisor Kite's ticker derives from a token's low byte (docs/kite.md §Instruments):
 * 3 (NSE currency) 10⁷, 6 (BSE currency) 10⁴, anything else 100.
 */
export function divisorOf(token: number): number {
  const segment = token & 0xff;
  if (segment === 3) return 10_000_000;
  if (segment === 6) return 10_000;
  return 100;
}

const INT32_MAX = 0x7fffffff;
const clamp32 = (n: number): number =>
  Number.isFinite(n) ? Math.max(-INT32_MAX - 1, Math.min(INT32_MAX, Math.round(n))) : 0;
const clamp16 = (n: number): number => (Number.isFinite(n) ? Math.max(0, Math.min(0xffff, Math.round(n))) : 0);

/** One packet of `mode` for `f`. */
export function encodePacket(mode: PacketMode, f: TickFields): Buffer {
  const b = Buffer.alloc(PACKET_BYTES[mode]);
  const div = divisorOf(f.token);
  const int = (at: number, n: number): void => void b.writeInt32BE(clamp32(n), at);
  const price = (at: number, rupees: number): void => int(at, rupees * div);
  b.writeUInt32BE(f.token >>> 0, 0);
  price(4, f.lastPrice);
  if (mode === 'ltp') return b;
  int(8, f.lastQuantity);
  price(12, f.averagePrice);
  int(16, f.volume);
  int(20, f.buyQuantity);
  int(24, f.sellQuantity);
  price(28, f.open);
  price(32, f.high);
  price(36, f.low);
  price(40, f.close);
  if (mode === 'quote') return b;
  int(44, f.lastTradeTime);
  int(48, f.oi);
  int(52, f.oiDayHigh);
  int(56, f.oiDayLow);
  int(60, f.exchangeTimestamp);
  const levels = [...pad5(f.depth.buy), ...pad5(f.depth.sell)];
  levels.forEach((l, n) => {
    const at = 64 + n * 12;
    int(at, l.quantity);
    price(at + 4, l.price);
    b.writeUInt16BE(clamp16(l.orders), at + 8);
  });
  return b;
}

function pad5(levels: readonly DepthLevel[]): DepthLevel[] {
  return Array.from({ length: 5 }, (_, n) => levels[n] ?? { price: 0, quantity: 0, orders: 0 });
}

/** Largest count of packets one message carries (the count is 2 bytes). */
export const MAX_PACKETS_PER_MESSAGE = 0xffff;

/** One binary message: `[count][length][packet]…` (at most MAX_PACKETS_PER_MESSAGE packets). */
export function frame(packets: readonly Buffer[]): Buffer {
  const n = Math.min(packets.length, MAX_PACKETS_PER_MESSAGE);
  const out = Buffer.alloc(2 + packets.slice(0, n).reduce((s, p) => s + 2 + p.length, 0));
  out.writeUInt16BE(n, 0);
  let at = 2;
  for (const p of packets.slice(0, n)) {
    out.writeUInt16BE(p.length, at);
    p.copy(out, at + 2);
    at += 2 + p.length;
  }
  return out;
}

/** The heartbeat: one byte, which Kite's clients read as "alive, nothing to parse". */
export const HEARTBEAT = Buffer.from([0]);

import WebSocket from 'ws';
import type { DepthLevel, Tick } from '@shared/domain/market';
import type { Order } from '@shared/domain/order';
import { toIstIso } from '@shared/lib/ist-time';
import type { AuthSource } from '../auth-source';
import type { StreamListener } from '../broker';
import { StreamSocket, type StreamDialect, type StreamSocketOptions } from '../stream/stream-socket';
import { KiteOrder } from './kite-wire';

/**
 * The price divisor of a token's segment, from its low byte (docs/kite.md §Instruments, "Token
 * low byte"): 3 (NSE currency) 10⁷, 6 (BSE currency) 10⁴, anything else paise (100).
 */
export function kiteDivisor(instrumentToken: number): number {
  const segment = instrumentToken & 0xff;
  if (segment === 3) return 10_000_000;
  if (segment === 6) return 10_000;
  return 100;
}

/** An index's token (segment 9): its packets have their own, shorter layouts. */
const INDEX_SEGMENT = 9;

/**
 * Decodes one ticker packet (without the frame's count and length prefixes) into the app's tick,
 * or null for a length it does not know (docs/kite.md §Ticker). Big-endian int32 prices are
 * divided by the token's divisor; a `full` packet's exchange timestamp dates the tick, the
 * others take `now`.
 */
export function decodeKitePacket(packet: Buffer, now: number): Tick | null {
  if (packet.length < 8) return null;
  const token = packet.readUInt32BE(0);
  const div = kiteDivisor(token);
  const price = (offset: number): number => packet.readInt32BE(offset) / div;
  const ts = (epochSeconds: number): string => toIstIso(epochSeconds > 0 ? epochSeconds * 1000 : now);
  if (packet.length === 8) return { instrumentToken: token, lastPrice: price(4), volume: 0, ts: toIstIso(now) };
  if ((token & 0xff) === INDEX_SEGMENT && (packet.length === 28 || packet.length === 32)) {
    const last = price(4);
    const close = price(20);
    return {
      instrumentToken: token,
      lastPrice: last,
      volume: 0,
      change: last - close,
      ts: packet.length === 32 ? ts(packet.readUInt32BE(28)) : toIstIso(now),
    };
  }
  if (packet.length !== 44 && packet.length !== 184) return null;
  const last = price(4);
  const tick: Tick = {
    instrumentToken: token,
    lastPrice: last,
    volume: packet.readUInt32BE(16),
    change: last - price(40),
    totalBuyQuantity: packet.readUInt32BE(20),
    totalSellQuantity: packet.readUInt32BE(24),
    ts: toIstIso(now),
  };
  if (packet.length === 44) return tick;
  const level = (offset: number): DepthLevel => ({
    quantity: packet.readUInt32BE(offset),
    price: packet.readInt32BE(offset + 4) / div,
    orders: packet.readUInt16BE(offset + 8),
  });
  const side = (start: number): DepthLevel[] =>
    [0, 1, 2, 3, 4].map((i) => level(start + i * 12)).filter((l) => l.price > 0 || l.quantity > 0);
  const buy = side(64);
  const sell = side(124);
  const segment = token & 0xff;
  return {
    ...tick,
    ts: ts(packet.readUInt32BE(60)),
    oi: segment === 1 || segment === 4 ? null : packet.readUInt32BE(48),
    bid: buy[0]?.price ?? null,
    ask: sell[0]?.price ?? null,
    depth: { buy, sell },
  };
}

/** Splits one binary frame into its packets: `[count:2][len:2][packet]…`; a 1-byte frame is a heartbeat. */
export function splitKiteFrame(frame: Buffer): Buffer[] {
  if (frame.length < 2) return [];
  const count = frame.readUInt16BE(0);
  const out: Buffer[] = [];
  let at = 2;
  for (let i = 0; i < count && at + 2 <= frame.length; i += 1) {
    const len = frame.readUInt16BE(at);
    at += 2;
    if (at + len > frame.length) break;
    out.push(frame.subarray(at, at + len));
    at += len;
  }
  return out;
}

/** Knobs of the ticker: the one policy's (`stream-socket.ts`). */
export type KiteTickerOptions = StreamSocketOptions & {
  readonly now?: () => number;
};

/** Instruments one ticker connection may subscribe to (docs/kite.md §Ticker). */
export const KITE_TICKER_LIMIT = 3000;

/** Silence after which an open socket is taken for dead: the ticker beats every second. */
const SILENCE_MS = 5_000;

/**
 * Kite's WebSocket ticker (docs/kite.md §Ticker) under the one client-side policy
 * (`StreamSocket`: reconnect, watchdog and mid-silence ping, the 3,000-instrument limit,
 * subscriptions in chunks): binary tick packets decoded in main into the ticks the `/v1` stream
 * client emits, text order updates into the same `onOrder` path, heartbeats keeping the
 * watchdog quiet. It connects with the session's token in the query (as Kite requires), and ends
 * the session once when the upgrade is refused with 403 (an expired token) or the socket is
 * closed with 1008, never looping: Kite cannot log in again without the trader.
 */
export class KiteTicker extends StreamSocket {
  public constructor(
    url: string,
    apiKey: string,
    auth: AuthSource,
    listener: StreamListener,
    toOrder: (w: KiteOrder) => Order | null,
    options: KiteTickerOptions = {},
  ) {
    const { now = Date.now, ...policy } = options;
    super(auth, listener, kiteDialect(url, apiKey, listener, toOrder, now), KITE_TICKER_LIMIT, SILENCE_MS, policy);
  }
}

function kiteDialect(
  url: string,
  apiKey: string,
  listener: StreamListener,
  toOrder: (w: KiteOrder) => Order | null,
  now: () => number,
): StreamDialect {
  return {
    name: 'Kite',
    open: (token) => {
      const u = new URL(url);
      u.searchParams.set('api_key', apiKey);
      u.searchParams.set('access_token', token);
      return new WebSocket(u.toString(), { handshakeTimeout: 10_000 });
    },
    subscription: (action, tokens) => JSON.stringify({ a: action, v: tokens }),
    mode: (mode, tokens) => JSON.stringify({ a: 'mode', v: [mode, tokens] }),
    upgradeRefused: (status) => (status === 403 || status === 401 ? 'expired' : 'retry'),
    closeEndsSession: (code) => code === 1008,
    receive: (data, isBinary, control) => {
      if (isBinary) {
        const at = now();
        for (const packet of splitKiteFrame(data as Buffer)) {
          const tick = decodeKitePacket(packet, at);
          if (tick) listener.onTick(tick);
        }
        return;
      }
      let json: unknown;
      try {
        json = JSON.parse(String(data));
      } catch {
        return;
      }
      const msg = json as { type?: unknown; data?: unknown };
      // Kite answers a subscription it will not take with a text error.
      if (msg.type === 'error' && typeof msg.data === 'string') return control.refused(msg.data);
      if (msg.type !== 'order') return;
      const parsed = KiteOrder.safeParse(msg.data);
      if (!parsed.success) return;
      const order = toOrder(parsed.data);
      if (order) listener.onOrder(order);
    },
  };
}

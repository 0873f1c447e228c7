import WebSocket from 'ws';
import type { DepthLevel, StreamMode, Tick } from '@shared/domain/market';
import type { Order } from '@shared/domain/order';
import { toIstIso } from '@shared/lib/ist-time';
import type { AuthSource } from '../auth-source';
import type { BrokerStream, StreamListener } from '../broker';
import { fullJitterDelay, type BackoffPolicy } from '../http/backoff';
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

/** Knobs of the ticker. */
export interface KiteTickerOptions {
  readonly reconnect?: Omit<BackoffPolicy, 'maxRetries'>;
  /** Silence after which an open socket is taken for dead (the ticker beats every second; default 5 s). */
  readonly silenceMs?: number;
  readonly now?: () => number;
}

/**
 * Kite's WebSocket ticker (docs/kite.md §Ticker): binary tick packets decoded in main into the
 * ticks the `/v1` stream client emits, text order updates into the same `onOrder` path, heartbeats
 * keeping a watchdog quiet. It connects with the session's token in the query (as Kite requires),
 * reconnects with jittered backoff re-sending subscriptions and modes, and ends the session once
 * when the upgrade is refused with 403 (an expired token), never looping.
 */
export class KiteTicker implements BrokerStream {
  readonly #url: string;
  readonly #apiKey: string;
  readonly #auth: AuthSource;
  readonly #listener: StreamListener;
  readonly #toOrder: (w: KiteOrder) => Order | null;
  readonly #reconnect: Omit<BackoffPolicy, 'maxRetries'>;
  readonly #silenceMs: number;
  readonly #now: () => number;
  #socket: WebSocket | null = null;
  #running = false;
  #failures = 0;
  #timer: NodeJS.Timeout | null = null;
  #watchdog: NodeJS.Timeout | null = null;
  #lastHeard = 0;
  #tokens: ReadonlySet<number> = new Set();
  #modes: ReadonlyMap<number, StreamMode> = new Map();
  #sent: ReadonlySet<number> = new Set();
  #sentModes: ReadonlyMap<number, StreamMode> = new Map();

  public constructor(
    url: string,
    apiKey: string,
    auth: AuthSource,
    listener: StreamListener,
    toOrder: (w: KiteOrder) => Order | null,
    options: KiteTickerOptions = {},
  ) {
    this.#url = url;
    this.#apiKey = apiKey;
    this.#auth = auth;
    this.#listener = listener;
    this.#toOrder = toOrder;
    this.#reconnect = options.reconnect ?? { baseMs: 250, capMs: 10_000 };
    this.#silenceMs = options.silenceMs ?? 5_000;
    this.#now = options.now ?? Date.now;
  }

  public start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#connect();
  }

  public setSubscriptions(tokens: ReadonlySet<number>, modes: ReadonlyMap<number, StreamMode> = new Map()): void {
    this.#tokens = new Set([...tokens].slice(0, 3000));
    this.#modes = modes;
    if (this.#socket?.readyState === WebSocket.OPEN) this.#sync(this.#socket);
  }

  public async stop(): Promise<void> {
    this.#running = false;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#stopWatchdog();
    const socket = this.#socket;
    this.#socket = null;
    if (socket && socket.readyState !== WebSocket.CLOSED) {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.terminate();
      });
    }
    this.#listener.onState('closed', null);
  }

  #connect(): void {
    if (!this.#running) return;
    const token = this.#auth.token();
    if (token === null) {
      this.#running = false;
      this.#listener.onState('closed', 'Not logged in');
      return;
    }
    this.#listener.onState('connecting', null);
    const url = new URL(this.#url);
    url.searchParams.set('api_key', this.#apiKey);
    url.searchParams.set('access_token', token);
    const socket = new WebSocket(url.toString(), { handshakeTimeout: 10_000 });
    this.#socket = socket;
    this.#sent = new Set();
    this.#sentModes = new Map();
    socket.on('open', () => {
      this.#failures = 0;
      this.#listener.onState('open', null);
      this.#sync(socket);
      this.#armWatchdog(socket);
    });
    socket.on('message', (data, isBinary) => {
      this.#lastHeard = performance.now();
      if (isBinary) this.#onBinary(data as Buffer);
      else this.#onText(String(data));
    });
    socket.on('unexpected-response', (_req, res) => {
      const status = res.statusCode ?? 0;
      res.resume();
      socket.terminate();
      if (status === 403 || status === 401) {
        this.#running = false;
        this.#auth.expired('Kite refused the ticker: the session has expired');
        this.#listener.onState('closed', 'Session expired');
      }
    });
    socket.on('error', () => {
      // 'close' follows and schedules the reconnect.
    });
    socket.on('close', (code) => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      this.#stopWatchdog();
      if (code === 1008 && this.#running) {
        this.#running = false;
        this.#auth.expired('Kite closed the ticker: the session has expired');
        this.#listener.onState('closed', 'Session expired');
        return;
      }
      if (this.#running) this.#scheduleReconnect();
    });
  }

  #scheduleReconnect(): void {
    if (this.#timer) return;
    const wait = fullJitterDelay(this.#failures, { ...this.#reconnect, maxRetries: Infinity });
    this.#failures += 1;
    this.#listener.onState('connecting', `Reconnecting in ${Math.round(wait)} ms`);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#connect();
    }, wait);
    this.#timer.unref();
  }

  #armWatchdog(socket: WebSocket): void {
    this.#stopWatchdog();
    this.#lastHeard = performance.now();
    const check = (): void => {
      this.#watchdog = null;
      if (this.#socket !== socket) return;
      const quiet = performance.now() - this.#lastHeard;
      if (quiet < this.#silenceMs) {
        this.#watchdog = setTimeout(check, Math.max(1, this.#silenceMs - quiet));
        this.#watchdog.unref();
        return;
      }
      socket.terminate();
    };
    this.#watchdog = setTimeout(check, this.#silenceMs);
    this.#watchdog.unref();
  }

  #stopWatchdog(): void {
    if (this.#watchdog) clearTimeout(this.#watchdog);
    this.#watchdog = null;
  }

  #sync(socket: WebSocket): void {
    const gone = [...this.#sent].filter((t) => !this.#tokens.has(t));
    const added = [...this.#tokens].filter((t) => !this.#sent.has(t));
    if (gone.length > 0) socket.send(JSON.stringify({ a: 'unsubscribe', v: gone }));
    if (added.length > 0) socket.send(JSON.stringify({ a: 'subscribe', v: added }));
    this.#sent = new Set(this.#tokens);
    const byMode = new Map<StreamMode, number[]>();
    const next = new Map<number, StreamMode>();
    for (const t of this.#tokens) {
      const want = this.#modes.get(t) ?? 'quote';
      next.set(t, want);
      const had = added.includes(t) ? 'quote' : (this.#sentModes.get(t) ?? 'quote');
      if (want === had) continue;
      byMode.set(want, [...(byMode.get(want) ?? []), t]);
    }
    for (const [mode, tokens] of byMode) socket.send(JSON.stringify({ a: 'mode', v: [mode, tokens] }));
    this.#sentModes = next;
  }

  #onBinary(frame: Buffer): void {
    const now = this.#now();
    for (const packet of splitKiteFrame(frame)) {
      const tick = decodeKitePacket(packet, now);
      if (tick) this.#listener.onTick(tick);
    }
  }

  #onText(text: string): void {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return;
    }
    const msg = json as { type?: unknown; data?: unknown };
    if (msg.type !== 'order') return;
    const parsed = KiteOrder.safeParse(msg.data);
    if (!parsed.success) return;
    const order = this.#toOrder(parsed.data);
    if (order) this.#listener.onOrder(order);
  }
}

import WebSocket from 'ws';
import type { StreamMode } from '@shared/domain/market';
import { STREAM_SUBSCRIPTION_LIMIT, WireStreamServerMessage } from '@shared/wire/schemas';
import type { AuthSource } from '../auth-source';
import type { BrokerStream, StreamListener } from '../broker';
import { fullJitterDelay, type BackoffPolicy } from '../http/backoff';
import { toOrder, toTick } from '../rest/wire-to-domain';

/** Knobs of the stream client. */
export interface StreamClientOptions {
  /** Reconnect waits: full jitter, doubling, capped (retries are unlimited while started). */
  readonly reconnect?: Omit<BackoffPolicy, 'maxRetries'>;
  /**
   * How long an open socket may stay silent (no tick, order or heartbeat) before it is taken
   * for dead and replaced. The broker sends a heartbeat every 3 s, so the default allows three
   * to go missing.
   */
  readonly silenceMs?: number;
}

const DEFAULT_RECONNECT = { baseMs: 250, capMs: 10_000 };
const DEFAULT_SILENCE_MS = 10_000;

/** Tokens per subscribe/unsubscribe message: a resubscribe of thousands goes in pieces. */
export const SUBSCRIBE_CHUNK = 500;

/** Whole numbers as a trader reads them: 3,505. */
const count = (n: number): string => n.toLocaleString('en-IN');

/**
 * The broker's WebSocket stream (docs/api.md §Stream): order updates, ticks, heartbeats.
 *
 * It authenticates the upgrade with the session's bearer token (read from the `AuthSource` at
 * each connect, never stored), parses every message with the wire schema (a malformed one is
 * dropped, never delivered), and reconnects with jittered backoff, re-sending the current
 * subscriptions. A 401 on the upgrade asks for one re-login before the next attempt.
 *
 * A watchdog replaces a socket that is open but silent past `silenceMs`: a half-open TCP
 * connection (laptop sleep, a NAT that forgot us) never errors, it just stops delivering, and
 * prices would freeze without anyone noticing. Half-way through a quiet spell it pings, so a
 * live broker that simply has nothing to say answers with a pong and keeps its socket. Ticks are
 * passed on one by one; batching them for the renderer is the app's job (`tick-batcher.ts`), so
 * a bench can read them raw.
 *
 * A broker streams at most STREAM_SUBSCRIPTION_LIMIT instruments per socket (docs/api.md
 * §Stream). The client subscribes the first that many of the wanted set and says so in the
 * stream state's detail ("Subscription limit reached: 3,000 of 3,505 …"), sends subscriptions
 * in chunks, and, if the broker still refuses one, starts the next change from a clean slate so
 * a refused subscription never leaves the instruments it named without ticks.
 */
export class StreamClient implements BrokerStream {
  readonly #url: string;
  readonly #auth: AuthSource;
  readonly #listener: StreamListener;
  readonly #reconnect: Omit<BackoffPolicy, 'maxRetries'>;
  readonly #silenceMs: number;
  #socket: WebSocket | null = null;
  #running = false;
  #failures = 0;
  #timer: NodeJS.Timeout | null = null;
  #tokens: ReadonlySet<number> = new Set();
  #sent: ReadonlySet<number> = new Set();
  /** Modes other than the broker's default `quote`: wanted, and as last sent on this socket. */
  #modes: ReadonlyMap<number, StreamMode> = new Map();
  #sentModes: ReadonlyMap<number, StreamMode> = new Map();
  /** How many instruments were wanted when more than the limit were (0 = within it). */
  #wanted = 0;
  /** The broker refused a subscription message: the next sync starts from nothing. */
  #refused: string | null = null;
  #watchdog: NodeJS.Timeout | null = null;
  /** When the current socket last delivered anything (main-process clock). */
  #lastHeard = 0;
  /** Why the last socket was dropped by us, for the next "reconnecting" detail. */
  #reason: string | null = null;

  public constructor(url: string, auth: AuthSource, listener: StreamListener, options: StreamClientOptions = {}) {
    this.#url = url;
    this.#auth = auth;
    this.#listener = listener;
    this.#reconnect = options.reconnect ?? DEFAULT_RECONNECT;
    this.#silenceMs = options.silenceMs ?? DEFAULT_SILENCE_MS;
  }

  public start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#connect();
  }

  public setSubscriptions(tokens: ReadonlySet<number>, modes: ReadonlyMap<number, StreamMode> = new Map()): void {
    this.#modes = modes;
    const all = [...tokens];
    const wasLimited = this.#wanted > 0;
    this.#wanted = all.length > STREAM_SUBSCRIPTION_LIMIT ? all.length : 0;
    this.#tokens = new Set(all.slice(0, STREAM_SUBSCRIPTION_LIMIT));
    if (this.#socket?.readyState === WebSocket.OPEN) {
      this.#syncSubscriptions();
      if (wasLimited || this.#wanted > 0) this.#setState('open', null);
    }
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
    this.#setState('closed', null);
  }

  /** Reports the stream's state; while open, the detail says when the subscription limit bites. */
  #setState(state: 'open' | 'connecting' | 'closed', detail: string | null): void {
    let why = detail;
    if (state === 'open' && why === null && this.#refused !== null) why = this.#refused;
    if (state === 'open' && why === null && this.#wanted > 0)
      why =
        `Subscription limit reached: ${count(STREAM_SUBSCRIPTION_LIMIT)} of ${count(this.#wanted)} instruments ` +
        'stream live; close some watchlists or charts to see the rest move';
    this.#listener.onState(state, why);
  }

  #connect(): void {
    if (!this.#running) return;
    const token = this.#auth.token();
    if (token === null) {
      this.#setState('closed', 'Not logged in');
      this.#running = false;
      return;
    }
    this.#setState('connecting', null);
    const socket = new WebSocket(this.#url, {
      headers: { authorization: `Bearer ${token}` },
      handshakeTimeout: 10_000,
    });
    this.#socket = socket;
    this.#sent = new Set();
    this.#sentModes = new Map();
    socket.on('open', () => {
      this.#failures = 0;
      this.#setState('open', null);
      this.#syncSubscriptions();
      this.#armWatchdog(socket);
    });
    socket.on('message', (data) => {
      this.#lastHeard = performance.now();
      this.#onMessage(data);
    });
    socket.on('pong', () => {
      this.#lastHeard = performance.now();
    });
    socket.on('unexpected-response', (_req, res) => {
      const status = res.statusCode ?? 0;
      res.resume();
      socket.terminate();
      if (status === 401) void this.#renewThenRetry(token);
    });
    socket.on('error', () => {
      // 'close' follows and schedules the reconnect; the error text may carry the URL only.
    });
    socket.on('close', () => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      this.#stopWatchdog();
      if (this.#running) this.#scheduleReconnect();
    });
  }

  async #renewThenRetry(stale: string): Promise<void> {
    const fresh = await this.#auth.renew(stale);
    if (fresh === null) {
      this.#running = false;
      if (this.#timer) clearTimeout(this.#timer);
      this.#auth.expired('The broker refused the stream session');
      this.#setState('closed', 'Session expired');
    }
  }

  #scheduleReconnect(): void {
    if (this.#timer) return;
    const wait = fullJitterDelay(this.#failures, { ...this.#reconnect, maxRetries: Infinity });
    this.#failures += 1;
    const why = this.#reason ? `${this.#reason}; reconnecting` : 'Reconnecting';
    this.#reason = null;
    this.#setState('connecting', `${why} in ${Math.round(wait)} ms`);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#connect();
    }, wait);
    this.#timer.unref();
  }

  /**
   * One timer per socket, re-armed for the remaining quiet time when it fires early: resetting
   * a timer on every message would cost a timer operation per tick at 1,000 ticks/s.
   */
  #armWatchdog(socket: WebSocket): void {
    this.#stopWatchdog();
    this.#lastHeard = performance.now();
    let pingedAt = -1;
    const check = (): void => {
      this.#watchdog = null;
      if (this.#socket !== socket) return;
      const quiet = performance.now() - this.#lastHeard;
      if (quiet < this.#silenceMs) {
        // Half-way through a quiet spell, ask: a live broker answers with a pong.
        const half = this.#silenceMs / 2;
        if (quiet >= half && pingedAt !== this.#lastHeard) {
          pingedAt = this.#lastHeard;
          socket.ping();
        }
        const wait = quiet < half ? half - quiet : this.#silenceMs - quiet;
        this.#watchdog = setTimeout(check, Math.max(1, wait));
        this.#watchdog.unref();
        return;
      }
      // Nothing for too long: the socket is dead even if TCP has not noticed. Dropping it lets
      // 'close' schedule a reconnect (which resubscribes); the first retry comes quickly.
      this.#reason = `No data from the broker for ${Math.round(quiet / 1000)} s`;
      socket.terminate();
    };
    this.#watchdog = setTimeout(check, this.#silenceMs / 2);
    this.#watchdog.unref();
  }

  #stopWatchdog(): void {
    if (this.#watchdog) clearTimeout(this.#watchdog);
    this.#watchdog = null;
  }

  #syncSubscriptions(): void {
    const socket = this.#socket;
    if (!socket) return;
    if (this.#refused !== null) {
      // The broker refused a message, so what it holds is unknown: start again from nothing.
      this.#refused = null;
      this.#send(socket, 'unsubscribe', [...this.#sent]);
      this.#sent = new Set();
      this.#sentModes = new Map();
    }
    // Unsubscribe first, so a swap of instruments never passes the broker's limit on the way.
    this.#send(
      socket,
      'unsubscribe',
      [...this.#sent].filter((t) => !this.#tokens.has(t)),
    );
    this.#send(
      socket,
      'subscribe',
      [...this.#tokens].filter((t) => !this.#sent.has(t)),
    );
    this.#sent = new Set(this.#tokens);
    this.#syncModes(socket);
  }

  /**
   * Sends a `mode` message for each subscribed token whose wanted mode differs from what this
   * socket was last told (a fresh subscription streams in the broker's default, `quote`).
   */
  #syncModes(socket: WebSocket): void {
    const byMode = new Map<StreamMode, number[]>();
    const next = new Map<number, StreamMode>();
    for (const t of this.#tokens) {
      const want = this.#modes.get(t) ?? 'quote';
      if (want !== 'quote') next.set(t, want);
      if (want === (this.#sentModes.get(t) ?? 'quote')) continue;
      let list = byMode.get(want);
      if (!list) byMode.set(want, (list = []));
      list.push(t);
    }
    for (const [mode, tokens] of byMode) this.#send(socket, 'mode', tokens, mode);
    this.#sentModes = next;
  }

  #send(
    socket: WebSocket,
    action: 'subscribe' | 'unsubscribe' | 'mode',
    tokens: readonly number[],
    mode?: StreamMode,
  ): void {
    for (let i = 0; i < tokens.length; i += SUBSCRIBE_CHUNK) {
      const chunk = tokens.slice(i, i + SUBSCRIBE_CHUNK);
      socket.send(JSON.stringify(mode ? { action, mode, tokens: chunk } : { action, tokens: chunk }));
    }
  }

  #onMessage(data: WebSocket.RawData): void {
    let json: unknown;
    try {
      json = JSON.parse(String(data));
    } catch {
      return;
    }
    const parsed = WireStreamServerMessage.safeParse(json);
    if (!parsed.success) return;
    const msg = parsed.data;
    if (msg.type === 'order') this.#listener.onOrder(toOrder(msg.order));
    else if (msg.type === 'tick') this.#listener.onTick(toTick(msg));
    else if (msg.type === 'error' && msg.code === 'subscription_limit') {
      this.#refused = `The broker refused a subscription: ${msg.message}`;
      this.#setState('open', null);
    }
  }
}

import WebSocket from 'ws';
import { WireStreamServerMessage } from '../../../shared/wire/schemas';
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

/**
 * The broker's WebSocket stream (DESIGN.md §2 "Stream"): order updates, ticks, heartbeats.
 *
 * It authenticates the upgrade with the session's bearer token (read from the `AuthSource` at
 * each connect, never stored), parses every message with the wire schema (a malformed one is
 * dropped, never delivered), and reconnects with jittered backoff, re-sending the current
 * subscriptions. A 401 on the upgrade asks for one re-login before the next attempt.
 *
 * A watchdog replaces a socket that is open but silent past `silenceMs`: a half-open TCP
 * connection (laptop sleep, a NAT that forgot us) never errors, it just stops delivering, and
 * prices would freeze without anyone noticing. Ticks are passed on one by one; batching them
 * for the renderer is the app's job (`tick-batcher.ts`), so a bench can read them raw.
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

  public setSubscriptions(tokens: ReadonlySet<number>): void {
    this.#tokens = new Set(tokens);
    if (this.#socket?.readyState === WebSocket.OPEN) this.#syncSubscriptions();
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
      this.#listener.onState('closed', 'Not logged in');
      this.#running = false;
      return;
    }
    this.#listener.onState('connecting', null);
    const socket = new WebSocket(this.#url, {
      headers: { authorization: `Bearer ${token}` },
      handshakeTimeout: 10_000,
    });
    this.#socket = socket;
    this.#sent = new Set();
    socket.on('open', () => {
      this.#failures = 0;
      this.#listener.onState('open', null);
      this.#syncSubscriptions();
      this.#armWatchdog(socket);
    });
    socket.on('message', (data) => {
      this.#lastHeard = performance.now();
      this.#onMessage(data);
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
      this.#listener.onState('closed', 'Session expired');
    }
  }

  #scheduleReconnect(): void {
    if (this.#timer) return;
    const wait = fullJitterDelay(this.#failures, { ...this.#reconnect, maxRetries: Infinity });
    this.#failures += 1;
    const why = this.#reason ? `${this.#reason}; reconnecting` : 'Reconnecting';
    this.#reason = null;
    this.#listener.onState('connecting', `${why} in ${Math.round(wait)} ms`);
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
    const check = (): void => {
      this.#watchdog = null;
      if (this.#socket !== socket) return;
      const quiet = performance.now() - this.#lastHeard;
      if (quiet < this.#silenceMs) {
        this.#watchdog = setTimeout(check, this.#silenceMs - quiet);
        this.#watchdog.unref();
        return;
      }
      // Nothing for too long: the socket is dead even if TCP has not noticed. Dropping it lets
      // 'close' schedule a reconnect (which resubscribes); the first retry comes quickly.
      this.#reason = `No data from the broker for ${Math.round(quiet / 1000)} s`;
      socket.terminate();
    };
    this.#watchdog = setTimeout(check, this.#silenceMs);
    this.#watchdog.unref();
  }

  #stopWatchdog(): void {
    if (this.#watchdog) clearTimeout(this.#watchdog);
    this.#watchdog = null;
  }

  #syncSubscriptions(): void {
    const add = [...this.#tokens].filter((t) => !this.#sent.has(t));
    const remove = [...this.#sent].filter((t) => !this.#tokens.has(t));
    if (add.length > 0) this.#socket?.send(JSON.stringify({ action: 'subscribe', tokens: add }));
    if (remove.length > 0) this.#socket?.send(JSON.stringify({ action: 'unsubscribe', tokens: remove }));
    this.#sent = new Set(this.#tokens);
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
  }
}

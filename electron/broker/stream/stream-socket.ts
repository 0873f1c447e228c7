import WebSocket from 'ws';
import type { StreamMode } from '@shared/domain/market';
import { AppError } from '@shared/ipc/app-error';
import type { AuthSource } from '../auth-source';
import type { BrokerStream, StreamListener } from '../broker';
import { fullJitterDelay, type BackoffPolicy } from '../http/backoff';

/** Tokens per subscribe/unsubscribe/mode message: a resubscribe of thousands goes in pieces. */
export const SUBSCRIBE_CHUNK = 500;

/** Whole numbers as a trader reads them: 3,505. */
const count = (n: number): string => n.toLocaleString('en-IN');

/** What the policy may be told by a dialect about the broker's messages. */
export interface StreamControl {
  /** The broker refused a subscription message: say so, and start the next change from nothing. */
  refused(message: string): void;
}

/** One broker's stream dialect, as the client policy drives it. */
export interface StreamDialect {
  /** Who the trader is told refused or closed the stream ("Kite", "The broker"). */
  readonly name: string;
  /**
   * Opens a socket for the session's token (in a header, or in the URL as Kite wants), or, where
   * the broker first hands out the socket's URL (Upstox's `…/authorize`), once it has. A failure
   * to get the URL is a failed connect (reconnected with backoff), except `unauthorized`: the
   * transport already tried its one re-login, so the session is over.
   */
  open(token: string): WebSocket | Promise<WebSocket>;
  /** One subscribe or unsubscribe message of at most `SUBSCRIBE_CHUNK` tokens (a Buffer goes as a binary frame). */
  subscription(action: 'subscribe' | 'unsubscribe', tokens: readonly number[]): string | Buffer;
  /** One mode message of at most `SUBSCRIBE_CHUNK` tokens. */
  mode(mode: StreamMode, tokens: readonly number[]): string | Buffer;
  /** A message from the broker: ticks and order updates go to the listener, refusals to `control`. */
  receive(data: WebSocket.RawData, isBinary: boolean, control: StreamControl): void;
  /**
   * What a refused upgrade means: `renew` (one re-login, then reconnect), `expired` (the session
   * is over: say so once, never loop) or `retry`.
   */
  upgradeRefused(status: number): 'renew' | 'expired' | 'retry';
  /** Whether a close code means the session is over (Kite's 1008). */
  closeEndsSession?(code: number): boolean;
}

/** Knobs of the policy. */
export interface StreamSocketOptions {
  /** Reconnect waits: full jitter, doubling, capped (retries are unlimited while started). */
  readonly reconnect?: Omit<BackoffPolicy, 'maxRetries'>;
  /**
   * How long an open socket may stay silent (no tick, order, heartbeat or pong) before it is
   * taken for dead and replaced; it is pinged half-way through.
   */
  readonly silenceMs?: number;
}

const DEFAULT_RECONNECT = { baseMs: 250, capMs: 10_000 };

/**
 * The one client-side socket policy for a broker's stream (docs/live-data.md §The stream):
 * the `/v1` stream client and the Kite ticker are this policy with their dialect.
 *
 * It connects with the session's token (read from the `AuthSource` at each connect, never
 * stored) and reconnects with jittered backoff, re-sending the current subscriptions and modes.
 * A refused upgrade asks for one re-login, or ends the session once, as the dialect says. A
 * watchdog replaces a socket that is open but silent past `silenceMs`: a half-open TCP
 * connection (laptop sleep, a NAT that forgot us) never errors, it just stops delivering, and
 * prices would freeze without anyone noticing. Half-way through a quiet spell it pings, so a
 * live broker that simply has nothing to say answers with a pong and keeps its socket.
 *
 * A broker streams at most `limit` instruments per socket. The policy subscribes the first that
 * many of the wanted set and says so in the stream state's detail ("Subscription limit reached:
 * 3,000 of 3,505 …"), sends subscriptions in chunks of `SUBSCRIBE_CHUNK`, unsubscribing before
 * subscribing so a swap never passes the limit on the way, and, if the broker still refuses one,
 * starts the next change from a clean slate so a refused subscription never leaves the
 * instruments it named without ticks.
 */
export class StreamSocket implements BrokerStream {
  readonly #auth: AuthSource;
  readonly #listener: StreamListener;
  readonly #dialect: StreamDialect;
  readonly #limit: number;
  readonly #reconnect: Omit<BackoffPolicy, 'maxRetries'>;
  readonly #silenceMs: number;
  readonly #control: StreamControl;
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

  public constructor(
    auth: AuthSource,
    listener: StreamListener,
    dialect: StreamDialect,
    limit: number,
    silenceMs: number,
    options: StreamSocketOptions = {},
  ) {
    this.#auth = auth;
    this.#listener = listener;
    this.#dialect = dialect;
    this.#limit = limit;
    this.#reconnect = options.reconnect ?? DEFAULT_RECONNECT;
    this.#silenceMs = options.silenceMs ?? silenceMs;
    this.#control = {
      refused: (message) => {
        this.#refused = `The broker refused a subscription: ${message}`;
        this.#setState('open', null);
      },
    };
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
    this.#wanted = all.length > this.#limit ? all.length : 0;
    this.#tokens = new Set(all.slice(0, this.#limit));
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
        `Subscription limit reached: ${count(this.#limit)} of ${count(this.#wanted)} instruments ` +
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
    const opened = this.#dialect.open(token);
    if (opened instanceof WebSocket) {
      this.#attach(opened, token);
      return;
    }
    opened.then(
      (socket) => {
        if (this.#running && this.#socket === null) {
          this.#attach(socket, token);
          return;
        }
        // Stopped while the URL was handed out (a re-login): ws reports a socket ended before it
        // opened as an 'error', which nothing else listens for here.
        socket.on('error', () => undefined);
        socket.terminate();
      },
      (err: unknown) => {
        if (!this.#running) return;
        if (err instanceof AppError && err.info.kind === 'unauthorized') {
          this.#running = false;
          this.#setState('closed', 'Session expired');
          return;
        }
        this.#reason = `${this.#dialect.name} did not open the stream (${err instanceof Error ? err.message : String(err)})`;
        this.#scheduleReconnect();
      },
    );
  }

  #attach(socket: WebSocket, token: string): void {
    this.#socket = socket;
    this.#sent = new Set();
    this.#sentModes = new Map();
    socket.on('open', () => {
      this.#failures = 0;
      this.#setState('open', null);
      this.#syncSubscriptions();
      this.#armWatchdog(socket);
    });
    socket.on('message', (data, isBinary) => {
      this.#lastHeard = performance.now();
      this.#dialect.receive(data, isBinary, this.#control);
    });
    socket.on('pong', () => {
      this.#lastHeard = performance.now();
    });
    socket.on('unexpected-response', (_req, res) => {
      const status = res.statusCode ?? 0;
      res.resume();
      socket.terminate();
      const meaning = this.#dialect.upgradeRefused(status);
      if (meaning === 'renew') void this.#renewThenRetry(token);
      else if (meaning === 'expired') this.#expire(`${this.#dialect.name} refused the stream: the session has expired`);
    });
    socket.on('error', () => {
      // 'close' follows and schedules the reconnect; the error text may carry the URL only.
    });
    socket.on('close', (code) => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      this.#stopWatchdog();
      if (this.#running && this.#dialect.closeEndsSession?.(code)) {
        this.#expire(`${this.#dialect.name} closed the stream: the session has expired`);
        return;
      }
      if (this.#running) this.#scheduleReconnect();
    });
  }

  async #renewThenRetry(stale: string): Promise<void> {
    const fresh = await this.#auth.renew(stale);
    if (fresh === null) this.#expire(`${this.#dialect.name} refused the stream session`);
  }

  /** The session is over: stop, tell the session once, never loop. */
  #expire(reason: string): void {
    if (!this.#running) return;
    this.#running = false;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#auth.expired(reason);
    this.#setState('closed', 'Session expired');
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
      this.#send(socket, [...this.#sent], (chunk) => this.#dialect.subscription('unsubscribe', chunk));
      this.#sent = new Set();
      this.#sentModes = new Map();
    }
    // Unsubscribe first, so a swap of instruments never passes the broker's limit on the way.
    const gone = [...this.#sent].filter((t) => !this.#tokens.has(t));
    const added = [...this.#tokens].filter((t) => !this.#sent.has(t));
    this.#send(socket, gone, (chunk) => this.#dialect.subscription('unsubscribe', chunk));
    this.#send(socket, added, (chunk) => this.#dialect.subscription('subscribe', chunk));
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
    for (const [mode, tokens] of byMode) this.#send(socket, tokens, (chunk) => this.#dialect.mode(mode, chunk));
    this.#sentModes = next;
  }

  #send(socket: WebSocket, tokens: readonly number[], message: (chunk: readonly number[]) => string | Buffer): void {
    for (let i = 0; i < tokens.length; i += SUBSCRIBE_CHUNK) socket.send(message(tokens.slice(i, i + SUBSCRIBE_CHUNK)));
  }
}

import type { z } from 'zod';
import type { ConnectionState } from '../../../shared/domain/session';
import { AppError } from '../../app/app-error';
import type { AuthSource } from '../auth-source';
import { brokerError } from '../broker-error';
import { DEFAULT_BACKOFF, retryDelay, type BackoffPolicy } from '../http/backoff';
import { classifyErrorReply } from '../http/classify-reply';
import { EtagCache } from '../http/etag-cache';
import type { HttpClient, RawReply, RawRequest } from '../http/http-client';
import { InFlightCoalescer } from '../http/in-flight-coalescer';
import { isRetryable, type RetryClass } from '../http/retry-policy';
import type { Priority, TokenBucket } from '../http/token-bucket';

/** One call to the broker: the request, how to parse a 2xx, and how it may be repeated. */
export interface CallSpec<S extends z.ZodType> extends RawRequest {
  /** Schema of the 2xx body; null for replies without one (204). */
  readonly schema: S | null;
  readonly retry: RetryClass;
  /** False only for logging in (there is no token yet). */
  readonly auth?: boolean;
  /** Send `If-None-Match` and reuse the last value on 304 (GET list endpoints). */
  readonly conditional?: boolean;
  /** Order actions jump the client bucket's queue ahead of polls (default normal). */
  readonly priority?: Priority;
  /** Counts against the broker's separate order-placement limit too. */
  readonly placement?: boolean;
}

/** Counters a test or the bench can read to see what the transport actually did. */
export interface TransportStats {
  sent: number;
  retries: number;
  relogins: number;
  rateLimited: number;
  notModified: number;
  coalesced: number;
}

/** Knobs of the transport; all optional. */
export interface TransportOptions {
  readonly backoff?: BackoffPolicy;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
  /** Told when the REST link changes between up, degraded (429/5xx) and down (no reply). */
  readonly onHealth?: (rest: ConnectionState['rest'], detail: string | null) => void;
  /**
   * Whether a 429's Retry-After also pauses the shared bucket (every request waits), or only
   * the request that got it. Default true: a real broker limit applies to the whole token.
   */
  readonly pauseAllOnRetryAfter?: boolean;
  /**
   * Brokers limit order placement on its own, more tightly than other calls (DESIGN.md §2
   * "Limits": POST /orders 10/s, burst 10 on the paper broker); calls marked `placement` wait
   * here as well, so a quick run of clicks is paced instead of earning a 429 and a pause.
   */
  readonly placementBucket?: TokenBucket | null;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Everything between a typed call and the bytes: token, rate limit, retries, coalescing, ETags,
 * and the rule that a 2xx is a success only if its body parses (seed §9).
 *
 * The REST adapter describes each call (path, schema, retry class); this class decides how
 * often it is sent. A 401 triggers exactly one re-login through the `AuthSource` and one
 * retry; a second 401 ends the session. Transient failures of reads and idempotent writes
 * back off with full jitter and honour Retry-After, which also pauses the shared token bucket.
 */
export class RestTransport {
  public readonly stats: TransportStats = {
    sent: 0,
    retries: 0,
    relogins: 0,
    rateLimited: 0,
    notModified: 0,
    coalesced: 0,
  };
  readonly #http: HttpClient;
  readonly #auth: AuthSource;
  readonly #bucket: TokenBucket | null;
  readonly #placementBucket: TokenBucket | null;
  readonly #backoff: BackoffPolicy;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;
  readonly #onHealth: TransportOptions['onHealth'];
  readonly #pauseAll: boolean;
  readonly #coalescer = new InFlightCoalescer();
  readonly #etags = new EtagCache();
  #health: ConnectionState['rest'] = 'up';

  public constructor(http: HttpClient, auth: AuthSource, bucket: TokenBucket | null, options: TransportOptions = {}) {
    this.#http = http;
    this.#auth = auth;
    this.#bucket = bucket;
    this.#placementBucket = options.placementBucket ?? null;
    this.#backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.#sleep = options.sleep ?? defaultSleep;
    this.#random = options.random ?? Math.random;
    this.#onHealth = options.onHealth;
    this.#pauseAll = options.pauseAllOnRetryAfter ?? true;
  }

  /** Performs one call; resolves with the parsed 2xx body or rejects with a typed `AppError`. */
  public call<S extends z.ZodType>(spec: CallSpec<S>): Promise<z.output<S>> {
    if (spec.method !== 'GET') return this.#attempts(spec);
    const key = `${spec.path}?${JSON.stringify(spec.query ?? {})}`;
    const before = this.#coalescer.size;
    const p = this.#coalescer.run(key, () => this.#attempts(spec));
    if (this.#coalescer.size === before) this.stats.coalesced += 1;
    return p;
  }

  /** Forgets cached list replies (a new session may be another account). */
  public resetCache(): void {
    this.#etags.clear();
  }

  /** Closes the connection pool. */
  public close(): Promise<void> {
    return this.#http.close();
  }

  async #attempts<S extends z.ZodType>(spec: CallSpec<S>): Promise<z.output<S>> {
    const needsAuth = spec.auth !== false;
    let reauthed = false;
    for (let attempt = 0; ;) {
      const token = needsAuth ? this.#auth.token() : null;
      if (needsAuth && token === null) throw brokerError('unauthorized', 'Not logged in to the broker');
      let failure: AppError;
      try {
        const reply = await this.#sendOnce(spec, token);
        if (reply.status !== 429 && reply.status < 500) this.#setHealth('up', null);
        if (reply.status === 401 && needsAuth && token !== null) {
          if (!reauthed) {
            reauthed = true;
            this.stats.relogins += 1;
            if ((await this.#auth.renew(token)) !== null) continue;
          }
          const info = classifyErrorReply(401, reply.body, undefined);
          this.#auth.expired(info.message);
          throw new AppError(info);
        }
        return this.#accept(spec, reply);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        failure = err;
      }
      const kind = failure.info.kind;
      if (kind === 'rate_limited') {
        this.stats.rateLimited += 1;
        if (this.#pauseAll && failure.info.retryAfterMs !== undefined) this.#bucket?.pause(failure.info.retryAfterMs);
      }
      if (kind === 'network' || kind === 'timeout') this.#setHealth('down', failure.info.message);
      else if (kind === 'rate_limited' || kind === 'server_error') this.#setHealth('degraded', failure.info.message);
      if (!isRetryable(kind, spec.retry) || attempt >= this.#backoff.maxRetries) throw failure;
      this.stats.retries += 1;
      await this.#sleep(retryDelay(attempt, this.#backoff, failure.info.retryAfterMs, this.#random));
      attempt += 1;
    }
  }

  async #sendOnce(spec: CallSpec<z.ZodType>, token: string | null): Promise<RawReply> {
    const headers: Record<string, string> = {};
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const cached = spec.conditional ? this.#etags.get(this.#cacheKey(spec)) : undefined;
    if (cached) headers['if-none-match'] = cached.etag;
    if (spec.placement) await this.#placementBucket?.take('urgent');
    await this.#bucket?.take(spec.priority);
    this.stats.sent += 1;
    return this.#http.send({ ...spec, headers });
  }

  #accept<S extends z.ZodType>(spec: CallSpec<S>, reply: RawReply): z.output<S> {
    const what = `${spec.method} ${spec.path}`;
    if (reply.status === 304 && spec.conditional) {
      const cached = this.#etags.get(this.#cacheKey(spec));
      if (!cached)
        throw brokerError('unexpected_shape', `The broker answered ${what} with 304 to a request that had no ETag`);
      this.stats.notModified += 1;
      return cached.value as z.output<S>;
    }
    if (reply.status < 200 || reply.status >= 300) {
      throw new AppError(classifyErrorReply(reply.status, reply.body, reply.headers['retry-after']));
    }
    if (spec.schema === null) return undefined as z.output<S>;
    const parsed = reply.bodyNotJson ? null : spec.schema.safeParse(reply.body);
    if (!parsed?.success) {
      const issue = parsed?.error.issues[0];
      const where = issue ? ` (${issue.path.map(String).join('.') || 'body'}: ${issue.message})` : ' (not JSON)';
      throw brokerError('unexpected_shape', `The broker's reply to ${what} did not have the expected shape${where}`);
    }
    const etag = reply.headers.etag;
    if (spec.conditional && etag) this.#etags.set(this.#cacheKey(spec), { etag, value: parsed.data });
    return parsed.data as z.output<S>;
  }

  #cacheKey(spec: RawRequest): string {
    return `${spec.path}?${JSON.stringify(spec.query ?? {})}`;
  }

  #setHealth(rest: ConnectionState['rest'], detail: string | null): void {
    if (rest === this.#health) return;
    this.#health = rest;
    this.#onHealth?.(rest, detail);
  }
}

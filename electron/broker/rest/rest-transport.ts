import type { z } from 'zod';
import type { ConnectionState } from '@shared/domain/session';
import { AppError } from '@shared/ipc/app-error';
import type { IpcError } from '@shared/ipc/result';
import type { AuthSource } from '../auth-source';
import { AMBIGUOUS_KINDS, brokerError, LimitReached, SendTimePassed, TransportFailure } from '../broker-error';
import { DEFAULT_BACKOFF, retryDelay, type BackoffPolicy } from '../http/backoff';
import { classifyErrorReply } from '../http/classify-reply';
import { EtagCache } from '../http/etag-cache';
import type { HttpClient, RawReply, RawRequest } from '../http/http-client';
import { InFlightCoalescer } from '../http/in-flight-coalescer';
import { parseRateLimitPolicy, type PublishedPolicies } from '../http/rate-limit-policy';
import { isRetryable, type RetryClass } from '../http/retry-policy';
import { RttEstimator, type RtoBounds } from '../http/rtt-estimator';
import { NotAdmitted, type Priority, type TokenBucket } from '../http/token-bucket';
import type { Pacer } from '../http/window-pacer';

/** One call to the broker: the request, how to parse a 2xx, and how it may be repeated. */
export interface CallSpec<S extends z.ZodType> extends RawRequest {
  /** Schema of the 2xx body; null for replies without one (204). */
  readonly schema: S | null;
  readonly retry: RetryClass;
  /** False only for logging in (there is no token yet). */
  readonly auth?: boolean;
  /** Send `If-None-Match` and reuse the last value on 304 (GET list endpoints). */
  readonly conditional?: boolean;
  /** Cancels, then other order actions, jump the client bucket's queue ahead of polls (default normal). */
  readonly priority?: Priority;
  /** Counts against the broker's separate order limit too (placements; on Kite every order write). */
  readonly placement?: boolean;
  /**
   * Wait for the reply only as long as the adaptive timeout (srtt + 4·rttvar, clamped), and
   * feed the estimator: a placement's lookups, which are simply asked again.
   */
  readonly adaptiveTimeout?: boolean;
  /**
   * Told when the adaptive timeout passes without a reply, while the request goes on waiting
   * (an order POST: the caller starts looking the order up, and a late reply still counts).
   * The request's round trip feeds the estimator.
   */
  readonly onSlow?: () => void;
  /** Abandons the request. */
  readonly signal?: AbortSignal;
  /**
   * Aborted when the request may no longer leave (an order's re-send window ended): while it is
   * still waiting for the client's rate limit it then fails `not_sent`, having sent nothing.
   */
  readonly sendBy?: AbortSignal;
  /**
   * `'answer'`: a 429 is thrown at once (its lane paused all the same) instead of retried, for a
   * caller that waits it out on its own schedule and says so (the kill switch's cancels).
   */
  readonly rateLimits?: 'wait' | 'answer';
  /** Parse the 2xx body's text with `schema` instead of its JSON (a CSV dump). */
  readonly text?: boolean;
  /**
   * False: never shares an identical GET in flight. A placement's lookup must keep its own
   * timeout and retry class, even where its request is the same as a poll's (Kite's GET /orders).
   */
  readonly coalesce?: boolean;
  /** Told when the request leaves for the broker, its wait for the client's limits over. */
  readonly onAdmitted?: () => void;
}

/** Counters a test or the bench can read to see what the transport actually did. */
export interface TransportStats {
  sent: number;
  retries: number;
  relogins: number;
  rateLimited: number;
  notModified: number;
  coalesced: number;
  /** Reads that gave up instead of waiting past their budget behind a Retry-After. */
  readsGivenUp: number;
  /** Time requests spent waiting for the client's limits (the bucket and the order pacer), in all, ms. */
  limiterWaitMs: number;
  /** The same wait by kind of request and by limiter, to see which limit a slow request waited for. */
  waits: Record<RequestKind, LimiterWaits>;
}

/**
 * Order writes (the calls marked `placement`), order reads (an order action's own reads: a
 * placement's lookup, a cancel's read-back) and every other read or write (polls, refetches).
 */
export type RequestKind = 'orderWrites' | 'orderReads' | 'others';

/** Requests of one kind admitted, and their time waiting in the order pacer and in the bucket, ms. */
export interface LimiterWaits {
  requests: number;
  pacerMs: number;
  bucketMs: number;
}

const noWaits = (): LimiterWaits => ({ requests: 0, pacerMs: 0, bucketMs: 0 });

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
   * Brokers limit order placement on its own, more tightly than other calls (docs/api.md,
   * "Limits": POST /orders 10/s, burst 10 on the paper broker); calls marked `placement` wait
   * here as well, so a quick run of clicks is paced instead of earning a 429 and a pause.
   */
  readonly placementBucket?: Pacer | null;
  /**
   * The broker counts order writes (the calls marked `placement`) apart from its other requests:
   * they wait for `placementBucket` alone, never for the shared bucket, and a 429 on one holds
   * back the order writes only, not the reads (Kite: docs/kite.md §Limits). Default false: every
   * request counts against the shared limit too (docs/api.md §Limits).
   */
  readonly orderWritesApart?: boolean;
  /**
   * How long a read (`retry: 'read'`) may take in all, waits included, before it gives up with
   * its last error (default 5 s): the renderer's poll schedule owns the longer backoff, so a
   * poll never queues for tens of seconds behind a rate-limit pause.
   */
  readonly readBudgetMs?: number;
  /** Bounds of the adaptive timeout (default 300 ms–5 s, 1 s before the first sample). */
  readonly rto?: RtoBounds;
  /** Monotonic ms for budgets and round trips (default performance.now). */
  readonly now?: () => number;
  /** Told each time a request leaves for the broker (the usage meter counts them). */
  readonly onSent?: () => void;
  /**
   * The dialect's auth and version headers for a token (default `Authorization: Bearer …`);
   * Kite Connect sends `token api_key:access_token` (docs/kite.md §The wire).
   */
  readonly authorize?: (token: string) => Record<string, string>;
  /** The dialect's reading of a non-2xx reply (default the problem document of docs/api.md). */
  readonly classify?: (status: number, body: unknown, retryAfter: string | undefined) => IpcError;
  /**
   * Whether a reply says the token is no longer valid (default: 401). Kite says so with a 403
   * whose `error_type` is `TokenException`.
   */
  readonly tokenRefused?: (status: number, body: unknown) => boolean;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Everything between a typed call and the bytes: token, rate limit, retries, coalescing, ETags,
 * and the rule that a 2xx is a success only if its body parses.
 *
 * The REST adapter describes each call (path, schema, retry class); this class decides how
 * often it is sent. A 401 triggers exactly one re-login through the `AuthSource` and one
 * retry; a second 401 ends the session. Transient failures of reads and idempotent writes
 * back off with full jitter and honour Retry-After (capped, see classify-reply.ts). A 429
 * pauses only its own lane of the shared bucket: a read's never delays a place, modify, cancel
 * or placement lookup, a placement's or a modification's never delays a cancel. A read gives
 * up rather than wait past its budget; a request whose `sendBy` aborts while it waits for the
 * bucket is never sent.
 */
export class RestTransport {
  public readonly stats: TransportStats = {
    sent: 0,
    retries: 0,
    relogins: 0,
    rateLimited: 0,
    notModified: 0,
    coalesced: 0,
    readsGivenUp: 0,
    limiterWaitMs: 0,
    waits: { orderWrites: noWaits(), orderReads: noWaits(), others: noWaits() },
  };
  readonly #http: HttpClient;
  readonly #auth: AuthSource;
  readonly #bucket: TokenBucket | null;
  #placementBucket: Pacer | null;
  readonly #backoff: BackoffPolicy;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;
  readonly #onHealth: TransportOptions['onHealth'];
  readonly #pauseAll: boolean;
  readonly #readBudgetMs: number;
  readonly #writesApart: boolean;
  readonly #rtt: RttEstimator;
  readonly #now: () => number;
  readonly #coalescer = new InFlightCoalescer();
  readonly #etags = new EtagCache();
  readonly #onSent: (() => void) | undefined;
  readonly #authorize: (token: string) => Record<string, string>;
  readonly #classify: (status: number, body: unknown, retryAfter: string | undefined) => IpcError;
  readonly #tokenRefused: (status: number, body: unknown) => boolean;
  readonly #policyListeners = new Set<(policies: PublishedPolicies) => void>();
  #policyHeader: string | undefined;
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
    this.#readBudgetMs = options.readBudgetMs ?? 5_000;
    this.#writesApart = options.orderWritesApart ?? false;
    this.#rtt = new RttEstimator(options.rto);
    this.#now = options.now ?? (() => performance.now());
    this.#onSent = options.onSent;
    this.#authorize = options.authorize ?? ((token) => ({ authorization: `Bearer ${token}` }));
    this.#classify = options.classify ?? classifyErrorReply;
    this.#tokenRefused = options.tokenRefused ?? ((status) => status === 401);
  }

  /**
   * Tells `listener` the limits the broker publishes in its `RateLimit-Policy` header each time
   * the header says something new (docs/api.md §Limits); returns the unsubscribe.
   */
  public onPublishedLimits(listener: (policies: PublishedPolicies) => void): () => void {
    this.#policyListeners.add(listener);
    return () => this.#policyListeners.delete(listener);
  }

  /**
   * Paces the order writes marked `placement` with `pacer` from now on (the broker counts them
   * in calendar windows: docs/kite.md §Limits). Requests already waiting keep their pacer.
   */
  public usePlacementPacer(pacer: Pacer): void {
    this.#placementBucket = pacer;
  }

  /** The timeout an order POST or a placement lookup gets now, in ms. */
  public adaptiveTimeoutMs(): number {
    return this.#rtt.timeoutMs();
  }

  /** Performs one call; resolves with the parsed 2xx body or rejects with a typed `AppError`. */
  public call<S extends z.ZodType>(spec: CallSpec<S>): Promise<z.output<S>> {
    if (spec.method !== 'GET' || spec.coalesce === false) return this.#attempts(spec);
    // An order action's own read never joins a poll queued behind a pause (docs/brokers.md
    // §HTTP client, retries and limits): identical reads are shared within a lane only.
    const key = `${spec.priority ?? 'normal'} ${spec.path}?${JSON.stringify(spec.query ?? {})}`;
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
    const budgetEnd = spec.retry === 'read' ? this.#now() + this.#readBudgetMs : Number.POSITIVE_INFINITY;
    let reauthed = false;
    // An earlier attempt of a write may have acted (its reply lost, a 5xx): a later one refused
    // before acting says nothing of it, so the call's answer is still unknown (`answer`).
    let inDoubt = false;
    for (let attempt = 0; ;) {
      const token = needsAuth ? this.#auth.token() : null;
      if (needsAuth && token === null) throw brokerError('unauthorized', 'Not logged in to the broker');
      let failure: AppError;
      const slot: PacerSlot = { at: null };
      try {
        const reply = await this.#sendOnce(spec, token, budgetEnd, slot);
        this.#notePolicy(reply.headers['ratelimit-policy']);
        if (reply.status !== 429 && reply.status < 500) this.#setHealth('up', null);
        if (needsAuth && token !== null && this.#tokenRefused(reply.status, reply.body)) {
          if (!reauthed) {
            reauthed = true;
            this.stats.relogins += 1;
            if ((await this.#auth.renew(token)) !== null) continue;
          }
          const info = this.#classify(reply.status, reply.body, undefined);
          this.#auth.expired(info.message);
          throw new AppError(info);
        }
        return this.#accept(spec, reply);
      } catch (err) {
        if (!(err instanceof AppError)) {
          if (slot.refused) this.#unsent(slot);
          throw err;
        }
        failure = err;
      }
      const kind = failure.info.kind;
      const doubtBefore = inDoubt;
      const acts = spec.method !== 'GET';
      if (acts && AMBIGUOUS_KINDS.has(kind) && !(failure instanceof TransportFailure && failure.reach === 'not_sent')) {
        inDoubt = true;
      }
      if (kind === 'rate_limited' && !(failure instanceof LimitReached)) {
        this.stats.rateLimited += 1;
        const ms = failure.info.retryAfterMs;
        // A 429 holds back its own lane only (docs/brokers.md §HTTP client, retries and
        // limits): a poll's never delays an order action, a placement's never delays a cancel.
        if (this.#pauseAll && ms !== undefined) {
          if (!this.#apart(spec)) this.#bucket?.pause(ms, pausedLane(spec));
          // An order write's pacer holds the lane too, so it counts no write that would only
          // wait behind the pause (docs/kite.md §Limits).
          if (spec.placement) this.#placementBucket?.pause(ms, pausedLane(spec));
        }
        // The broker counts no request it refused (docs/kite.md §Limits): its place is given
        // back, only now that its lane is paused, so no write waiting for the place is sent
        // before the Retry-After ends.
        this.#unsent(slot);
      }
      if (slot.refused) this.#unsent(slot);
      if (kind === 'network' || kind === 'timeout') this.#setHealth('down', failure.info.message);
      else if (kind === 'rate_limited' || kind === 'server_error') this.#setHealth('degraded', failure.info.message);
      // Waiting cannot help a request whose time to be sent passed, nor a cap reached for the
      // day; a caller that waits out 429s itself hears of each one.
      if (failure instanceof SendTimePassed || failure instanceof LimitReached) throw answer(failure, doubtBefore);
      if (kind === 'rate_limited' && spec.rateLimits === 'answer') throw failure;
      if (!isRetryable(kind, spec.retry) || attempt >= this.#backoff.maxRetries) throw answer(failure, doubtBefore);
      const delay = retryDelay(attempt, this.#backoff, failure.info.retryAfterMs, this.#random);
      if (this.#now() + delay > budgetEnd) {
        this.stats.readsGivenUp += 1;
        throw answer(failure, doubtBefore);
      }
      this.stats.retries += 1;
      await this.#sleep(delay);
      attempt += 1;
    }
  }

  async #sendOnce(
    spec: CallSpec<z.ZodType>,
    token: string | null,
    budgetEnd: number,
    slot: PacerSlot,
  ): Promise<RawReply> {
    const headers: Record<string, string> = { ...spec.headers };
    if (token !== null) Object.assign(headers, this.#authorize(token));
    const cached = spec.conditional ? this.#etags.get(this.#cacheKey(spec)) : undefined;
    if (cached) headers['if-none-match'] = cached.etag;
    const priority = spec.priority ?? 'normal';
    const bucket = this.#apart(spec) ? null : this.#bucket;
    const wait = bucket?.waitFor(priority) ?? 0;
    if (this.#now() + wait > budgetEnd) {
      // A read that would queue past its budget behind a pause gives up now, saying when to come back.
      this.stats.readsGivenUp += 1;
      throw brokerError('rate_limited', 'The broker asked us to slow down; try again shortly', { retryAfterMs: wait });
    }
    const queuedAt = this.#now();
    try {
      if (spec.placement && this.#placementBucket) slot.at = await this.#placementBucket.take(priority, spec.sendBy);
      const paced = this.#now();
      await bucket?.take(priority, spec.sendBy);
      const admitted = this.#now();
      this.stats.limiterWaitMs += admitted - queuedAt;
      const waits = this.stats.waits[requestKind(spec)];
      waits.requests += 1;
      waits.pacerMs += paced - queuedAt;
      waits.bucketMs += admitted - paced;
    } catch (err) {
      if (!(err instanceof NotAdmitted)) throw err;
      this.#unsent(slot);
      throw new SendTimePassed();
    }
    if (spec.sendBy?.aborted) {
      this.#unsent(slot);
      throw new SendTimePassed();
    }
    spec.onAdmitted?.();
    this.stats.sent += 1;
    this.#onSent?.();
    let reply: RawReply | null = null;
    try {
      reply = await this.#exchange(spec, headers);
      return reply;
    } finally {
      // The broker counts no write it refused with a 429 (docs/kite.md §Limits): its place is
      // given back once its lane is paused for the Retry-After (`#attempts`). Any other answer,
      // or a failure on the way: whatever the broker counted of it, it counted by now, so its
      // place ends a window from here (docs/brokers.md §HTTP client, retries and limits).
      if (reply?.status === 429) slot.refused = true;
      else if (slot.at !== null) this.#placementBucket?.settled?.(slot.at);
    }
  }

  /** Sends one admitted request; an order POST and its lookups time out adaptively. */
  async #exchange(spec: CallSpec<z.ZodType>, headers: Record<string, string>): Promise<RawReply> {
    if (!spec.adaptiveTimeout && !spec.onSlow) return this.#http.send({ ...spec, headers });
    const sentAt = this.#now();
    const onSlow = spec.onSlow;
    const slow = onSlow ? setTimeout(onSlow, this.#rtt.timeoutMs()) : null;
    try {
      const reply = await this.#http.send({
        ...spec,
        headers,
        ...(spec.adaptiveTimeout ? { timeoutMs: this.#rtt.timeoutMs() } : {}),
      });
      this.#rtt.sample(this.#now() - sentAt);
      return reply;
    } catch (err) {
      if (err instanceof TransportFailure && err.info.kind === 'timeout') this.#rtt.timedOut(sentAt, this.#now());
      throw err;
    } finally {
      if (slow) clearTimeout(slow);
    }
  }

  /** Whether `spec` is an order write the broker counts apart from its other requests. */
  #apart(spec: CallSpec<z.ZodType>): boolean {
    return this.#writesApart && spec.placement === true;
  }

  /** Frees the order pacer's place of a request the broker did not count (refused with a 429, or never sent). */
  #unsent(slot: PacerSlot): void {
    if (slot.at !== null) this.#placementBucket?.giveBack?.(slot.at);
    slot.at = null;
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
      throw new AppError(this.#classify(reply.status, reply.body, reply.headers['retry-after']));
    }
    if (spec.schema === null) return undefined as z.output<S>;
    const parsed = spec.text
      ? spec.schema.safeParse(reply.text ?? '')
      : reply.bodyNotJson
        ? null
        : spec.schema.safeParse(reply.body);
    if (!parsed?.success) {
      const issue = parsed?.error.issues[0];
      const where = issue ? ` (${issue.path.map(String).join('.') || 'body'}: ${issue.message})` : ' (not JSON)';
      throw brokerError('unexpected_shape', `The broker's reply to ${what} did not have the expected shape${where}`);
    }
    const etag = reply.headers.etag;
    if (spec.conditional && etag) this.#etags.set(this.#cacheKey(spec), { etag, value: parsed.data });
    return parsed.data as z.output<S>;
  }

  #notePolicy(header: string | undefined): void {
    if (header === undefined || header === this.#policyHeader) return;
    this.#policyHeader = header;
    const policies = parseRateLimitPolicy(header);
    if (policies.size === 0) return;
    for (const l of this.#policyListeners) l(policies);
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

/**
 * The failure a call ends with. One refused before acting (a 429, never sent) after an earlier
 * attempt that may have acted is not a refusal of the call: the broker may have done it (a
 * cancel whose first reply was lost), so it is in doubt (docs/brokers.md §HTTP client, retries
 * and limits).
 */
function answer(failure: AppError, earlierInDoubt: boolean): AppError {
  const refusedBeforeActing =
    failure.info.kind === 'rate_limited' || (failure instanceof TransportFailure && failure.reach === 'not_sent');
  if (!earlierInDoubt || !refusedBeforeActing) return failure;
  return new TransportFailure(
    {
      kind: 'timeout',
      message: `An earlier attempt's reply was lost, and the retry was not taken (${failure.info.message}): the broker may have acted`,
    },
    'in_doubt',
  );
}

/** When the order pacer admitted the request being sent (null: it did not pace it). */
interface PacerSlot {
  at: number | null;
  /** Answered 429: its place is given back once its lane is paused, not before. */
  refused?: boolean;
}

function requestKind(spec: CallSpec<z.ZodType>): RequestKind {
  if (spec.placement) return 'orderWrites';
  return spec.method === 'GET' && spec.priority !== undefined && spec.priority !== 'normal' ? 'orderReads' : 'others';
}

/** The lane a 429 on this request holds back: its own. */
function pausedLane(spec: CallSpec<z.ZodType>): Priority {
  if (spec.method === 'GET') return 'normal';
  return spec.priority ?? 'normal';
}

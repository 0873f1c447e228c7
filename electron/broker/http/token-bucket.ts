import { FairQueue } from './fair-queue';

/** A rate and a burst, as brokers publish their limits (docs/api.md, "Limits"). */
export interface RateLimit {
  readonly perSecond: number;
  readonly burst: number;
}

/**
 * The pace a client keeps under a broker's published limit: 80% of its rate and of its burst
 * (at least one request), so clock drift, a second window and the broker's own rounding never
 * bring a 429 (the paper broker's 10/s, burst 20 → 8/s, burst 16).
 */
export function paceUnder(limit: RateLimit, fraction = 0.8): RateLimit {
  return { perSecond: limit.perSecond * fraction, burst: Math.max(1, Math.floor(limit.burst * fraction)) };
}

/** Injected time so the bucket is tested without real waiting. */
export interface BucketClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: BucketClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Who goes first when the bucket is empty: `cancel` (a cancel of a working order: the way out of
 * risk), then `urgent` (the other order actions — place, modify, the lookups that resolve a
 * placement — and an order action's own reads), then `normal` (polls and other reads).
 */
export type Priority = 'cancel' | 'urgent' | 'normal';

/** The lanes, highest first. */
const LANES: readonly Priority[] = ['cancel', 'urgent', 'normal'];

/**
 * Tokens only cancels may take (an eighth of the burst, at least one from a burst of 4: 2 of the
 * paper broker's paced 16, 1 of Kite's 8): a burst of placements — a basket, the kill switch's
 * exits — can never leave a cancel waiting for the refill.
 */
function cancelReserve(limit: RateLimit): number {
  return limit.burst >= 4 ? Math.max(1, Math.floor(limit.burst / 8)) : 0;
}

/**
 * Tokens normal callers leave in the bucket (a quarter of the burst: 4 of the paper broker's
 * paced 16, 2 of Kite's 8, none under a burst of 4), so an order action finds one at once even
 * while polls and refetches keep the bucket at its floor. Normal callers keep the full rate;
 * only their burst is smaller (docs/brokers.md §HTTP client, retries and limits).
 */
function urgentReserve(limit: RateLimit): number {
  return Math.max(cancelReserve(limit), Math.floor(limit.burst / 4));
}

/** Thrown by `take` when its caller gave up (its signal aborted) before it was admitted. */
export class NotAdmitted extends Error {
  public constructor() {
    super('gave up waiting for the client rate limit');
  }
}

interface Waiter {
  readonly admit: (admittedAt: number) => void;
  cancelled: boolean;
}

/**
 * Client-side token bucket: keeps the app under the broker's limit instead of finding it by 429s.
 *
 * Each `take()` spends one token; when none is left the caller waits in its lane's queue, which
 * one pump drains at the refill rate. Three lanes: cancels before the other order actions before
 * polls, since the broker counts them all against one per-token budget, and each lane keeps a
 * reserve the lanes below it cannot take. Cancels and urgent callers are served in arrival
 * order; the normal queue is fair (`fair-queue.ts`): account data before chart history and
 * instrument lists, and turns between the pages asking (docs/brokers.md §Fair queuing).
 *
 * `pause(ms, lane)` holds back only that lane until a server-given Retry-After has passed: a
 * poll's 429 never delays an order action, and a placement's 429 never delays a cancel.
 * `pause(ms)` (every lane) empties the bucket instead. A caller whose signal aborts while it
 * waits leaves the queue without spending a token (`NotAdmitted`).
 */
export class TokenBucket {
  #limit: RateLimit;
  readonly #clock: BucketClock;
  #tokens: number;
  #last: number;
  readonly #cancel: Waiter[] = [];
  readonly #urgent: Waiter[] = [];
  /** Fair between callers, account data before bulk data (fair-queue.ts). */
  readonly #normal = new FairQueue<Waiter>();
  /** Each lane waits until this time (a Retry-After given to a request of that lane). */
  readonly #pausedUntil: Record<Priority, number> = {
    cancel: Number.NEGATIVE_INFINITY,
    urgent: Number.NEGATIVE_INFINITY,
    normal: Number.NEGATIVE_INFINITY,
  };
  #pumping = false;
  readonly #reserves: boolean;
  /** The rate tokens come back at: the cancels' (`cancelsPerSecond`), else the limit's. */
  #refillPerSecond: number;

  /**
   * `reserves: false` for a bucket that only one kind of request ever takes (the placements'
   * own limit): no tokens are held back for lanes that never come.
   *
   * `cancelsPerSecond` (above the limit's rate: the broker's published one) lets cancels go at
   * that rate while every other lane keeps `limit.perSecond`: tokens come back at the cancels'
   * rate and any other request spends more than one (10/s against 8/s: 1.25), so a kill switch
   * uses all the broker allows and a poll no more than before. The burst stays `limit.burst`
   * tokens, the margin against the network's delay varying (docs/brokers.md §HTTP client,
   * retries and limits).
   */
  public constructor(
    limit: RateLimit,
    clock: BucketClock = realClock,
    options: { reserves?: boolean; cancelsPerSecond?: number } = {},
  ) {
    this.#limit = checked(limit);
    this.#clock = clock;
    this.#reserves = options.reserves ?? true;
    this.#refillPerSecond = Math.max(limit.perSecond, options.cancelsPerSecond ?? 0);
    this.#tokens = this.#capacity();
    this.#last = clock.now();
  }

  /** The rate and burst in force. */
  public get limit(): RateLimit {
    return this.#limit;
  }

  /**
   * Takes a new rate and burst (the broker published its limits): tokens already earned are kept
   * up to the new burst, and waiting callers are admitted at the new rate from now on.
   */
  public resize(limit: RateLimit, cancelsPerSecond?: number): void {
    this.#refill();
    this.#limit = checked(limit);
    this.#refillPerSecond = Math.max(limit.perSecond, cancelsPerSecond ?? 0);
    this.#tokens = Math.min(this.#tokens, this.#capacity());
  }

  /**
   * Waits until one request may be sent; resolves with the clock's time of admission. If
   * `signal` aborts first, rejects with `NotAdmitted` and spends nothing.
   */
  public take(priority: Priority = 'normal', signal?: AbortSignal): Promise<number> {
    if (signal?.aborted) return Promise.reject(new NotAdmitted());
    this.#refill();
    const now = this.#clock.now();
    const rank = LANES.indexOf(priority);
    const ahead = LANES.slice(0, rank + 1).some((l) => this.#length(l) > 0 && now >= this.#pausedUntil[l]);
    const held = now < this.#pausedUntil[priority];
    if (!ahead && !held && this.#tokens >= this.#needs(priority)) {
      this.#tokens -= this.#cost(priority);
      return Promise.resolve(now);
    }
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        if (waiter.cancelled) return;
        waiter.cancelled = true;
        reject(new NotAdmitted());
      };
      // Admitted: the listener goes, so a signal shared by many requests (a kill switch's Stop) holds none.
      const waiter: Waiter = {
        admit: (at) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(at);
        },
        cancelled: false,
      };
      if (priority === 'normal') this.#normal.push(waiter);
      else (priority === 'cancel' ? this.#cancel : this.#urgent).push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      void this.#pump();
    });
  }

  /** Callers waiting for a token (those who gave up included, until the pump passes them). */
  public waiting(): number {
    return this.#cancel.length + this.#urgent.length + this.#normal.length;
  }

  /**
   * Spends nothing for `ms`: the server said Retry-After, so nobody should call before then.
   *
   * A lane (`'normal'`, `'urgent'`, `'cancel'`) holds back only that lane's callers: a poll's
   * 429 must never delay a cancel, nor a placement's 429 a cancel. The default `'all'` holds
   * back everyone.
   */
  public pause(ms: number, lane: 'all' | Priority = 'all'): void {
    this.#refill();
    if (lane !== 'all') {
      this.#pausedUntil[lane] = Math.max(this.#pausedUntil[lane], this.#clock.now() + ms);
      return;
    }
    const debt = -(ms / 1000) * this.#refillPerSecond;
    this.#tokens = Math.min(this.#tokens, debt);
  }

  /** At least how long a caller of this priority would wait for a token now, in ms (queues aside). */
  public waitFor(priority: Priority): number {
    this.#refill();
    const now = this.#clock.now();
    const need = this.#needs(priority);
    const refill = this.#tokens >= need ? 0 : ((need - this.#tokens) / this.#refillPerSecond) * 1000;
    const paused = Math.max(0, this.#pausedUntil[priority] - now);
    return Math.ceil(Math.max(refill, paused));
  }

  /** Admits waiters as tokens refill, the highest lane first; one pump at a time. */
  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (this.waiting() > 0) {
        this.#refill();
        if (this.#admitOne()) continue;
        const now = this.#clock.now();
        // The earliest moment a waiting lane could be served: its pause over, its reserve earned.
        let wake = Number.POSITIVE_INFINITY;
        for (const lane of LANES) {
          if (this.#length(lane) === 0) continue;
          const paused = Math.max(0, this.#pausedUntil[lane] - now);
          const short = Math.max(0, ((this.#needs(lane) - this.#tokens) / this.#refillPerSecond) * 1000);
          wake = Math.min(wake, Math.max(paused, short));
        }
        // Never sleep past the next whole token: a higher lane's caller who queues meanwhile
        // is admitted at the rate, not when a lower lane's reserve or pause has passed.
        const slice = Math.ceil(1000 / this.#refillPerSecond);
        await this.#clock.sleep(Math.max(1, Math.ceil(Math.min(wake, slice))));
      }
    } finally {
      this.#pumping = false;
    }
  }

  /**
   * Admits the head of the highest lane that may go now, dropping callers who gave up. A lane
   * short of its reserve stops the lanes below it (they need more); a paused lane does not.
   */
  #admitOne(): boolean {
    const now = this.#clock.now();
    for (const lane of LANES) {
      if (this.#dropGivenUp(lane)) return true;
      if (this.#length(lane) === 0 || now < this.#pausedUntil[lane]) continue;
      if (this.#tokens < this.#needs(lane)) return false;
      const next = lane === 'normal' ? this.#normal.shift() : (lane === 'cancel' ? this.#cancel : this.#urgent).shift();
      if (!next) continue;
      if (next.cancelled) return true;
      this.#tokens -= this.#cost(lane);
      next.cancelled = true; // admitted: a later abort changes nothing
      next.admit(now);
      return true;
    }
    return false;
  }

  /** Removes a given-up caller at the head of a FIFO lane (the fair queue drops them as it serves). */
  #dropGivenUp(lane: Priority): boolean {
    const q = lane === 'cancel' ? this.#cancel : lane === 'urgent' ? this.#urgent : null;
    if (q?.[0]?.cancelled !== true) return false;
    q.shift();
    return true;
  }

  #length(lane: Priority): number {
    return lane === 'normal' ? this.#normal.length : (lane === 'cancel' ? this.#cancel : this.#urgent).length;
  }

  /** The most tokens it holds: the burst, and never less than one request of any lane costs (a burst of 1 would admit no poll). */
  #capacity(): number {
    return Math.max(this.#limit.burst, this.#cost('normal'));
  }

  /** Tokens one request of this priority spends: one for a cancel, more where cancels go faster. */
  #cost(priority: Priority): number {
    return priority === 'cancel' ? 1 : this.#refillPerSecond / this.#limit.perSecond;
  }

  /** Tokens the bucket must hold to admit a caller of this priority. */
  #needs(priority: Priority): number {
    if (priority === 'cancel' || !this.#reserves) return this.#cost(priority);
    return this.#cost(priority) + (priority === 'urgent' ? cancelReserve(this.#limit) : urgentReserve(this.#limit));
  }

  #refill(): void {
    const now = this.#clock.now();
    const elapsed = Math.max(0, now - this.#last) / 1000;
    this.#last = now;
    this.#tokens = Math.min(this.#capacity(), this.#tokens + elapsed * this.#refillPerSecond);
  }
}

function checked(limit: RateLimit): RateLimit {
  if (!(limit.perSecond > 0) || !(limit.burst >= 1))
    throw new RangeError('rate limit needs perSecond > 0 and burst >= 1');
  return limit;
}

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
 * Who goes first when the bucket is empty: order actions (place, modify, cancel, and the
 * lookups that resolve a placement) are `urgent`; polls and other reads are `normal`.
 */
export type Priority = 'urgent' | 'normal';

/**
 * Tokens normal callers leave in the bucket (a quarter of the burst: 4 of the paper broker's
 * paced 16, 2 of Kite's 8, none under a burst of 4), so an order action finds one at once even
 * while polls and refetches keep the bucket at its floor. Normal callers keep the full rate;
 * only their burst is smaller (docs/architecture.md §HTTP client, retries and limits).
 */
function urgentReserve(limit: RateLimit): number {
  return Math.floor(limit.burst / 4);
}

/**
 * Client-side token bucket: keeps the app under the broker's limit instead of finding it by 429s.
 *
 * Each `take()` spends one token; when none is left the caller waits in a queue that one pump
 * drains at the refill rate. There are two queues: an urgent caller is admitted before every
 * waiting normal one, so a trader's click never waits behind the panels' polls for the same
 * per-token budget (the broker counts both). Urgent callers are served in arrival order; the
 * normal queue is fair (`fair-queue.ts`): account data before chart history and instrument
 * lists, and turns between the pages asking (docs/architecture.md §Fair queuing). `pause()`
 * empties the bucket until a server-given Retry-After has passed, so one 429 on an order action
 * holds back every request; `pause(ms, 'normal')` holds back only the normal lane, so a poll's
 * 429 never delays an order action.
 */
export class TokenBucket {
  #limit: RateLimit;
  readonly #clock: BucketClock;
  #tokens: number;
  #last: number;
  readonly #urgent: Array<(admittedAt: number) => void> = [];
  /** Fair between callers, account data before bulk data (fair-queue.ts). */
  readonly #normal = new FairQueue<(admittedAt: number) => void>();
  /** Normal callers wait until this time (a read's Retry-After); urgent ones do not. */
  #normalPausedUntil = Number.NEGATIVE_INFINITY;
  #pumping = false;

  public constructor(limit: RateLimit, clock: BucketClock = realClock) {
    this.#limit = checked(limit);
    this.#clock = clock;
    this.#tokens = limit.burst;
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
  public resize(limit: RateLimit): void {
    this.#refill();
    this.#limit = checked(limit);
    this.#tokens = Math.min(this.#tokens, limit.burst);
  }

  /** Waits until one request may be sent; resolves with the clock's time of admission. */
  public take(priority: Priority = 'normal'): Promise<number> {
    this.#refill();
    const ahead = this.#urgent.length + (priority === 'normal' ? this.#normal.length : 0);
    const held = priority === 'normal' && this.#clock.now() < this.#normalPausedUntil;
    if (ahead === 0 && !held && this.#tokens >= this.#needs(priority)) {
      this.#tokens -= 1;
      return Promise.resolve(this.#clock.now());
    }
    return new Promise((resolve) => {
      (priority === 'urgent' ? this.#urgent : this.#normal).push(resolve);
      void this.#pump();
    });
  }

  /** Callers waiting for a token. */
  public waiting(): number {
    return this.#urgent.length + this.#normal.length;
  }

  /**
   * Spends nothing for `ms`: the server said Retry-After, so nobody should call before then.
   *
   * `lane: 'normal'` holds back only normal callers (a poll's 429 must never delay a cancel);
   * the default `'all'` holds back everyone (a 429 on an order action).
   */
  public pause(ms: number, lane: 'all' | 'normal' = 'all'): void {
    this.#refill();
    if (lane === 'normal') {
      this.#normalPausedUntil = Math.max(this.#normalPausedUntil, this.#clock.now() + ms);
      return;
    }
    const debt = -(ms / 1000) * this.#limit.perSecond;
    this.#tokens = Math.min(this.#tokens, debt);
  }

  /** At least how long a caller of this priority would wait for a token now, in ms (queues aside). */
  public waitFor(priority: Priority): number {
    this.#refill();
    const now = this.#clock.now();
    const need = this.#needs(priority);
    const refill = this.#tokens >= need ? 0 : ((need - this.#tokens) / this.#limit.perSecond) * 1000;
    const paused = priority === 'normal' ? Math.max(0, this.#normalPausedUntil - now) : 0;
    return Math.ceil(Math.max(refill, paused));
  }

  /** Admits waiters as tokens refill, urgent ones first; one pump at a time. */
  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (this.waiting() > 0) {
        this.#refill();
        const normalHeld = this.#clock.now() < this.#normalPausedUntil;
        const head: Priority = this.#urgent.length > 0 ? 'urgent' : 'normal';
        if (this.#tokens >= this.#needs(head) && (head === 'urgent' || !normalHeld)) {
          this.#tokens -= 1;
          const next = this.#urgent.shift() ?? this.#normal.shift();
          next?.(this.#clock.now());
          continue;
        }
        // Never sleep past the next whole token: an urgent caller who queues meanwhile (the
        // bucket below one token) is admitted at the rate, not when the normal head's reserve
        // or pause has passed. Above one token an urgent caller is admitted by take() itself.
        const toOne = Math.ceil(((1 - this.#tokens) / this.#limit.perSecond) * 1000);
        const toNeed = Math.ceil(((this.#needs(head) - this.#tokens) / this.#limit.perSecond) * 1000);
        const slice = Math.ceil(1000 / this.#limit.perSecond);
        const held = normalHeld ? Math.ceil(this.#normalPausedUntil - this.#clock.now()) : 0;
        await this.#clock.sleep(this.#tokens < 1 ? toOne : Math.max(1, Math.min(slice, Math.max(toNeed, held))));
      }
    } finally {
      this.#pumping = false;
    }
  }

  /** Tokens the bucket must hold to admit a caller of this priority. */
  #needs(priority: Priority): number {
    return priority === 'urgent' ? 1 : 1 + urgentReserve(this.#limit);
  }

  #refill(): void {
    const now = this.#clock.now();
    const elapsed = Math.max(0, now - this.#last) / 1000;
    this.#last = now;
    this.#tokens = Math.min(this.#limit.burst, this.#tokens + elapsed * this.#limit.perSecond);
  }
}

function checked(limit: RateLimit): RateLimit {
  if (!(limit.perSecond > 0) || !(limit.burst >= 1))
    throw new RangeError('rate limit needs perSecond > 0 and burst >= 1');
  return limit;
}

import { FairQueue } from './fair-queue';

/** A rate and a burst, as brokers publish their limits (DESIGN.md §2 "Limits"). */
export interface RateLimit {
  readonly perSecond: number;
  readonly burst: number;
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
 * Client-side token bucket: keeps the app under the broker's limit instead of finding it by 429s.
 *
 * Each `take()` spends one token; when none is left the caller waits in a queue that one pump
 * drains at the refill rate. There are two queues: an urgent caller is admitted before every
 * waiting normal one, so a trader's click never waits behind the panels' polls for the same
 * per-token budget (the broker counts both). Urgent callers are served in arrival order; the
 * normal queue is fair (`fair-queue.ts`): account data before chart history and instrument
 * lists, and turns between the pages asking (docs/architecture.md, Fair queuing). `pause()` empties the bucket until a server-given Retry-After has passed, so one 429
 * holds back every request, not just the one that got it.
 */
export class TokenBucket {
  readonly #limit: RateLimit;
  readonly #clock: BucketClock;
  #tokens: number;
  #last: number;
  readonly #urgent: Array<(admittedAt: number) => void> = [];
  /** Fair between callers, account data before bulk data (fair-queue.ts). */
  readonly #normal = new FairQueue<(admittedAt: number) => void>();
  #pumping = false;

  public constructor(limit: RateLimit, clock: BucketClock = realClock) {
    if (!(limit.perSecond > 0) || !(limit.burst >= 1))
      throw new RangeError('rate limit needs perSecond > 0 and burst >= 1');
    this.#limit = limit;
    this.#clock = clock;
    this.#tokens = limit.burst;
    this.#last = clock.now();
  }

  /** Waits until one request may be sent; resolves with the clock's time of admission. */
  public take(priority: Priority = 'normal'): Promise<number> {
    this.#refill();
    const ahead = this.#urgent.length + (priority === 'normal' ? this.#normal.length : 0);
    if (ahead === 0 && this.#tokens >= 1) {
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

  /** Spends nothing for `ms`: the server said Retry-After, so nobody should call before then. */
  public pause(ms: number): void {
    this.#refill();
    const debt = -(ms / 1000) * this.#limit.perSecond;
    this.#tokens = Math.min(this.#tokens, debt);
  }

  /** Admits waiters as tokens refill, urgent ones first; one pump at a time. */
  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (this.waiting() > 0) {
        this.#refill();
        if (this.#tokens >= 1) {
          this.#tokens -= 1;
          const next = this.#urgent.shift() ?? this.#normal.shift();
          next?.(this.#clock.now());
          continue;
        }
        await this.#clock.sleep(Math.ceil(((1 - this.#tokens) / this.#limit.perSecond) * 1000));
      }
    } finally {
      this.#pumping = false;
    }
  }

  #refill(): void {
    const now = this.#clock.now();
    const elapsed = Math.max(0, now - this.#last) / 1000;
    this.#last = now;
    this.#tokens = Math.min(this.#limit.burst, this.#tokens + elapsed * this.#limit.perSecond);
  }
}

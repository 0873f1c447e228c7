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
 * Client-side token bucket: keeps the app under the broker's limit instead of finding it by 429s.
 *
 * Each `take()` reserves one token; when none is left the caller waits for its refill. The
 * balance may go negative — that is the queue — so callers are served in arrival order without
 * a timer per waiter. `pause()` empties the bucket until a server-given Retry-After has passed,
 * so one 429 holds back every request, not just the one that got it.
 */
export class TokenBucket {
  readonly #limit: RateLimit;
  readonly #clock: BucketClock;
  #tokens: number;
  #last: number;

  public constructor(limit: RateLimit, clock: BucketClock = realClock) {
    if (!(limit.perSecond > 0) || !(limit.burst >= 1)) throw new RangeError('rate limit needs perSecond > 0 and burst >= 1');
    this.#limit = limit;
    this.#clock = clock;
    this.#tokens = limit.burst;
    this.#last = clock.now();
  }

  /** Waits until one request may be sent. */
  public async take(): Promise<void> {
    const wait = this.reserve();
    if (wait > 0) await this.#clock.sleep(wait);
  }

  /** Reserves one token and returns how long (ms) the caller must wait before using it. */
  public reserve(): number {
    this.#refill();
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : Math.ceil((-this.#tokens / this.#limit.perSecond) * 1000);
  }

  /** Spends nothing for `ms`: the server said Retry-After, so nobody should call before then. */
  public pause(ms: number): void {
    this.#refill();
    const debt = -(ms / 1000) * this.#limit.perSecond;
    this.#tokens = Math.min(this.#tokens, debt);
  }

  #refill(): void {
    const now = this.#clock.now();
    const elapsed = Math.max(0, now - this.#last) / 1000;
    this.#last = now;
    this.#tokens = Math.min(this.#limit.burst, this.#tokens + elapsed * this.#limit.perSecond);
  }
}

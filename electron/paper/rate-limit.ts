/**
 * Token buckets: the broker's request limits (docs/api.md §Limits).
 *
 * A bucket holds up to `burst` requests and refills at `perSecond`. Replies carry the IETF
 * RateLimit-Policy / RateLimit headers (draft-ietf-httpapi-ratelimit-headers, structured-field
 * form) so a client can pace itself before it ever sees a 429.
 */

export interface RateConfig {
  readonly perSecond: number;
  readonly burst: number;
}

export interface Take {
  readonly ok: boolean;
  /** Whole requests left after this one. */
  readonly remaining: number;
  /** Seconds until a request would be allowed again (Retry-After on a 429), ≥ 1 when refused. */
  readonly retryAfterS: number;
  /** Seconds until the bucket is full again. */
  readonly resetS: number;
}

class Bucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly cfg: RateConfig,
    now: number,
  ) {
    this.tokens = cfg.burst;
    this.last = now;
  }

  take(now: number): Take {
    const { perSecond, burst } = this.cfg;
    this.tokens = Math.min(burst, this.tokens + ((now - this.last) / 1000) * perSecond);
    this.last = now;
    const ok = this.tokens >= 1;
    if (ok) this.tokens -= 1;
    const missing = ok ? 0 : 1 - this.tokens;
    return {
      ok,
      remaining: Math.max(0, Math.floor(this.tokens)),
      retryAfterS: ok ? 0 : Math.max(1, Math.ceil(missing / perSecond)),
      resetS: Math.ceil((burst - this.tokens) / perSecond),
    };
  }
}

/** A named family of buckets keyed by caller (access token, or address before login). */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly name: string,
    readonly cfg: RateConfig,
  ) {}

  take(key: string, now: number): Take {
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size > 10_000) this.buckets.clear(); // bounded: forget idle callers
      b = new Bucket(this.cfg, now);
      this.buckets.set(key, b);
    }
    return b.take(now);
  }

  /** `"name";q=burst;w=window` — the window is how long a full burst takes to refill. */
  policy(): string {
    return `"${this.name}";q=${this.cfg.burst};w=${Math.max(1, Math.ceil(this.cfg.burst / this.cfg.perSecond))}`;
  }

  static header(name: string, t: Take): string {
    return `"${name}";r=${t.remaining};t=${t.resetS}`;
  }
}

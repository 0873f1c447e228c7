import { deriveRng, type Rng } from './rng';

/**
 * Fault injection: the failures a real broker and network produce, on demand, so the client's
 * guarantees (exactly-once placement, retries, shape validation) are tested against a real
 * server. Spec: `drop_reply=0.2,server_error=0.1,rate_limit=0.1,latency_ms=30,shape_change=0.05,token_expiry=0.01`
 * (also `late_server_error`, `stall_reply`).
 * Probabilities are per request; never applied to /v1/_control.
 */
export interface FaultConfig {
  /** Commit the request, then destroy the connection without a reply. */
  drop_reply?: number;
  /** Answer 500/502/503/504; half of them before the handler runs, half after it committed. */
  server_error?: number;
  /** Answer 500/502/503/504 always after the handler committed (a late 5xx: it did happen). */
  late_server_error?: number;
  /**
   * Commit the request, then never answer and keep the connection open: a reply lost on the
   * way, as a client sees it (only its own timeout ends the wait), unlike `drop_reply`'s close.
   */
  stall_reply?: number;
  /** Answer 429 with Retry-After before doing anything. */
  rate_limit?: number;
  /**
   * Answer 429 with Retry-After to reads only (GET; never the stream's upgrade): a storm on the
   * polls while order actions still go through.
   */
  read_rate_limit?: number;
  /** The Retry-After, in seconds, of the `rate_limit` fault's 429 (default 1). */
  retry_after_s?: number;
  /** Delay every reply by this many milliseconds. */
  latency_ms?: number;
  /** Answer a 2xx with a renamed top-level field, as an API version change would. */
  shape_change?: number;
  /** Expire the caller's token now: 401 token_expired (an extension, docs/api.md "Faults"). */
  token_expiry?: number;
}

const KEYS = [
  'drop_reply',
  'server_error',
  'late_server_error',
  'stall_reply',
  'rate_limit',
  'read_rate_limit',
  'retry_after_s',
  'latency_ms',
  'shape_change',
  'token_expiry',
] as const;
type FaultKey = (typeof KEYS)[number];

/** Parses `k=v,k=v` or an object; throws a readable Error on an unknown key or bad value. */
export function parseFaults(spec: string | FaultConfig): FaultConfig {
  const entries: Array<[string, unknown]> =
    typeof spec === 'string'
      ? spec
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .map((kv) => {
            const [k, v] = kv.split('=');
            return [k?.trim() ?? '', v === undefined ? Number.NaN : Number(v.trim())];
          })
      : Object.entries(spec);
  const out: FaultConfig = {};
  for (const [k, v] of entries) {
    if (!(KEYS as readonly string[]).includes(k)) throw new Error(`unknown fault "${k}" (known: ${KEYS.join(', ')})`);
    const isAmount = k === 'latency_ms' || k === 'retry_after_s';
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (!isAmount && v > 1)) {
      const what =
        k === 'latency_ms'
          ? 'milliseconds ≥ 0'
          : k === 'retry_after_s'
            ? 'seconds ≥ 0'
            : 'a probability between 0 and 1';
      throw new Error(`fault ${k} needs ${what}`);
    }
    out[k as FaultKey] = v;
  }
  return out;
}

/** Which faults hit one request. */
export interface FaultPlan {
  readonly latencyMs: number;
  /** Retry-After (s) of an injected 429. */
  readonly retryAfterS: number;
  readonly rateLimit: boolean;
  readonly tokenExpiry: boolean;
  /** 5xx before the handler runs (nothing committed). */
  readonly errorBefore: number | null;
  /** 5xx after the handler committed. */
  readonly errorAfter: number | null;
  readonly dropReply: boolean;
  /** Committed, then no reply at all: the connection stays open and silent. */
  readonly stallReply: boolean;
  readonly shapeChange: boolean;
}

const NONE: FaultPlan = {
  latencyMs: 0,
  retryAfterS: 1,
  rateLimit: false,
  tokenExpiry: false,
  errorBefore: null,
  errorAfter: null,
  dropReply: false,
  stallReply: false,
  shapeChange: false,
};
const FIVE_XX = [500, 502, 503, 504] as const;

export class Faults {
  private cfg: FaultConfig = {};
  private readonly rng: Rng;

  constructor(seed: number, initial?: string | FaultConfig) {
    this.rng = deriveRng(seed, 'faults');
    if (initial !== undefined) this.set(initial);
  }

  set(spec: string | FaultConfig): void {
    this.cfg = parseFaults(spec);
  }

  current(): FaultConfig {
    return { ...this.cfg };
  }

  /** Rolls the dice for one request (`method`: its HTTP method); at most one of the failure modes fires. */
  plan(method = 'POST'): FaultPlan {
    const c = this.cfg;
    if (Object.keys(c).length === 0) return NONE;
    const roll = (p: number | undefined): boolean => p !== undefined && p > 0 && this.rng() < p;
    const latencyMs = c.latency_ms ?? 0;
    if (roll(c.rate_limit) || (method === 'GET' && roll(c.read_rate_limit)))
      return { ...NONE, latencyMs, rateLimit: true, retryAfterS: c.retry_after_s ?? 1 };
    if (roll(c.token_expiry)) return { ...NONE, latencyMs, tokenExpiry: true };
    if (roll(c.server_error)) {
      const status = FIVE_XX[Math.floor(this.rng() * FIVE_XX.length)] ?? 500;
      return this.rng() < 0.5
        ? { ...NONE, latencyMs, errorBefore: status }
        : { ...NONE, latencyMs, errorAfter: status };
    }
    if (roll(c.late_server_error)) {
      return { ...NONE, latencyMs, errorAfter: FIVE_XX[Math.floor(this.rng() * FIVE_XX.length)] ?? 500 };
    }
    if (roll(c.drop_reply)) return { ...NONE, latencyMs, dropReply: true };
    if (roll(c.stall_reply)) return { ...NONE, latencyMs, stallReply: true };
    if (roll(c.shape_change)) return { ...NONE, latencyMs, shapeChange: true };
    return { ...NONE, latencyMs };
  }
}

/**
 * Renames the first top-level field of a JSON object (`order_id` → `orderId`, `orders` →
 * `data`): the reply still parses as JSON, but not as the contract's shape.
 */
export function driftShape(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { data: body };
  const entries = Object.entries(body as Record<string, unknown>);
  const first = entries[0];
  if (!first) return { data: body };
  const renamed = first[0].includes('_') ? first[0].replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) : 'data';
  return Object.fromEntries([[renamed, first[1]], ...entries.slice(1)]);
}

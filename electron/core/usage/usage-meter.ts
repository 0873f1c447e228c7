import type { BrokerUsage } from '@shared/domain/usage';
import type { BrokerLimits } from '../../broker/broker';
import type { RateLimit } from '../../broker/http/token-bucket';

/** What the meter needs to know about time; injected so tests move it by hand. */
export interface MeterClock {
  /** Monotonic milliseconds. */
  now(): number;
  /** Runs `fn` once after `ms`; returns the cancel. */
  schedule(fn: () => void, ms: number): () => void;
}

const realClock: MeterClock = {
  now: () => performance.now(),
  schedule: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return () => clearTimeout(t);
  },
};

/** Knobs of the meter. */
export interface UsageMeterOptions {
  /** The broker adapter's label. */
  readonly broker: string;
  /** Called with the new figures, at most once a second and only when they changed. */
  readonly publish: (usage: BrokerUsage) => void;
  /** The window the rate is averaged over (default 30 s: one slow reconcile of every panel). */
  readonly windowMs?: number;
  readonly clock?: MeterClock;
}

const SECOND = 1_000;

/**
 * Counts the requests the desk sends to its broker and publishes the rate against the broker's
 * budget (docs/brokers.md §The request meter).
 *
 * Requests are counted in one-second bins, so memory stays bounded however busy the desk is.
 * While any request is inside the window, a one-second tick recomputes the figures and publishes
 * them if they changed; once the window is empty and a zero has been published the tick stops,
 * so an idle desk costs nothing.
 */
export class UsageMeter {
  readonly #broker: string;
  readonly #publish: (usage: BrokerUsage) => void;
  readonly #windowMs: number;
  readonly #clock: MeterClock;
  /** Requests per whole second (second index → count), oldest first. */
  readonly #bins = new Map<number, number>();
  #limits: BrokerLimits | null = null;
  #pace: RateLimit | null = null;
  #published = '';
  #cancel: (() => void) | null = null;
  #closed = false;

  public constructor(options: UsageMeterOptions) {
    this.#broker = options.broker;
    this.#publish = options.publish;
    this.#windowMs = Math.max(SECOND, Math.round((options.windowMs ?? 30_000) / SECOND) * SECOND);
    this.#clock = options.clock ?? realClock;
  }

  /** One request left for the broker. */
  public sent(): void {
    const bin = Math.floor(this.#clock.now() / SECOND);
    this.#bins.set(bin, (this.#bins.get(bin) ?? 0) + 1);
    this.#tickSoon();
  }

  /** The broker's limits and the desk's own pace changed: published at once if the figures changed. */
  public setLimits(limits: BrokerLimits, pace: RateLimit | null): void {
    this.#limits = limits;
    this.#pace = pace;
    this.#publishIfChanged();
  }

  /** The figures now, or null before the broker's limits are known. */
  public current(): BrokerUsage | null {
    const limits = this.#limits;
    if (!limits) return null;
    this.#prune();
    let requests = 0;
    let peak = 0;
    for (const n of this.#bins.values()) {
      requests += n;
      peak = Math.max(peak, n);
    }
    return {
      broker: this.#broker,
      windowMs: this.#windowMs,
      requests,
      perSecond: requests / (this.#windowMs / SECOND),
      peakPerSecond: peak,
      limit: { perSecond: limits.requests.perSecond, burst: limits.requests.burst },
      limitSource: limits.source,
      pace: this.#pace ? { perSecond: this.#pace.perSecond, burst: this.#pace.burst } : null,
    };
  }

  /** Stops the tick (the session ended). */
  public close(): void {
    this.#closed = true;
    this.#cancel?.();
    this.#cancel = null;
  }

  #tickSoon(): void {
    if (this.#cancel || this.#closed) return;
    this.#cancel = this.#clock.schedule(() => {
      this.#cancel = null;
      const usage = this.#publishIfChanged();
      if (usage && usage.requests === 0) return; // nothing left in the window: rest until the next request
      this.#tickSoon();
    }, SECOND);
  }

  #publishIfChanged(): BrokerUsage | null {
    const usage = this.current();
    if (!usage) return null;
    const key = JSON.stringify(usage);
    if (key !== this.#published) {
      this.#published = key;
      this.#publish(usage);
    }
    return usage;
  }

  /** Drops the bins that left the window (a bin counts while any of its second is inside). */
  #prune(): void {
    const oldest = Math.floor((this.#clock.now() - this.#windowMs) / SECOND) + 1;
    for (const bin of this.#bins.keys()) {
      if (bin >= oldest) break;
      this.#bins.delete(bin);
    }
  }
}

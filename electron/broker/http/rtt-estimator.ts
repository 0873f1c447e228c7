/** Bounds of the adaptive timeout, in ms. */
export interface RtoBounds {
  /** Never give up sooner than this, however fast the broker usually answers. */
  readonly minMs: number;
  /** Never wait longer than this for one reply. */
  readonly maxMs: number;
  /** The timeout before the first measured round trip. */
  readonly initialMs: number;
}

/**
 * Defaults for an order POST and its lookups: 300 ms–5 s, 1 s before anything is measured
 * (docs/money-path.md, "Exactly-once orders"). On loopback the broker answers in about a
 * millisecond, so a lost reply costs ~300 ms before the lookup that settles it.
 */
export const DEFAULT_RTO_BOUNDS: RtoBounds = { minMs: 300, maxMs: 5_000, initialMs: 1_000 };

/**
 * The retransmission-timeout estimator of TCP (RFC 6298), used to decide how long to wait for
 * an order's reply before asking the broker about it instead.
 *
 * It keeps a smoothed round trip (SRTT) and its variation (RTTVAR) from replies that arrived
 * (Karn: never from a timed-out request), and proposes SRTT + 4·RTTVAR, clamped. A timeout
 * doubles the proposal (once per round of requests sent under the old value), so a broker that
 * suddenly slows down is not given up on forever at a timeout measured when it was fast.
 * @see https://www.rfc-editor.org/rfc/rfc6298
 */
export class RttEstimator {
  readonly #bounds: RtoBounds;
  #srtt: number | null = null;
  #rttvar = 0;
  #rto: number;
  /** When the last back-off happened: requests sent before it do not back off again. */
  #backedOffAt = Number.NEGATIVE_INFINITY;

  public constructor(bounds: RtoBounds = DEFAULT_RTO_BOUNDS) {
    this.#bounds = bounds;
    this.#rto = bounds.initialMs;
  }

  /** The timeout to give the next request, in ms. */
  public timeoutMs(): number {
    return this.#rto;
  }

  /** A reply arrived `rttMs` after its request was sent. */
  public sample(rttMs: number): void {
    const r = Math.max(0, rttMs);
    if (this.#srtt === null) {
      this.#srtt = r;
      this.#rttvar = r / 2;
    } else {
      this.#rttvar = 0.75 * this.#rttvar + 0.25 * Math.abs(this.#srtt - r);
      this.#srtt = 0.875 * this.#srtt + 0.125 * r;
    }
    this.#rto = this.#clamp(this.#srtt + 4 * this.#rttvar);
  }

  /** A request sent at `sentAt` (same clock as `now`) got no reply within its timeout. */
  public timedOut(sentAt: number, now: number): void {
    if (sentAt < this.#backedOffAt) return;
    this.#backedOffAt = now;
    this.#rto = this.#clamp(this.#rto * 2);
  }

  #clamp(ms: number): number {
    return Math.round(Math.min(this.#bounds.maxMs, Math.max(this.#bounds.minMs, ms)));
  }
}

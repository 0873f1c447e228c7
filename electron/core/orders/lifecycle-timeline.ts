import type { LifecycleHop, OrderEvent } from '@shared/domain/order';
import { isoIst } from '../clock';

/** App-side hops, in the order they happen. */
export type AppHop = 'clicked' | 'journaled' | 'sent' | 'acknowledged' | 'recovered';

interface Entry {
  readonly hop: AppHop;
  readonly at: number;
}

/**
 * Records when each order passed each app-side hop (click → journaled → sent → acknowledged),
 * so `orders.history` can show the trader where the time went.
 *
 * Keyed by client_order_id until the broker names the order, then also by order id. Times are
 * main-process clock readings (the click time is the renderer's, passed in). Bounded: the
 * oldest orders are forgotten first, since only recent ones are inspected.
 */
export class LifecycleTimeline {
  readonly #byClientId = new Map<string, Entry[]>();
  readonly #clientIdOf = new Map<string, string>();
  /** When main heard of each status change on the stream, by order id (main's clock). */
  readonly #seen = new Map<string, Array<{ readonly status: string; readonly at: number }>>();
  readonly #max: number;

  public constructor(max = 2_000) {
    this.#max = max;
  }

  /** Records one hop of an intent. */
  public record(clientOrderId: string, hop: AppHop, at: number): void {
    let list = this.#byClientId.get(clientOrderId);
    if (!list) {
      this.#byClientId.set(clientOrderId, (list = []));
      this.#evict();
    }
    list.push({ hop, at });
  }

  /** Links the intent to the order the broker created for it. */
  public link(clientOrderId: string, orderId: string): void {
    this.#clientIdOf.set(orderId, clientOrderId);
  }

  /** Records that the stream told main about a status change (repeats of one status are kept once). */
  public observe(orderId: string, status: string, at: number): void {
    let list = this.#seen.get(orderId);
    if (!list) {
      this.#seen.set(orderId, (list = []));
      if (this.#seen.size > this.#max) {
        const oldest = this.#seen.keys().next().value;
        if (oldest !== undefined) this.#seen.delete(oldest);
      }
    }
    const last = list[list.length - 1];
    if (last?.status !== status) list.push({ status, at });
  }

  /**
   * The order's full timeline: the app's hops (click → journaled → sent → acknowledged), then
   * each of the broker's transitions, each followed by when main heard of it on the stream.
   *
   * `gapMs` is the time since the previous hop on the same clock (see below).
   */
  public timeline(orderId: string, brokerHistory: readonly OrderEvent[]): LifecycleHop[] {
    const cid = this.#clientIdOf.get(orderId);
    const app = cid ? (this.#byClientId.get(cid) ?? []) : [];
    const seen = [...(this.#seen.get(orderId) ?? [])];
    const hops: Array<{ hop: string; at: number; source: 'app' | 'broker' }> = app.map((e) => ({
      hop: e.hop,
      at: e.at,
      source: 'app' as const,
    }));
    for (const e of brokerHistory) {
      hops.push({ hop: e.status.toLowerCase(), at: Date.parse(e.at), source: 'broker' });
      const i = seen.findIndex((s) => s.status === e.status);
      if (i >= 0)
        hops.push({ hop: `${e.status.toLowerCase()} seen on stream`, at: seen.splice(i, 1)[0]!.at, source: 'app' });
    }
    for (const s of seen) hops.push({ hop: `${s.status.toLowerCase()} seen on stream`, at: s.at, source: 'app' });
    // Gaps compare each clock only with itself: main's hops (ms) with main's, the broker's
    // transitions (whole seconds) with the broker's. A stream update can beat the HTTP reply
    // it belongs to, so a gap is clamped at 0 rather than shown negative.
    const prev: Record<'app' | 'broker', number | null> = { app: null, broker: null };
    return hops.map((h) => {
      const before = prev[h.source];
      const gapMs = before === null || !Number.isFinite(h.at) ? null : Math.max(0, h.at - before);
      if (Number.isFinite(h.at)) prev[h.source] = h.at;
      return { hop: h.hop, at: isoIst(Number.isFinite(h.at) ? h.at : 0), gapMs, source: h.source };
    });
  }

  #evict(): void {
    while (this.#byClientId.size > this.#max) {
      const oldest = this.#byClientId.keys().next().value;
      if (oldest === undefined) return;
      this.#byClientId.delete(oldest);
    }
    if (this.#clientIdOf.size > this.#max * 2) {
      for (const [orderId, cid] of this.#clientIdOf) if (!this.#byClientId.has(cid)) this.#clientIdOf.delete(orderId);
    }
  }
}

import type { WebSocket } from 'ws';
import type { Tick } from '@shared/domain/market';
import { DEFAULT_FAN_OUT_LIMITS, FanOut, type FanOutLimits, type Peer } from '../wire/fan-out';

/**
 * Everything the browser host sends its pages, with a bound on what may wait unsent
 * (docs/architecture.md §The bridge, bounded sends), by the one server-side policy
 * (`electron/wire/fan-out.ts`).
 *
 * A page that stops reading (a frozen tab, a debugger pause, a hostile client) must not grow
 * the host's memory. Past `coalesceAboveBytes` unsent, ticks are no longer queued one message
 * each: the latest tick of each instrument is kept and sent as one `market.ticks` message once
 * the socket has room (prices are state, so an old one is worth nothing once a newer exists).
 * Replies and every other event are never dropped. A page still behind after `slowCloseMs`, or
 * with `closeAboveBytes` unsent, is closed with 4008; one that stops answering pings (sent every
 * `pingEveryMs`) is dropped after `deadAfterMs`. A closed page's sender releases everything it kept.
 */

/** Bounds of one bridge socket. */
export interface BridgeLimits extends FanOutLimits {
  readonly pingEveryMs: number;
}

export const DEFAULT_BRIDGE_LIMITS: BridgeLimits = {
  ...DEFAULT_FAN_OUT_LIMITS,
  pingEveryMs: 10_000,
  deadAfterMs: 30_000,
};

/** Close code for a page that reads too slowly (the paper stream uses the same). */
export const CLOSE_TOO_SLOW = 4008;

/**
 * One serialisation per event, not per page: the hub hands every bridge the same payload
 * object, so the first sender's text is reused by the rest.
 */
const serialised = new WeakMap<object, string>();

function eventText(event: string, payload: unknown): string {
  if (payload === null || typeof payload !== 'object') return JSON.stringify({ event, payload });
  let text = serialised.get(payload);
  if (text === undefined) serialised.set(payload, (text = JSON.stringify({ event, payload })));
  return text;
}

/** Every page's bridge socket, under the one policy. */
export type BridgeFanOut = FanOut<null, Tick>;

export function bridgeFanOut(limits: Partial<BridgeLimits> = {}, now: () => number = Date.now): BridgeFanOut {
  const { pingEveryMs, ...bounds } = { ...DEFAULT_BRIDGE_LIMITS, ...limits };
  return new FanOut<null, Tick>({
    limits: bounds,
    beatMs: pingEveryMs,
    now,
    tooSlow: { code: CLOSE_TOO_SLOW, advice: 'reload the page' },
    pack: (ticks) => [JSON.stringify({ event: 'market.ticks', payload: { ticks } })],
  });
}

/** One page's outbound side: events and replies. */
export class BridgeSender {
  readonly #peer: Peer<null, Tick>;

  public constructor(fan: BridgeFanOut, ws: WebSocket) {
    this.#peer = fan.attach(ws, null);
  }

  /** True once closed (by the page, or for being too slow or silent). */
  public get closed(): boolean {
    return this.#peer.closed;
  }

  /** Unsent bytes on this socket (tests and the soak watch it stay bounded). */
  public get bufferedBytes(): number {
    return this.#peer.bufferedBytes;
  }

  /** Sends one event; ticks for a page that is behind are kept, latest per instrument. */
  public event(event: string, payload: unknown): void {
    if (event !== 'market.ticks') return this.#peer.send(eventText(event, payload));
    const { ticks } = payload as { ticks: readonly Tick[] };
    this.#peer.offer(
      ticks.map((t) => [t.instrumentToken, t] as const),
      () => eventText(event, payload),
    );
  }

  /** Sends a call's reply (never dropped). */
  public reply(id: number | string | null, result: unknown): void {
    this.#peer.send(JSON.stringify({ id, result }));
  }

  /** Forgets what was kept; the socket is closing. */
  public close(): void {
    this.#peer.release();
  }
}

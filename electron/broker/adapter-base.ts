import { z } from 'zod';
import type { CandleInterval } from '@shared/domain/market';
import type { Order, OrderAck, OrderStatus } from '@shared/domain/order';
import { istDayStart } from '@shared/lib/ist-time';
import { brokerError } from './broker-error';
import type { Broker, BrokerLimits, CandleQuery, PlaceOptions, PlacementTraits } from './broker';
import type { RetryClass } from './http/retry-policy';
import type { Priority } from './http/token-bucket';
import type { CallSpec, RestTransport } from './rest/rest-transport';
import { settledCancel } from './settled-cancel';

/**
 * The parts of an adapter that are the same job on every broker (docs/brokers.md, "What the
 * adapters share"): each adapter keeps its dialect — paths, wire schemas, mapping, error codes —
 * and calls these for the plumbing around it.
 */

const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * An id as a path or query may carry it, or a `bad_request` naming `field`: `..` survives
 * encodeURIComponent and would turn DELETE /orders/.. into DELETE /, so only the id alphabet passes.
 */
export function checkedId(id: string, what: string, field: string): string {
  if (!SAFE_ID.test(id)) throw brokerError('bad_request', `${what} is 1–64 letters, digits, "_" or "-"`, { field });
  return id;
}

/** An order id as any broker's path or query may carry it, or a `bad_request` naming `orderId`. */
export function checkedOrderId(orderId: string): string {
  return checkedId(orderId, 'An order id', 'orderId');
}

/**
 * A read of `path`: a GET whose reply `schema` parses, repeated on a transient failure like every
 * read (retry class `read`); `more` adds the rest of the call (query, lane, conditional, headers).
 */
export function readCall<S extends z.ZodType>(
  transport: RestTransport,
  path: string,
  schema: S,
  more: Omit<CallSpec<S>, 'method' | 'path' | 'schema' | 'retry'> = {},
): Promise<z.output<S>> {
  return transport.call({ method: 'GET', path, schema, retry: 'read', ...more });
}

/**
 * A placement as the transport takes it: sent once (only the order service decides a re-send,
 * docs/money-path.md), in the urgent lane, counted against the order limits, with the caller's
 * options (absent ones left out).
 */
export function placeSpec(options: PlaceOptions): {
  retry: RetryClass;
  priority: Priority;
  placement: true;
  onSlow?: PlaceOptions['onSlow'];
  signal?: AbortSignal;
  sendBy?: AbortSignal;
} {
  return {
    retry: 'once',
    priority: 'urgent',
    placement: true,
    ...(options.onSlow ? { onSlow: options.onSlow } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.sendBy ? { sendBy: options.sendBy } : {}),
  };
}

/**
 * What a broker that publishes its limits only in its documentation, and keeps a day's order
 * book whose tags are labels, answers alike (Kite, Upstox: docs/brokers.md §What the adapters
 * share). Their adapters extend it.
 */
export abstract class TodaysBookBroker {
  readonly #name: string;
  readonly #documented: BrokerLimits;

  protected constructor(name: string, documented: BrokerLimits) {
    this.#name = name;
    this.#documented = documented;
  }

  public limits(): BrokerLimits {
    return this.#documented;
  }

  /** Its replies publish no limits: the documented ones stand, and never change. */
  public onLimits(): () => void {
    return () => undefined;
  }

  /**
   * It accepts a reused tag as a second order, and its order book holds only today's orders: an
   * intent journaled before today's IST date cannot be looked up.
   */
  public placementTraits(): PlacementTraits {
    return {
      uniqueReferences: false,
      ordersVisibleFrom: (now) => istDayStart(now),
      ordersVisibleNote: `${this.#name} shows only today’s orders`,
    };
  }
}

/** A logout: the session call, and the client's cache emptied whether or not the broker answered. */
export async function endSession(transport: RestTransport, send: () => Promise<unknown>): Promise<void> {
  try {
    await send();
  } finally {
    transport.resetCache();
  }
}

/**
 * The orders a lookup by reference found, each named with that reference. An order carrying the
 * reference that the app cannot read must never look like "absent": it is an `unexpected_shape`.
 */
export function referencedOrders<W extends { readonly order_id: string | number }>(
  broker: string,
  rows: readonly W[],
  toOrder: (w: W) => Order | null,
  clientOrderId: string,
): Order[] {
  return rows.map((o) => {
    const order = toOrder(o);
    if (order === null) {
      throw brokerError(
        'unexpected_shape',
        `${broker} reports order ${o.order_id} for this reference in a form the app cannot read`,
      );
    }
    return { ...order, clientOrderId };
  });
}

/**
 * An order list as the app shows it: the orders it can read (a row it cannot is left out of a
 * list, unlike a lookup's), in `status` when one is asked.
 */
export function shownOrders<W>(rows: readonly W[], toOrder: (w: W) => Order | null, status?: OrderStatus): Order[] {
  const out: Order[] = [];
  for (const o of rows) {
    const order = toOrder(o);
    if (order === null) continue;
    if (status !== undefined && order.status !== status) continue;
    out.push(order);
  }
  return out;
}

/**
 * A cancel on a broker that answers only the id once it has taken the cancellation: the answer is
 * that, at once (the stream and main's order book show the order's end). A refusal because the
 * order stopped working is answered with its end (`settled-cancel.ts`).
 */
export async function cancelTaken(
  id: string,
  send: () => Promise<unknown>,
  broker: Pick<Broker, 'getOrder'>,
): Promise<OrderAck> {
  try {
    await send();
  } catch (err) {
    return settledCancel(err, id, (o) => broker.getOrder(o, { urgent: true }));
  }
  return { orderId: id, status: 'CANCELLED' };
}

const DAY_MS = 86_400_000;
/** How far back a chart reaches when the caller gives no `from` (Kite and Upstox require one). */
export const DEFAULT_SPAN_DAYS: Readonly<Record<CandleInterval, number>> = {
  minute: 5,
  '5minute': 15,
  '15minute': 30,
  '60minute': 90,
  day: 365,
};

/** A chart's window in ms: `to` now and `from` its interval's default span back when not given. */
export function candleWindow(q: CandleQuery, now: number): { readonly from: number; readonly to: number } {
  const to = q.to !== undefined ? Date.parse(q.to) : now;
  const from = q.from !== undefined ? Date.parse(q.from) : to - DEFAULT_SPAN_DAYS[q.interval] * DAY_MS;
  if (!Number.isFinite(from) || !Number.isFinite(to)) {
    throw brokerError('bad_request', 'A chart window needs ISO times', {
      field: Number.isFinite(from) ? 'to' : 'from',
    });
  }
  return { from, to };
}

/**
 * One load shared by every caller until it fails: a failed load is forgotten, so the next caller
 * tries again instead of inheriting the failure (the instrument list of Kite and Upstox).
 */
export class KeptUntilFailed<T> {
  #value: Promise<T> | null = null;

  public constructor(private readonly load: () => Promise<T>) {}

  public get(): Promise<T> {
    this.#value ??= this.load().catch((err: unknown) => {
      this.#value = null;
      throw err;
    });
    return this.#value;
  }
}

/** The WebSocket address at `path` below an HTTP base URL (`https:` → `wss:`, else `ws:`). */
export function streamUrl(baseUrl: string, path: string): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/** The instrument tokens of a quote request: 1 to 500 positive integers. */
export function quoteTokens(instrumentTokens: readonly number[]): number[] {
  return z.array(z.number().int().positive()).min(1).max(500).parse(instrumentTokens);
}

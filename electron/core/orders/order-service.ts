import type { Order, OrderAck, OrderRequest } from '../../../shared/domain/order';
import { validateOrder } from '../../../shared/trading/rules';
import { AppError } from '../../app/app-error';
import type { Broker } from '../../broker/broker';
import { AMBIGUOUS_KINDS, brokerError } from '../../broker/broker-error';
import { fullJitterDelay, type BackoffPolicy } from '../../broker/http/backoff';
import { systemClock, type Clock } from '../clock';
import type { InstrumentCatalog } from '../instruments/instrument-catalog';
import type { IntentsLedger } from '../ledger/intents-ledger';
import type { IntentRecord } from '../ledger/ledger-record';
import { newClientOrderId } from './client-order-id';
import type { LifecycleTimeline } from './lifecycle-timeline';

/** How a placement ended, for the caller and the bench. */
export interface Placement {
  readonly ack: OrderAck;
  /** True when the answer came from a lookup or a 409, not from the POST's own reply. */
  readonly recovered: boolean;
}

/** Dependencies and knobs of the order service. */
export interface OrderServiceDeps {
  readonly broker: Broker;
  readonly ledger: IntentsLedger;
  readonly catalog: InstrumentCatalog;
  readonly timeline: LifecycleTimeline;
  readonly clock?: Clock;
  /** Waits between resolution rounds (lookups and re-sends). */
  readonly backoff?: BackoffPolicy;
  readonly newId?: () => string;
  /** An intent found absent this long after it was journaled is abandoned, not sent. */
  readonly staleAfterMs?: number;
}

/** Resolution rounds are cheap GETs; a few dozen over ~30 s ride out a broker restart. */
const DEFAULT_RESOLUTION_BACKOFF: BackoffPolicy = { baseMs: 50, capMs: 2_000, maxRetries: 40 };

/**
 * Exactly-once order creation (DESIGN.md §4).
 *
 * 1. Apply the shared trading rules; a violation is a `bad_request` naming the field and
 *    nothing is journaled or sent.
 * 2. Give the intent a fresh client_order_id and fsync it to the ledger — only then POST.
 * 3. A 201 is the answer. A lost reply, timeout or 5xx is *ambiguous*: ask
 *    `GET /orders?client_order_id=`; found → that order; confirmed absent → re-send the same
 *    intent with the same id (the broker refuses a second order under it: 409 names the
 *    first, which is then the answer). 429 was refused before acting: wait Retry-After, re-send.
 * 4. A 4xx refusal ends the intent as failed; a 2xx that does not parse ends it as `unknown`
 *    and is reported as `unexpected_shape` — never as a placed order, and never re-sent.
 *
 * At start-up `reconcile()` runs step 3 from the lookup for every intent a crash left open,
 * and `place()` waits for it, so nothing new is sent before the past is settled.
 */
export class OrderService {
  readonly #broker: Broker;
  readonly #ledger: IntentsLedger;
  readonly #catalog: InstrumentCatalog;
  readonly #timeline: LifecycleTimeline;
  readonly #clock: Clock;
  readonly #backoff: BackoffPolicy;
  readonly #newId: () => string;
  readonly #staleAfterMs: number;
  #ready: Promise<void> = Promise.resolve();
  readonly #driving = new Set<string>();

  public constructor(deps: OrderServiceDeps) {
    this.#broker = deps.broker;
    this.#ledger = deps.ledger;
    this.#catalog = deps.catalog;
    this.#timeline = deps.timeline;
    this.#clock = deps.clock ?? systemClock;
    this.#backoff = deps.backoff ?? DEFAULT_RESOLUTION_BACKOFF;
    this.#newId = deps.newId ?? newClientOrderId;
    this.#staleAfterMs = deps.staleAfterMs ?? 15 * 60_000;
  }

  /**
   * Resolves every intent left open (by a crash, or a resolution that gave up) before any new
   * order is sent: `place()` waits for it. Returns how many were settled and how many are
   * still open.
   */
  public reconcile(concurrency = 4): Promise<{ settled: number; open: number }> {
    const run = this.#ready.then(() => this.#settleOpen(concurrency));
    this.#ready = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /**
   * Retries intents that a placement gave up on while the app keeps running, without holding
   * back new orders (their ids are distinct, so they cannot collide with the old ones).
   */
  public reconcileInBackground(concurrency = 2): Promise<{ settled: number; open: number }> {
    return this.#ready.then(() => this.#settleOpen(concurrency));
  }

  async #settleOpen(concurrency: number): Promise<{ settled: number; open: number }> {
    // Intents a placement is still driving are its business; a second driver would only add
    // requests (never orders: the broker refuses a reused client_order_id).
    const pending = this.#ledger.unresolved().filter((i) => !this.#driving.has(i.clientOrderId));
    let settled = 0;
    const worker = async (): Promise<void> => {
      for (let intent = pending.shift(); intent; intent = pending.shift()) {
        try {
          await this.#drive(intent, true);
          settled += 1;
        } catch {
          // Left open in the ledger: the next reconcile (or start-up) tries again.
          if (!this.#ledger.get(intent.clientOrderId)) settled += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
    return { settled, open: this.#ledger.unresolved().length };
  }

  /** Places one order exactly once; rejects with a typed `AppError`. */
  public async place(order: OrderRequest, clickedAt?: number): Promise<Placement> {
    await this.#checkRules(order);
    await this.#ready;
    const clientOrderId = this.#newId();
    if (clickedAt !== undefined) this.#timeline.record(clientOrderId, 'clicked', clickedAt);
    await this.#ledger.appendIntent({ clientOrderId, at: this.#clock.now(), order });
    this.#timeline.record(clientOrderId, 'journaled', this.#clock.now());
    const intent = this.#ledger.get(clientOrderId);
    if (!intent) throw brokerError('internal', 'The order intent was not journaled');
    return this.#drive(intent, false);
  }

  async #checkRules(order: OrderRequest): Promise<void> {
    const instrument = await this.#catalog.find(order.exchange, order.tradingsymbol);
    if (!instrument) {
      throw brokerError('bad_request', `${order.tradingsymbol} is not traded on ${order.exchange}`, {
        field: 'tradingsymbol',
      });
    }
    const violations = validateOrder(order, instrument);
    const first = violations[0];
    if (first) {
      throw brokerError('bad_request', first.message, {
        field: first.field,
        fields: violations.map((v) => ({ field: v.field, message: v.message })),
      });
    }
  }

  /** Drives one intent to a known outcome, marking it as being driven meanwhile. */
  async #drive(intent: IntentRecord, lookupFirst: boolean): Promise<Placement> {
    this.#driving.add(intent.clientOrderId);
    try {
      return await this.#driveOnce(intent, lookupFirst);
    } finally {
      this.#driving.delete(intent.clientOrderId);
    }
  }

  /** Send or look up, until the broker's answer is certain or the rounds run out. */
  async #driveOnce(intent: IntentRecord, lookupFirst: boolean): Promise<Placement> {
    const cid = intent.clientOrderId;
    let lookup = lookupFirst;
    let lastError: AppError | null = null;
    for (let round = 0; round <= this.#backoff.maxRetries; round += 1) {
      if (round > 0)
        await this.#clock.sleep(fullJitterDelay(round - 1, this.#backoff) + (lastError?.info.retryAfterMs ?? 0));
      if (lookup) {
        let found: Order | undefined;
        try {
          found = (await this.#broker.listOrders({ clientOrderId: cid })).find((o) => o.clientOrderId === cid);
        } catch (err) {
          lastError = asAppError(err);
          if (!AMBIGUOUS_KINDS.has(lastError.info.kind) && lastError.info.kind !== 'rate_limited') throw lastError;
          continue;
        }
        if (found)
          return await this.#settle(cid, { orderId: found.orderId, clientOrderId: cid, status: found.status }, true);
        lastError = null;
        if (this.#clock.now() - intent.at > this.#staleAfterMs) {
          // Confirmed absent, but clicked so long ago that sending it now would surprise the trader.
          await this.#ledger.resolve({
            clientOrderId: cid,
            at: this.#clock.now(),
            outcome: 'failed',
            orderId: null,
            kind: 'timeout',
          });
          throw brokerError(
            'timeout',
            'An order from before the restart never reached the broker and is too old to send now',
          );
        }
        lookup = false; // confirmed absent: the same intent may be sent again, under the same id
      }
      this.#timeline.record(cid, 'sent', this.#clock.now());
      try {
        const ack = await this.#broker.placeOrder({ ...intent.order, clientOrderId: cid });
        return await this.#settle(cid, ack, false);
      } catch (err) {
        const e = asAppError(err);
        lastError = e;
        const kind = e.info.kind;
        if (kind === 'conflict' && e.info.orderId) return await this.#settleById(cid, e.info.orderId);
        if (kind === 'conflict' || AMBIGUOUS_KINDS.has(kind)) {
          lookup = true;
          continue;
        }
        if (kind === 'rate_limited') continue; // refused before acting: re-send after Retry-After
        if (kind === 'unexpected_shape') {
          await this.#ledger.resolve({
            clientOrderId: cid,
            at: this.#clock.now(),
            outcome: 'unknown',
            orderId: null,
            kind,
          });
          throw brokerError(
            'unexpected_shape',
            `${e.message}. The order may have been created: check the order book before placing it again.`,
          );
        }
        // 400/401/403/404: refused before acting, and any earlier ambiguous send was confirmed
        // absent by a lookup before this one, so nothing exists under this id.
        await this.#ledger.resolve({
          clientOrderId: cid,
          at: this.#clock.now(),
          outcome: 'failed',
          orderId: null,
          kind,
        });
        throw e;
      }
    }
    throw brokerError(
      lastError?.info.kind ?? 'timeout',
      'The broker did not confirm the order in time; it stays journaled and will be reconciled',
      {
        ...(lastError?.info.retryAfterMs !== undefined ? { retryAfterMs: lastError.info.retryAfterMs } : {}),
      },
    );
  }

  async #settleById(cid: string, orderId: string): Promise<Placement> {
    const order = await this.#broker.getOrder(orderId);
    return this.#settle(cid, { orderId, clientOrderId: cid, status: order.status }, true);
  }

  async #settle(cid: string, ack: OrderAck, recovered: boolean): Promise<Placement> {
    const now = this.#clock.now();
    this.#timeline.record(cid, recovered ? 'recovered' : 'acknowledged', now);
    this.#timeline.link(cid, ack.orderId);
    // Not awaited: a resolution lost to a crash costs one lookup at the next start, not an order.
    this.#ledger
      .resolve({ clientOrderId: cid, at: now, outcome: recovered ? 'recovered' : 'acknowledged', orderId: ack.orderId })
      .catch(() => undefined);
    return { ack: { ...ack, clientOrderId: cid }, recovered };
  }
}

function asAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return brokerError('internal', err instanceof Error ? err.message : String(err));
}

import { isWorking, type Order, type OrderAck, type OrderChanges } from '@shared/domain/order';
import { toUnits } from '@shared/trading/money';
import { applyChanges, validateModification } from '@shared/trading/rules';
import { AppError } from '@shared/ipc/app-error';
import type { Broker } from '../../broker/broker';
import { brokerError, TransportFailure } from '../../broker/broker-error';
import { systemClock, type Clock } from '../clock';
import type { InstrumentCatalog } from '../instruments/instrument-catalog';
import { violationsRefusal } from './order-rules';
import type { RiskGuard, RiskMode } from '../risk/risk-guard';

/** Time bounds of one modification. */
export interface ModifyTimings {
  /** Give up confirming an ambiguous PATCH after this long (default 5 s). */
  readonly deadlineMs: number;
  /**
   * How long an order the broker's reads do not show yet is looked for before the modification
   * is refused (nothing sent): an order book trails its order system (default 2 s).
   */
  readonly findMs: number;
  /** Waits between attempts, in order; the last one repeats (default 0, 50, 100, 200, 400, 800 ms). */
  readonly pacingMs: readonly number[];
}

const DEFAULT_MODIFY_TIMINGS: ModifyTimings = {
  deadlineMs: 5_000,
  findMs: 2_000,
  pacingMs: [0, 50, 100, 200, 400, 800],
};

/** Failures after which the modification may have been applied: only reading the order back can tell. */
const unknownOutcomes = new WeakSet<object>();

/**
 * True when a modification failed with its outcome unknown — a PATCH was sent and neither its
 * reply nor a read of the order settled it by the deadline. Every other failure of `modify` is a
 * refusal: nothing was changed (docs/contract.md §Modify and cancel answer honestly).
 */
export function modifyOutcomeUnknown(err: unknown): boolean {
  return typeof err === 'object' && err !== null && unknownOutcomes.has(err);
}

/** The failure of a modification that may have been applied (`modifyOutcomeUnknown`), with the last error's words. */
function unknownOutcome(cause: AppError): AppError {
  const err = brokerError(
    'timeout',
    `The broker did not confirm the modification (${cause.info.message}); check the order before modifying it again`,
  );
  unknownOutcomes.add(err);
  return err;
}

/** Dependencies of the modifier. */
export interface OrderModifierDeps {
  readonly broker: Broker;
  readonly catalog: InstrumentCatalog;
  readonly clock?: Clock;
  readonly timings?: Partial<ModifyTimings>;
  /**
   * The trader's risk limits: a modification is judged as the order it would become
   * (docs/contract.md §Risk guard), before anything is sent.
   */
  readonly guard?: Pick<RiskGuard, 'checkModification' | 'enter'> & Partial<Pick<RiskGuard, 'reserveModification'>>;
  /**
   * True for an order main knows exists (it placed it, or its book holds it): the broker's reads
   * not showing it yet means its order book trails, so it is looked for again (`findMs`). Any
   * other order the broker does not show is refused at once. Absent: never looked for again.
   */
  readonly knownOrder?: (orderId: string) => boolean;
}

const FIELDS = ['quantity', 'price', 'triggerPrice', 'orderType', 'validity'] as const;

/** True when `a` and `b` are the same value of the field (prices compared in price units; 0 = none). */
function same(field: (typeof FIELDS)[number], a: unknown, b: unknown): boolean {
  if (field === 'price' || field === 'triggerPrice') {
    const units = (v: unknown): number | null => (typeof v === 'number' && v > 0 ? toUnits(v) : null);
    return units(a) === units(b);
  }
  return a === b;
}

/**
 * The fields of `wanted` that differ from the order now: the dialog may send every field as
 * absolute values, but only what changes goes to the broker, so a modification never rewrites
 * a field the trader did not touch.
 */
export function changedFields(order: Order, wanted: OrderChanges): OrderChanges {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) {
    const v = wanted[f];
    if (v !== undefined && !same(f, v, order[f])) out[f] = v;
  }
  return out as OrderChanges;
}

/** True when the order carries every value of `changes`. */
export function carries(order: Order, changes: OrderChanges): boolean {
  return FIELDS.every((f) => changes[f] === undefined || same(f, changes[f], order[f]));
}

/**
 * Modifications of working orders (docs/money-path.md, "Modifications").
 *
 * Main validates the modified order with the shared rules (naming the field) before anything
 * is sent, sends only the fields that change, one modification per order at a time, with the
 * order's version as an `If-Match` precondition where the broker reports versions. A PATCH
 * whose outcome is unknown (5xx, lost reply) is never repeated blindly: main reads the order
 * and compares — our change is there → done; the order moved on → "changed meanwhile", and
 * nothing is sent; still as it was → the same PATCH again (still under the old version, so a
 * late first attempt and the retry cannot both apply, and neither can undo a newer change).
 */
export class OrderModifier {
  readonly #broker: Broker;
  readonly #catalog: InstrumentCatalog;
  readonly #clock: Clock;
  readonly #t: ModifyTimings;
  readonly #guard: OrderModifierDeps['guard'] | null;
  readonly #perOrder = new Map<string, Promise<unknown>>();
  readonly #knownOrder: (orderId: string) => boolean;

  public constructor(deps: OrderModifierDeps) {
    this.#broker = deps.broker;
    this.#catalog = deps.catalog;
    this.#clock = deps.clock ?? systemClock;
    this.#t = { ...DEFAULT_MODIFY_TIMINGS, ...deps.timings };
    this.#guard = deps.guard ?? null;
    this.#knownOrder = deps.knownOrder ?? (() => false);
  }

  /**
   * Modifies one working order; rejects with an `AppError` naming the field or saying what
   * happened. `risk`: how the risk guard judges the order it would become (`override`: the
   * trader's "Modify anyway" waives soft limits). `options.holdIfUnknown`: when the outcome is
   * unknown, it is handed the release of the modification's reservation in the risk guard, to
   * call once the caller has settled it by reading the order back (docs/contract.md §Risk guard);
   * without it the reservation is released when `modify` fails.
   */
  public modify(
    orderId: string,
    changes: OrderChanges,
    risk: RiskMode = 'check',
    options: { readonly holdIfUnknown?: (release: () => void) => void } = {},
  ): Promise<OrderAck> {
    const before = this.#perOrder.get(orderId) ?? Promise.resolve();
    const run = before.then(
      () => this.#modify(orderId, changes, risk, options.holdIfUnknown),
      () => this.#modify(orderId, changes, risk, options.holdIfUnknown),
    );
    const tail = run.catch(() => undefined);
    this.#perOrder.set(orderId, tail);
    void tail.then(() => {
      if (this.#perOrder.get(orderId) === tail) this.#perOrder.delete(orderId);
    });
    return run;
  }

  async #modify(
    orderId: string,
    wanted: OrderChanges,
    risk: RiskMode,
    holdIfUnknown: ((release: () => void) => void) | undefined,
  ): Promise<OrderAck> {
    const startedAt = this.#clock.now();
    const current = await this.#find(orderId);
    if (!isWorking(current.status)) {
      throw brokerError('conflict', `Order ${orderId} is ${current.status} and can no longer be modified`);
    }
    const instrument = await this.#catalog.find(current.exchange, current.tradingsymbol);
    if (!instrument) {
      throw brokerError(
        'conflict',
        `${current.tradingsymbol} is no longer listed by the broker; the order cannot be modified`,
      );
    }
    const changes = changedFields(current, wanted);
    if (Object.keys(changes).length === 0) {
      throw brokerError('bad_request', 'Nothing to change: every field already has that value', { field: 'changes' });
    }
    const refusal = violationsRefusal(validateModification(current, changes, instrument));
    if (refusal) throw refusal;
    let unreserve = (): void => undefined;
    if (this.#guard) {
      const becomes = { ...applyChanges(current, changes), tradingsymbol: current.tradingsymbol };
      const release = await this.#guard.enter();
      try {
        await this.#guard.checkModification(current, becomes, instrument, risk, { readsBy: startedAt + 1_000 });
        // Its growth counts, like a placement in flight, until its answer settles: a second
        // modification judged meanwhile cannot walk past a limit with it (docs/contract.md §Risk guard).
        unreserve = this.#guard.reserveModification?.(current, becomes) ?? unreserve;
      } finally {
        release();
      }
    }
    try {
      return await this.#send(current, changes);
    } catch (err) {
      if (holdIfUnknown && modifyOutcomeUnknown(err)) {
        holdIfUnknown(unreserve);
        unreserve = (): void => undefined;
      }
      throw err;
    } finally {
      unreserve();
    }
  }

  /**
   * Reads the order to modify. An order the broker's reads do not show yet (its order book trails
   * its order system: Kite's "Couldn't find that order_id" moments after a placement) is looked
   * for again until `findMs`; then the modification is refused — nothing was sent.
   */
  async #find(orderId: string): Promise<Order> {
    const until = this.#clock.now() + (this.#knownOrder(orderId) ? this.#t.findMs : 0);
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.#broker.getOrder(orderId, { urgent: true });
      } catch (err) {
        if (!(err instanceof AppError) || err.info.kind !== 'not_found') throw err;
        const wait = this.#pacing(attempt);
        if (this.#clock.now() + wait > until) {
          throw brokerError(
            'not_found',
            `Not modified: the broker does not show order ${orderId} (${err.info.message}); nothing was sent`,
          );
        }
        await this.#clock.sleep(wait);
      }
    }
  }

  /** Sends the PATCH until its outcome is known, comparing before any second send. */
  async #send(current: Order, changes: OrderChanges): Promise<OrderAck> {
    const id = current.orderId;
    const precondition = current.version !== undefined ? { ifVersion: current.version } : {};
    const deadline = this.#clock.now() + this.#t.deadlineMs;
    let attempt = 0;
    // Whether a PATCH may have been applied without main knowing (no reply, a 5xx…).
    const doubt = { sent: false };
    for (;;) {
      let e: AppError;
      try {
        return await this.#broker.modifyOrder(id, changes, precondition);
      } catch (err) {
        e = err instanceof AppError ? err : brokerError('internal', String(err));
      }
      const kind = e.info.kind;
      // A refusal of this send says nothing of an earlier one that may have acted, whose change
      // a trailing order book may not show yet: once one may have, the outcome is unknown.
      const refused = (r: AppError): AppError => (doubt.sent ? unknownOutcome(r) : r);
      if (kind === 'bad_request' || kind === 'forbidden' || kind === 'not_found' || kind === 'unauthorized') {
        throw refused(e);
      }
      if (kind === 'rate_limited') {
        // Refused before acting: the same PATCH may go again after the pause.
        await this.#pause(e.info.retryAfterMs ?? 1_000, deadline, e, doubt);
        continue;
      }
      if (kind !== 'conflict' && !(e instanceof TransportFailure && e.reach === 'not_sent')) doubt.sent = true;
      // Conflict (412, 409) or an unknown outcome: look at the order before anything else.
      const now = await this.#readUntil(id, deadline, e, doubt);
      if (carries(now, changes) && (current.version === undefined || now.version !== current.version)) {
        return { orderId: id, clientOrderId: now.clientOrderId, status: now.status };
      }
      if (!isWorking(now.status)) {
        throw refused(brokerError('conflict', `Order ${id} is ${now.status} and can no longer be modified`));
      }
      if (current.version !== undefined && now.version !== current.version) {
        const changed = `Order ${id} was changed meanwhile (now version ${now.version ?? '?'})`;
        if (doubt.sent) throw unknownOutcome(brokerError('conflict', `${changed}, perhaps after this request acted`));
        throw brokerError('conflict', `${changed}; nothing was changed by this request — review it and modify again`);
      }
      if (kind === 'conflict') throw refused(e);
      // Not applied, and nothing else changed it: the same PATCH, under the same precondition.
      attempt += 1;
      await this.#pause(this.#pacing(attempt), deadline, e, doubt);
    }
  }

  /** Reads the order, retrying quickly until the deadline. */
  async #readUntil(orderId: string, deadline: number, cause: AppError, doubt: { sent: boolean }): Promise<Order> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.#broker.getOrder(orderId, { urgent: true });
      } catch {
        await this.#pause(this.#pacing(attempt + 1), deadline, cause, doubt);
      }
    }
  }

  #pacing(attempt: number): number {
    const p = this.#t.pacingMs;
    return p[Math.min(attempt, p.length - 1)] ?? 0;
  }

  /**
   * Waits, unless that would pass the deadline: then the modification's outcome is unknown if a
   * PATCH may have been applied (`doubt.sent`), else it was refused (every send was turned away).
   */
  async #pause(ms: number, deadline: number, cause: AppError, doubt: { sent: boolean }): Promise<void> {
    if (this.#clock.now() + ms > deadline) {
      if (!doubt.sent) throw new AppError({ ...cause.info, message: `Not modified: ${cause.info.message}` });
      throw unknownOutcome(cause);
    }
    await this.#clock.sleep(ms);
  }
}

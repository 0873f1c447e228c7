import { isWorking, type Order, type OrderChanges } from '@shared/domain/order';
import type { OrderActionKind, OrderActionOutcome, OrderActionState } from '@shared/domain/order-action';
import { AppError } from '@shared/ipc/app-error';
import type { Broker } from '../../broker/broker';
import { brokerError } from '../../broker/broker-error';
import { systemClock, type Clock } from '../clock';
import type { RiskMode } from '../risk/risk-guard';
import { carries, modifyOutcomeUnknown, type OrderModifier } from './order-modifier';

/** How an action main could not confirm is settled. */
export interface ActionTimings {
  /** Read the order back for this long; then it stays "not confirmed", saying what the broker shows (default 60 s). */
  readonly checkForMs: number;
  /** Waits between reads, in order; the last one repeats (default 250, 500, 1,000, 2,000 ms). */
  readonly pacingMs: readonly number[];
  /** How long a cancel of an order the broker does not show yet is tried again (default 2 s). */
  readonly findMs: number;
}

const DEFAULT_ACTION_TIMINGS: ActionTimings = { checkForMs: 60_000, pacingMs: [250, 500, 1_000, 2_000], findMs: 2_000 };

/** How long a settled action's answer is kept for `state` (as long as the unconfirmed list shows a settled placement). */
const KEEP_SETTLED_MS = 10 * 60_000;

export interface OrderActionsDeps {
  readonly broker: Pick<Broker, 'cancelOrder' | 'getOrder'>;
  readonly modifier: Pick<OrderModifier, 'modify'>;
  readonly clock?: Clock;
  readonly timings?: Partial<ActionTimings>;
  /**
   * The order as main's book holds it now (the stream's pushes and every read), looked at before
   * each read back: the broker's own report settles an action as well as a read does.
   */
  readonly seen?: (orderId: string) => Order | undefined;
  /** True for an order main knows exists: one the broker does not show yet is asked again (`findMs`). */
  readonly knownOrder?: (orderId: string) => boolean;
  /** Told whenever an action main could not confirm settles (or stops being checked). */
  readonly onSettled?: (state: OrderActionState) => void;
}

interface Tracked {
  state: OrderActionState;
  settledAt: number | null;
}

/** Failures of a cancel that say nothing was cancelled: the broker refused it as asked. */
const REFUSED_CANCEL = new Set(['bad_request', 'forbidden', 'unauthorized', 'rate_limited']);

/**
 * Modify and cancel with the three honest answers (docs/contract.md §Modify and cancel answer
 * honestly): done (Modified / Cancelled), refused (a failed call: the broker refused, or nothing
 * was sent), or **not yet confirmed** — the outcome is unknown (a reply lost, a 5xx after
 * sending, an order book that trails the order system), and main reads the order back until it
 * shows the change or the order's end (`state`, `orders.action`). Never "failed" for an action
 * that may have happened.
 */
export class OrderActions {
  readonly #broker: OrderActionsDeps['broker'];
  readonly #modifier: OrderActionsDeps['modifier'];
  readonly #clock: Clock;
  readonly #t: ActionTimings;
  readonly #onSettled: OrderActionsDeps['onSettled'];
  readonly #knownOrder: (orderId: string) => boolean;
  readonly #seen: (orderId: string) => Order | undefined;
  readonly #tracked = new Map<string, Tracked>();
  #closed = false;

  public constructor(deps: OrderActionsDeps) {
    this.#broker = deps.broker;
    this.#modifier = deps.modifier;
    this.#clock = deps.clock ?? systemClock;
    this.#t = { ...DEFAULT_ACTION_TIMINGS, ...deps.timings };
    this.#onSettled = deps.onSettled;
    this.#knownOrder = deps.knownOrder ?? (() => false);
    this.#seen = deps.seen ?? (() => undefined);
  }

  /** Modifies a working order: done, or not yet confirmed; rejects only when nothing was changed. */
  public async modify(orderId: string, changes: OrderChanges, risk: RiskMode = 'check'): Promise<OrderActionOutcome> {
    // Its growth stays counted in the risk guard until the reading back settles it.
    let release = (): void => undefined;
    const holdIfUnknown = (r: () => void): void => {
      release = r;
    };
    try {
      const ack = await this.#modifier.modify(orderId, changes, risk, { holdIfUnknown });
      return this.#done('modify', orderId, ack.status, ack.clientOrderId);
    } catch (err) {
      const unknown =
        modifyOutcomeUnknown(err) ||
        !(err instanceof AppError) ||
        err.info.kind === 'internal' ||
        err.info.kind === 'unexpected_shape';
      if (!unknown) throw err;
      return this.#unconfirmed(
        'modify',
        orderId,
        `Checking with the broker whether order ${orderId} was modified…`,
        (o) => (carries(o, changes) ? 'done' : isWorking(o.status) ? null : 'not_done'),
        release,
      );
    }
  }

  /** Cancels a working order: done (its end), or not yet confirmed; rejects only when nothing was cancelled. */
  public async cancel(orderId: string): Promise<OrderActionOutcome> {
    const until = this.#clock.now() + (this.#knownOrder(orderId) ? this.#t.findMs : 0);
    for (let attempt = 0; ; attempt += 1) {
      try {
        const ack = await this.#broker.cancelOrder(orderId);
        return this.#done('cancel', orderId, ack.status, ack.clientOrderId);
      } catch (err) {
        const kind = err instanceof AppError ? err.info.kind : 'internal';
        if (kind === 'not_found') {
          // An order book that trails its order system does not show an order placed moments
          // ago: a cancel is idempotent, so it is simply asked again, briefly.
          const wait = this.#pacing(attempt);
          if (this.#clock.now() + wait <= until) {
            await this.#clock.sleep(wait);
            continue;
          }
          throw brokerError('not_found', `the broker does not show order ${orderId}; nothing was sent`);
        }
        if (REFUSED_CANCEL.has(kind)) throw err;
        // A conflict whose read-back still shows the order working (Kite's "cannot be cancelled
        // as it is being processed" after a first cancel whose reply was lost, its order book
        // trailing), or a cancel whose replies were lost: it may have been cancelled.
        return this.#unconfirmed(
          'cancel',
          orderId,
          `Checking with the broker whether order ${orderId} was cancelled…`,
          (o) => (isWorking(o.status) ? null : 'done'),
        );
      }
    }
  }

  /** Where the last action on this order that main could not confirm at once stands; null when none. */
  public state(orderId: string): OrderActionState | null {
    this.#forgetOld();
    return this.#tracked.get(orderId)?.state ?? null;
  }

  /** Stops checking (logout, shutdown). */
  public close(): void {
    this.#closed = true;
  }

  #done(
    action: OrderActionKind,
    orderId: string,
    status: Order['status'],
    clientOrderId: string | null | undefined,
  ): OrderActionOutcome {
    const out: OrderActionOutcome = {
      state: 'done',
      action,
      orderId,
      status,
      ...(clientOrderId !== undefined ? { clientOrderId } : {}),
    };
    // A confirmed action replaces what an earlier unconfirmed one on this order said.
    this.#tracked.delete(orderId);
    return out;
  }

  #unconfirmed(
    action: OrderActionKind,
    orderId: string,
    detail: string,
    judge: (order: Order) => 'done' | 'not_done' | null,
    onSettled: () => void = () => undefined,
  ): OrderActionOutcome {
    const outcome: OrderActionOutcome = { state: 'unconfirmed', action, orderId, detail };
    const entry: Tracked = { state: outcome, settledAt: null };
    this.#tracked.set(orderId, entry);
    void this.#settle(entry, judge).finally(onSettled);
    return outcome;
  }

  /** Reads the order back until it shows the change (or its end), or `checkForMs` passes. */
  async #settle(entry: Tracked, judge: (order: Order) => 'done' | 'not_done' | null): Promise<void> {
    const { action, orderId } = entry.state;
    const until = this.#clock.now() + this.#t.checkForMs;
    let last: Order | null = null;
    for (let attempt = 0; !this.#closed && this.#tracked.get(orderId) === entry; attempt += 1) {
      const held = this.#seen(orderId);
      const order =
        held && judge(held) !== null ? held : await this.#broker.getOrder(orderId, { urgent: true }).catch(() => null);
      if (order) {
        last = order;
        const verdict = judge(order);
        if (verdict === 'done') {
          entry.state = { state: 'done', action, orderId, status: order.status, clientOrderId: order.clientOrderId };
          break;
        }
        if (verdict === 'not_done') {
          entry.state = {
            state: 'not_done',
            action,
            orderId,
            detail: `Not modified: order ${orderId} is ${order.status}, and the broker shows it without the change`,
          };
          break;
        }
      }
      const wait = this.#pacing(attempt);
      if (this.#clock.now() + wait > until) {
        entry.state = { state: 'unconfirmed', action, orderId, detail: stillUnknown(action, orderId, last) };
        break;
      }
      await this.#clock.sleep(wait);
    }
    if (this.#tracked.get(orderId) !== entry) return;
    entry.settledAt = this.#clock.now();
    this.#onSettled?.(entry.state);
  }

  #pacing(attempt: number): number {
    const p = this.#t.pacingMs;
    return p[Math.min(attempt, p.length - 1)] ?? 0;
  }

  #forgetOld(): void {
    const now = this.#clock.now();
    for (const [id, t] of this.#tracked) {
      if (t.settledAt !== null && now - t.settledAt > KEEP_SETTLED_MS) this.#tracked.delete(id);
    }
  }
}

/** What the trader reads when the reads never settled it: still not "failed". */
function stillUnknown(action: OrderActionKind, orderId: string, last: Order | null): string {
  if (last === null) {
    return `Not confirmed: order ${orderId} could not be read back — check it at the broker before trying again`;
  }
  return action === 'modify'
    ? `Not confirmed: the broker still shows order ${orderId} without the change — check it before modifying again`
    : `Not confirmed: the broker still shows order ${orderId} ${last.status} — check it, and cancel again if it should not work`;
}

import { createHash } from 'node:crypto';
import type { AlertLegOutcome, AlertOrderOutcome, PriceAlert } from '@shared/domain/alert';
import type { OrderRequest } from '@shared/domain/order';
import type { PlaceOutcome } from '@shared/domain/placement';
import { AppError } from '@shared/ipc/app-error';
import { heldBackText, placeBuysFirst, type BuysFirstDeps } from '@shared/trading/buys-first';

/** What placing a fired alert's orders needs: the one placement gate, and reads of what it placed. */
export interface AlertOrderDeps {
  /**
   * The order service's `place` (docs/money-path.md, "Exactly-once orders"), with the risk guard
   * judging the order now, at the firing, and the kill switch's barrier asked as for any order.
   */
  place(order: OrderRequest, requestId: string): Promise<PlaceOutcome>;
  read: BuysFirstDeps['read'];
  wait: BuysFirstDeps['wait'];
  now: BuysFirstDeps['now'];
}

/**
 * The request id of leg `n` of one firing: derived from the alert and when it was armed, so the
 * same firing seen again — a repeated tick, a second evaluation, a restart before the fired state
 * was saved — asks the order service for the same intents, and it answers the first ones instead
 * of placing again (docs/contract.md §Alerts that place orders). Editing the alert arms it anew:
 * a new firing, new ids.
 */
export function alertRequestId(alert: Pick<PriceAlert, 'id' | 'armedAt' | 'createdAt'>, n: number): string {
  const armed = alert.armedAt ?? alert.createdAt;
  const digest = createHash('sha256').update(`${alert.id}:${armed}`).digest('hex').slice(0, 32);
  return `alert-${digest}-${n}`;
}

/** The trader's words for a refusal, naming what was refused. */
function refusalText(err: unknown): string {
  return err instanceof AppError ? err.message : 'Not sent';
}

/** One leg's answer as the alert shows it, and whether the next leg may go. */
function legOf(answer: PlaceOutcome | { readonly refused: string } | { readonly unknown: true }): {
  readonly leg: AlertLegOutcome;
  readonly goOn: boolean;
} {
  if ('refused' in answer) return { leg: { state: 'refused', orderId: null, detail: answer.refused }, goOn: false };
  if ('unknown' in answer) {
    return {
      leg: { state: 'unconfirmed', orderId: null, detail: 'Not yet confirmed: check the Orders list' },
      goOn: false,
    };
  }
  if (answer.state === 'unconfirmed') {
    return { leg: { state: 'unconfirmed', orderId: null, detail: answer.detail }, goOn: false };
  }
  const rejected = answer.status === 'REJECTED';
  return {
    leg: {
      state: 'placed',
      orderId: answer.orderId,
      detail: rejected ? `Order ${answer.orderId} placed, and rejected by the broker` : `Order ${answer.orderId}`,
    },
    goOn: !rejected,
  };
}

/** The whole firing in one line, from its legs (`held`: the buys-first run's words). */
export function outcomeOf(legs: readonly AlertLegOutcome[], held: string | null): AlertOrderOutcome {
  const placed = legs.filter((l) => l.state === 'placed').length;
  const unconfirmed = legs.find((l) => l.state === 'unconfirmed');
  const refused = legs.find((l) => l.state === 'refused');
  const n = legs.length;
  const list = [...legs];
  if (placed === n) return { state: 'placed', detail: n === 1 ? 'Order placed' : `All ${n} orders placed`, legs: list };
  if (unconfirmed && placed === 0 && !refused) {
    return { state: 'unconfirmed', detail: unconfirmed.detail, legs: list };
  }
  if (placed === 0 && !unconfirmed) {
    const why = refused?.detail ?? held ?? 'Not sent';
    // The gate's refusals already say nothing went ("Not placed: …", "Not sent: …").
    return { state: 'refused', detail: /^Not (placed|sent)\b/.test(why) ? why : `Nothing placed: ${why}`, legs: list };
  }
  const why = held ?? (refused ? `leg ${legs.indexOf(refused) + 1} refused: ${refused.detail}` : null);
  const open = unconfirmed ? `; leg ${legs.indexOf(unconfirmed) + 1} not yet confirmed` : '';
  const unsent = legs.flatMap((l, k) => (l.state === 'not_sent' ? [k + 1] : []));
  const rest = unsent.length > 0 ? `; not sent: leg ${unsent.join(', ')}` : '';
  return {
    state: unconfirmed && placed === 0 ? 'unconfirmed' : 'partial',
    detail: `${placed} of ${n} placed${why ? `; ${why}` : ''}${open}${rest}`,
    legs: list,
  };
}

/**
 * Places a fired alert's orders once (docs/contract.md §Alerts that place orders): through the
 * one gate, buys first and each sell only once the buys before it filled
 * (`shared/trading/buys-first.ts`, as the basket does), each leg under the request id of this
 * firing. A firing already being placed is joined, not started twice.
 */
export class AlertOrders {
  readonly #deps: AlertOrderDeps;
  readonly #running = new Map<string, Promise<AlertOrderOutcome>>();

  public constructor(deps: AlertOrderDeps) {
    this.#deps = deps;
  }

  /** Places `alert`'s orders for its current firing; answers what they came to. */
  public fire(alert: PriceAlert): Promise<AlertOrderOutcome> {
    const key = alertRequestId(alert, 0);
    const running = this.#running.get(key);
    if (running) return running;
    const run = this.#run(alert).finally(() => this.#running.delete(key));
    this.#running.set(key, run);
    return run;
  }

  async #run(alert: PriceAlert): Promise<AlertOrderOutcome> {
    const legs: AlertLegOutcome[] = alert.orders.map(() => ({
      state: 'not_sent',
      orderId: null,
      detail: 'Not sent',
    }));
    const result = await placeBuysFirst(alert.orders, {
      place: async (order, n) => {
        let answer: PlaceOutcome | { readonly refused: string } | { readonly unknown: true };
        try {
          answer = await this.#deps.place(order, alertRequestId(alert, n));
        } catch (err) {
          // Only an AppError means nothing was created (docs/contract.md §Three honest answers).
          answer = err instanceof AppError ? { refused: refusalText(err) } : { unknown: true };
        }
        const { leg, goOn } = legOf(answer);
        legs[n] = leg;
        return { goOn, orderId: leg.orderId };
      },
      read: this.#deps.read,
      wait: this.#deps.wait,
      now: this.#deps.now,
    });
    return outcomeOf(legs, result.kind === 'held' ? heldBackText(result.working) : null);
  }
}

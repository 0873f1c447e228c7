import type { OrderStatus } from '@shared/domain/order';
import type { OrderActionKind, OrderActionOutcome, OrderActionState } from '@shared/domain/order-action';
import { describeError } from '../../lib/describe-error';
import { isRefusal, refusalReason } from '../placements/placement-model';

/**
 * A modify's or a cancel's answer in a trader's words, without React (docs/contract.md §Modify
 * and cancel answer honestly): **Modified / Cancelled**, **Not modified / Not cancelled** (only
 * when the broker refused or nothing was sent), or **Not yet confirmed — checking** while main
 * reads the order back. The dialog, the ladder's cell, the chart's line and the blotter's row
 * all say it the same way.
 */
export interface ActionAnswer {
  readonly tone: 'done' | 'refused' | 'unconfirmed';
  readonly text: string;
}

/** "Not modified" / "Not cancelled". */
const NOT: Readonly<Record<OrderActionKind, string>> = { modify: 'Not modified', cancel: 'Not cancelled' };

/**
 * A cancel the broker answered with the order's end instead (it filled or was rejected first):
 * what happened to it, not "Cancel failed" (docs/kite.md §Orders).
 */
export function settledCancelText(orderId: string, status: OrderStatus): string {
  if (status === 'COMPLETE') return `Order ${orderId} had already filled: nothing to cancel`;
  if (status === 'REJECTED') return `Order ${orderId} was rejected: nothing to cancel`;
  return `Order ${orderId} is ${status}`;
}

/** What main answered, or where its reading back stands now. */
export function answerOf(s: OrderActionState): ActionAnswer {
  switch (s.state) {
    case 'done':
      if (s.action === 'modify') return { tone: 'done', text: 'Modified' };
      return s.status === 'CANCELLED'
        ? { tone: 'done', text: 'Cancelled' }
        : { tone: 'done', text: settledCancelText(s.orderId, s.status) };
    case 'unconfirmed':
      return {
        tone: 'unconfirmed',
        // "Checking with the broker whether order … was modified…" → "Not yet confirmed — checking…";
        // main's own "Not confirmed: …" once it stopped reading is kept as it is.
        text: /^not confirmed\b/i.test(s.detail)
          ? s.detail
          : `Not yet confirmed — ${s.detail.charAt(0).toLowerCase()}${s.detail.slice(1)}`,
      };
    case 'not_done':
      return { tone: 'refused', text: s.detail };
  }
}

/**
 * A failed `orders.modify` / `orders.cancel`: main fails one only when nothing changed, so it is
 * "Not modified: why" — unless the link to main dropped or its answer could not be read, when
 * nobody knows, and it is "not yet confirmed".
 */
export function failureAnswer(action: OrderActionKind, error: unknown): ActionAnswer {
  if (isRefusal(error)) {
    return { tone: 'refused', text: `${NOT[action]}: ${refusalReason(reasonOf(error.info.message))}` };
  }
  return {
    tone: 'unconfirmed',
    text: `Not yet confirmed — ${describeError(error)}; check the order before trying again`,
  };
}

/** Main's reason without a leading "Not modified:" / "Not cancelled:" of its own. */
function reasonOf(message: string): string {
  return message.replace(/^\s*not (modified|cancelled):\s*/i, '');
}

/** True while main is still reading the order back (the answer may still change). */
export function stillChecking(s: OrderActionState | null | undefined): boolean {
  return s?.state === 'unconfirmed' && !/^not confirmed\b/i.test(s.detail);
}

/**
 * What main's `orders.action` answer means for the action a page follows: `null` or another
 * action's state mean main no longer tracks this one — a newer action on the order was answered
 * first (another window's) — so its outcome will not be read back: "Not confirmed", never
 * "checking" for ever.
 */
export function followedState(
  first: OrderActionOutcome,
  next: OrderActionState | null | undefined,
): OrderActionState | undefined {
  if (next === undefined) return undefined;
  if (next !== null && next.action === first.action) return next;
  return {
    state: 'unconfirmed',
    action: first.action,
    orderId: first.orderId,
    detail: `Not confirmed: a newer action on order ${first.orderId} was answered first — check the order`,
  };
}

import { useCallback, useEffect, useRef, useState } from 'react';
import type { Order, OrderChanges } from '@shared/domain/order';
import type { OrderActionOutcome } from '@shared/domain/order-action';
import { crossedStopProblem } from '@shared/trading/stop-trigger';
import { call } from '../../lib/ipc-client';
import { answerOf, failureAnswer, stillChecking, type ActionAnswer } from '../orders/action-answer';
import { followAction } from '../orders/follow-action';

/** A modification or cancel of a working order from the ladder, while the broker has not answered (or refused). */
export interface OrderAction {
  readonly kind: 'moving' | 'cancelling';
  /** For a move: the rows it leaves and goes to (price units). */
  readonly from?: number;
  readonly to?: number;
  /** Set when it did not go through: "Not modified: why" / "Not cancelled: why" (nothing changed). */
  readonly failed: string | null;
  /** Set while main does not know whether it went through: "Not yet confirmed — checking…", or main's last word. */
  readonly checking?: string | null;
}

/**
 * The ladder's actions on working orders: a click cancels one, a drag modifies it; each shows in
 * its order's cell until it is answered. `said`: the status line's words; `afterOrder`: the order
 * lists read again.
 */
export function useLadderOrderActions(said: (text: string) => void, afterOrder: () => void) {
  const [actions, setActions] = useState<ReadonlyMap<string, OrderAction>>(new Map());
  const setAction = useCallback((orderId: string, a: OrderAction | null) => {
    setActions((m) => {
      const next = new Map(m);
      if (a) next.set(orderId, a);
      else next.delete(orderId);
      return next;
    });
  }, []);

  /**
   * Shows an action's answer in its order's cell: done clears it, a refusal stays with its
   * reason, and "not yet confirmed" stays while main reads the order back, followed to its end
   * (docs/contract.md §Modify and cancel answer honestly).
   */
  const answered = useCallback(
    (pending: OrderAction, orderId: string, outcome: OrderActionOutcome | ActionAnswer, signal: AbortSignal) => {
      const show = (a: ActionAnswer): void => {
        // A newer action on this order owns its cell: this one's answer no longer shows there.
        if (signal.aborted) return;
        if (a.tone === 'done') setAction(orderId, null);
        else if (a.tone === 'refused') setAction(orderId, { ...pending, failed: a.text, checking: null });
        else setAction(orderId, { ...pending, failed: null, checking: a.text });
        said(`Order ${orderId}: ${a.text}`);
      };
      if ('tone' in outcome) return show(outcome);
      show(answerOf(outcome));
      if (stillChecking(outcome)) {
        void followAction(outcome, (s) => show(answerOf(s)), signal).finally(afterOrder);
      }
    },
    [setAction, said, afterOrder],
  );

  /** Each order's latest action: starting another on it stops following the one before. */
  const latestAction = useRef(new Map<string, AbortController>());
  const begin = useCallback((orderId: string): AbortSignal => {
    latestAction.current.get(orderId)?.abort();
    const c = new AbortController();
    latestAction.current.set(orderId, c);
    return c.signal;
  }, []);
  useEffect(() => {
    const all = latestAction.current;
    return () => all.forEach((c) => c.abort());
  }, []);

  const cancel = useCallback(
    (orderId: string) => {
      const pending: OrderAction = { kind: 'cancelling', failed: null };
      const signal = begin(orderId);
      setAction(orderId, pending);
      call('orders.cancel', { orderId })
        .then((o) => answered(pending, orderId, o, signal))
        .catch((err: unknown) => answered(pending, orderId, failureAnswer('cancel', err), signal))
        .finally(afterOrder);
    },
    [setAction, answered, begin, afterOrder],
  );

  const move = useCallback(
    (order: Order, from: number, to: number, changes: OrderChanges, lastPrice?: number | null) => {
      const id = order.orderId;
      const crossed = crossedStopProblem(
        {
          transactionType: order.transactionType,
          orderType: changes.orderType ?? order.orderType,
          triggerPrice: changes.triggerPrice !== undefined ? changes.triggerPrice : order.triggerPrice,
        },
        lastPrice,
      );
      if (crossed !== null) {
        setAction(id, { kind: 'moving', from, to, failed: crossed });
        said(`Order ${id}: not moved — ${crossed}`);
        return;
      }
      const pending: OrderAction = { kind: 'moving', from, to, failed: null };
      const signal = begin(id);
      setAction(id, pending);
      call('orders.modify', { orderId: id, changes })
        .then((o) => answered(pending, id, o, signal))
        .catch((err: unknown) => answered(pending, id, failureAnswer('modify', err), signal))
        .finally(afterOrder);
    },
    [setAction, answered, begin, said, afterOrder],
  );

  return { actions, cancel, move };
}

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Order, OrderChanges, OrderRequest } from '@shared/domain/order';
import { crossedStopProblem } from '@shared/trading/stop-trigger';
import { call } from '../../lib/ipc-client';
import { formatPrice, formatQty } from '../../lib/format';
import { newRequestId } from '../ticket/use-submit-order';
import { isRefusal, refusalReason } from '../placements/placement-model';
import { useInvalidateAfterOrder } from '../orders/queries';
import type { OrderActionOutcome } from '@shared/domain/order-action';
import { answerOf, failureAnswer, stillChecking, type ActionAnswer } from '../orders/action-answer';
import { followAction } from '../orders/follow-action';

/**
 * What one click on the ladder became (docs/ladder.md §Each state in its cell): sending, then one
 * of the three honest answers — placed (its order id), not yet confirmed (its reference; never
 * "failed" while it may exist), or refused with the reason (nothing was created).
 */
export type ClickState =
  | { readonly kind: 'sending' }
  | { readonly kind: 'placed'; readonly orderId: string }
  | { readonly kind: 'unconfirmed'; readonly clientOrderId: string | null; readonly detail: string }
  | { readonly kind: 'refused'; readonly reason: string };

/** One click: where, what, and what it became. */
export interface LadderClick {
  readonly key: string;
  readonly side: 'bid' | 'offer';
  readonly price: number;
  readonly order: OrderRequest;
  readonly state: ClickState;
}

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

/** The key of a click's cell: its side and row. */
export const clickKey = (side: 'bid' | 'offer', price: number): string => `${side}:${price}`;

/**
 * The ladder's orders: a click places one through `orders.place` (a fresh request id each, so main
 * never makes a second intent for it), a click on a working order cancels it, a drag modifies it.
 * Each click's state is kept by its cell until the next click there.
 */
export function useLadderActions(): {
  readonly clicks: ReadonlyMap<string, LadderClick>;
  readonly actions: ReadonlyMap<string, OrderAction>;
  /** `lastPrice`: the live one, so a stop it has already crossed is refused here, unsent. */
  place(side: 'bid' | 'offer', price: number, order: OrderRequest, lastPrice?: number | null): void;
  cancel(orderId: string): void;
  move(order: Order, from: number, to: number, changes: OrderChanges, lastPrice?: number | null): void;
  /** What the last action said, for the status line. */
  readonly last: string | null;
} {
  const [clicks, setClicks] = useState<ReadonlyMap<string, LadderClick>>(new Map());
  const [actions, setActions] = useState<ReadonlyMap<string, OrderAction>>(new Map());
  const [last, setLast] = useState<string | null>(null);
  const invalidate = useInvalidateAfterOrder();
  const invalidateRef = useRef(invalidate);
  useEffect(() => {
    invalidateRef.current = invalidate;
  });

  const setClick = useCallback((c: LadderClick) => {
    setClicks((m) => new Map(m).set(c.key, c));
  }, []);
  const setAction = useCallback((orderId: string, a: OrderAction | null) => {
    setActions((m) => {
      const next = new Map(m);
      if (a) next.set(orderId, a);
      else next.delete(orderId);
      return next;
    });
  }, []);

  const place = useCallback(
    (side: 'bid' | 'offer', price: number, order: OrderRequest, lastPrice?: number | null) => {
      const key = clickKey(side, price);
      const what = `${order.transactionType} ${formatQty(order.quantity)} ${order.orderType === 'SL' ? 'SL ' : ''}@ ${order.price === null || order.price === undefined ? '' : formatPrice(order.price)}`;
      // A stop the last price has already crossed would trigger at once: refused, nothing sent.
      const crossed = crossedStopProblem(order, lastPrice);
      if (crossed !== null) {
        setClick({ key, side, price, order, state: { kind: 'refused', reason: crossed } });
        setLast(`${what} — Not placed: ${crossed}`);
        return;
      }
      setClick({ key, side, price, order, state: { kind: 'sending' } });
      setLast(`${what}: sending…`);
      call('orders.place', { order, requestId: newRequestId(), clickedAt: Date.now() })
        .then((o) => {
          const state: ClickState =
            o.state === 'placed'
              ? { kind: 'placed', orderId: o.orderId }
              : { kind: 'unconfirmed', clientOrderId: o.clientOrderId, detail: o.detail };
          setClick({ key, side, price, order, state });
          setLast(
            o.state === 'placed' ? `${what}: placed as order ${o.orderId}` : `${what}: not yet confirmed — ${o.detail}`,
          );
        })
        .catch((err: unknown) => {
          // A lost link or an unreadable answer may hide an order: never "failed" then.
          const state: ClickState = isRefusal(err)
            ? { kind: 'refused', reason: refusalReason(err.info.message) }
            : {
                kind: 'unconfirmed',
                clientOrderId: null,
                detail: 'Lost contact with the Tradedesk service — check the Orders list',
              };
          setClick({ key, side, price, order, state });
          setLast(
            state.kind === 'refused'
              ? `${what} — ${/^not /i.test(state.reason) ? state.reason : `Not placed: ${state.reason}`}`
              : `${what}: not yet confirmed — ${state.detail}`,
          );
        })
        .finally(() => invalidateRef.current());
    },
    [setClick],
  );

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
        setLast(`Order ${orderId}: ${a.text}`);
      };
      if ('tone' in outcome) return show(outcome);
      show(answerOf(outcome));
      if (stillChecking(outcome)) {
        void followAction(outcome, (s) => show(answerOf(s)), signal).finally(() => invalidateRef.current());
      }
    },
    [setAction],
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
        .finally(() => invalidateRef.current());
    },
    [setAction, answered, begin],
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
        setLast(`Order ${id}: not moved — ${crossed}`);
        return;
      }
      const pending: OrderAction = { kind: 'moving', from, to, failed: null };
      const signal = begin(id);
      setAction(id, pending);
      call('orders.modify', { orderId: id, changes })
        .then((o) => answered(pending, id, o, signal))
        .catch((err: unknown) => answered(pending, id, failureAnswer('modify', err), signal))
        .finally(() => invalidateRef.current());
    },
    [setAction, answered, begin],
  );

  return useMemo(() => ({ clicks, actions, place, cancel, move, last }), [clicks, actions, place, cancel, move, last]);
}

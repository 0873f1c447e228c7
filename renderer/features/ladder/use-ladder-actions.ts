import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Order, OrderChanges, OrderRequest } from '@shared/domain/order';
import { useInvalidateAfterOrder } from '../orders/queries';
import { useLadderClicks, type LadderClick } from './use-ladder-clicks';
import { useLadderOrderActions, type OrderAction } from './use-ladder-order-actions';

/**
 * The ladder's orders: a click places one (`use-ladder-clicks.ts`), a click on a working order
 * cancels it and a drag modifies it (`use-ladder-order-actions.ts`); what the last of them said
 * is the status line.
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
  const [last, setLast] = useState<string | null>(null);
  const invalidate = useInvalidateAfterOrder();
  const invalidateRef = useRef(invalidate);
  useEffect(() => {
    invalidateRef.current = invalidate;
  });
  const afterOrder = useCallback(() => invalidateRef.current(), []);
  const { clicks, place } = useLadderClicks(setLast, afterOrder);
  const { actions, cancel, move } = useLadderOrderActions(setLast, afterOrder);

  return useMemo(() => ({ clicks, actions, place, cancel, move, last }), [clicks, actions, place, cancel, move, last]);
}

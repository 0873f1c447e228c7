import { useState } from 'react';
import type { Order } from '@shared/domain/order';
import { crossedStopProblem } from '@shared/trading/stop-trigger';
import { useConfirmChartDrag } from '../../state/settings-store';
import { useModifyOrder } from '../orders/queries';
import { useActionAnswer } from '../orders/use-action-answer';
import type { ChartModify } from './chart-drag';

/**
 * A working order's line dropped at a new price (docs/brackets.md §On the chart): modified through
 * `orders.modify` — after a confirmation unless the setting skips it — and shown at its old and
 * new price until the broker answers. A stop moved past the last price is refused here, unsent.
 * `key`: the instrument and position the confirmation was asked for; another shows none.
 */
export function useChartModify(orders: readonly Order[], lastPrice: number | null, key: string) {
  const ask = useConfirmChartDrag();
  const modify = useModifyOrder();
  const [confirmingAt, setConfirming] = useState<{ readonly key: string; readonly m: ChartModify } | null>(null);
  const [modifyingAt, setModifying] = useState<ChartModify | null>(null);
  // A drop refused here before anything is sent (a stop moved past the last price).
  const [refusedHere, setRefusedHere] = useState<string | null>(null);
  const confirming = confirmingAt?.key === key ? confirmingAt.m : null;
  // The answer, followed while main reads the order back (docs/contract.md §Modify and cancel
  // answer honestly). Modified: the old line stays until the book shows the new price (or the
  // order is gone); not yet confirmed: both lines stay, and the bar says so; refused: the line
  // goes back, and the bar says why.
  const answer = useActionAnswer('modify', modify);
  const modifying =
    modifyingAt && answer?.tone !== 'refused' && !(answer?.tone === 'done' && showsNewPrice(modifyingAt, orders))
      ? modifyingAt
      : null;
  const modifyError = refusedHere ?? (answer?.tone === 'refused' ? answer.text : null);
  const modifyChecking = modifyingAt && answer?.tone === 'unconfirmed' ? answer.text : null;

  const send = (m: ChartModify): void => {
    setConfirming(null);
    setRefusedHere(null);
    setModifying(m);
    modify.mutate({ orderId: m.orderId, changes: m.changes });
  };

  const dropped = (m: ChartModify): void => {
    // A stop moved past the last price would trigger at once: refused here, nothing sent.
    const o = orders.find((x) => x.orderId === m.orderId);
    const { triggerPrice } = m.changes;
    const crossed = o
      ? crossedStopProblem(
          { ...o, triggerPrice: triggerPrice !== undefined ? triggerPrice : o.triggerPrice },
          lastPrice,
        )
      : null;
    if (crossed !== null) {
      setConfirming(null);
      setRefusedHere(`Not modified: ${crossed}`);
      return;
    }
    if (ask) setConfirming({ key, m });
    else send(m);
  };
  const confirm = (): void => {
    if (confirming) send(confirming);
  };
  const dismiss = (): void => {
    setConfirming(null);
    if (modify.isError || answer?.tone === 'refused') {
      modify.reset();
      setModifying(null);
    }
  };
  return { confirming, modifying, modifyError, modifyChecking, dropped, confirm, dismiss };
}

/** True once the book shows the order at its new price, or no longer working. */
function showsNewPrice(m: ChartModify, orders: readonly Order[]): boolean {
  const [orderId, which] = m.lineId.split(':');
  const o = orders.find((x) => x.orderId === orderId);
  return !o || (which === 'trigger' ? o.triggerPrice : o.price) === m.to;
}

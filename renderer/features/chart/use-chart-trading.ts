import { useState } from 'react';
import type { Instrument } from '@shared/domain/instrument';
import type { Order } from '@shared/domain/order';
import type { Position } from '@shared/domain/portfolio';
import { crossedStopProblem } from '@shared/trading/stop-trigger';
import { describeError } from '../../lib/describe-error';
import { useConfirmChartDrag } from '../../state/settings-store';
import { usePlaceBracket } from '../brackets/queries';
import { useModifyOrder } from '../orders/queries';
import { useActionAnswer } from '../orders/use-action-answer';
import { isRefusal, refusalText } from '../placements/placement-model';
import { newRequestId } from '../ticket/use-submit-order';
import type { PriceLine } from './candle-model';
import { draftLines, dropOf, withModifying, type ChartModify } from './chart-drag';

/** The exits drawn out of the position, not placed yet. */
export interface ExitDraft {
  readonly stop: number | null;
  readonly target: number | null;
}

const NO_EXITS: ExitDraft = { stop: null, target: null };

/** What the chart's trading bar shows and does. */
export interface ChartTrading {
  /** The lines to draw: the orders' and the position's, an order being modified at both prices, drawn exits. */
  readonly lines: PriceLine[];
  onDrop(line: PriceLine, price: number): void;
  /** A move waiting for the trader's yes (the confirmation a setting can skip). */
  readonly confirming: ChartModify | null;
  confirm(): void;
  dismiss(): void;
  /** A modification sent and not answered yet: its old and new price. */
  readonly modifying: ChartModify | null;
  /** Why the last modification did not go through ("Not modified: …"). */
  readonly modifyError: string | null;
  /** Main does not know yet whether the last modification went through: "Not yet confirmed — checking…". */
  readonly modifyChecking: string | null;
  readonly exits: ExitDraft;
  clearExits(): void;
  /** Places the drawn exits as a bracket protecting the position (one click, one request id). */
  placeExits(): void;
  readonly placing: boolean;
  /** The answer to the last Place: "Protecting …" or why not. */
  readonly placed: { readonly ok: boolean; readonly text: string } | null;
}

/**
 * Chart trading (docs/brackets.md §On the chart): a working order's line dropped at a new price
 * is modified through `orders.modify` — after a confirmation unless the setting skips it — and
 * shown at its old and new price until the broker answers; the position's line dropped below or
 * above the last price draws a stop-loss or a target, which Place sends as one `brackets.place`
 * protecting the position, so main keeps them one-cancels-other.
 */
export function useChartTrading(
  instrument: Instrument | undefined,
  orders: readonly Order[],
  position: Position | null,
  lastPrice: number | null,
  baseLines: readonly PriceLine[],
): ChartTrading {
  const ask = useConfirmChartDrag();
  const modify = useModifyOrder();
  const place = usePlaceBracket();
  // What was drawn or asked for one instrument and position is kept under its key: another
  // instrument, or a changed position, shows none of it.
  const key = `${instrument?.instrumentToken ?? ''}|${position ? `${position.product}:${position.quantity}` : ''}`;
  const [confirmingAt, setConfirming] = useState<{ readonly key: string; readonly m: ChartModify } | null>(null);
  const [modifyingAt, setModifying] = useState<ChartModify | null>(null);
  const [exitsAt, setExits] = useState<{ readonly key: string; readonly exits: ExitDraft } | null>(null);
  const [placed, setPlaced] = useState<ChartTrading['placed']>(null);
  // A drop refused here before anything is sent (a stop moved past the last price).
  const [refusedHere, setRefusedHere] = useState<string | null>(null);
  const confirming = confirmingAt?.key === key ? confirmingAt.m : null;
  const exits = exitsAt?.key === key ? exitsAt.exits : NO_EXITS;
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

  const lines = [...withModifying(baseLines, modifying), ...draftLines(exits)];

  return {
    lines,
    onDrop: (line, price) => {
      if (!instrument || modifying) return;
      const drop = dropOf(line, price, {
        orders,
        positionSide: position ? (position.quantity > 0 ? 'BUY' : 'SELL') : null,
        lastPrice,
        tickSize: instrument.tickSize,
      });
      if (!drop) return;
      if (drop.t === 'modify') {
        // A stop moved past the last price would trigger at once: refused here, nothing sent.
        const o = orders.find((x) => x.orderId === drop.modify.orderId);
        const { triggerPrice } = drop.modify.changes;
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
      }
      if (drop.t === 'exit') {
        setPlaced(null);
        setExits({ key, exits: { ...exits, [drop.exit.leg]: drop.exit.price } });
        return;
      }
      if (ask) setConfirming({ key, m: drop.modify });
      else send(drop.modify);
    },
    confirming,
    confirm: () => {
      if (confirming) send(confirming);
    },
    dismiss: () => {
      setConfirming(null);
      if (modify.isError || answer?.tone === 'refused') {
        modify.reset();
        setModifying(null);
      }
    },
    modifying,
    modifyError,
    modifyChecking,
    exits,
    clearExits: () => {
      setExits(null);
      setPlaced(null);
    },
    placeExits: () => {
      if (!instrument || !position || place.isPending || (exits.stop === null && exits.target === null)) return;
      const quantity = Math.abs(position.quantity);
      place.mutate(
        {
          request: {
            kind: 'protect',
            exchange: instrument.exchange,
            tradingsymbol: instrument.tradingsymbol,
            product: position.product,
            side: position.quantity > 0 ? 'BUY' : 'SELL',
            quantity,
            stop: exits.stop === null ? null : { triggerPrice: exits.stop },
            target: exits.target === null ? null : { price: exits.target },
            trail: null,
          },
          requestId: newRequestId(),
          clickedAt: Date.now(),
        },
        {
          onSuccess: () => {
            setExits(null);
            setPlaced({ ok: true, text: `Protecting ${quantity}: followed in the Brackets tab` });
          },
          onError: (err) =>
            setPlaced({
              ok: false,
              text: isRefusal(err)
                ? refusalText(err.info)
                : `Not yet confirmed (${describeError(err)}): see the Brackets tab before placing again`,
            }),
        },
      );
    },
    placing: place.isPending,
    placed,
  };
}

/** True once the book shows the order at its new price, or no longer working. */
function showsNewPrice(m: ChartModify, orders: readonly Order[]): boolean {
  const [orderId, which] = m.lineId.split(':');
  const o = orders.find((x) => x.orderId === orderId);
  return !o || (which === 'trigger' ? o.triggerPrice : o.price) === m.to;
}

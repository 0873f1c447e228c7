import { useMemo } from 'react';
import type { Instrument } from '@shared/domain/instrument';
import type { Order } from '@shared/domain/order';
import type { Position } from '@shared/domain/portfolio';
import type { PriceLine } from './candle-model';
import { draftLines, dropOf, withModifying, type ChartModify } from './chart-drag';
import { useChartExits, type ExitDraft } from './use-chart-exits';
import { useChartModify } from './use-chart-modify';

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
 * is modified (`use-chart-modify.ts`); the position's line dropped below or above the last price
 * draws a stop-loss or a target, which Place sends as a bracket protecting the position
 * (`use-chart-exits.ts`).
 */
export function useChartTrading(
  instrument: Instrument | undefined,
  orders: readonly Order[],
  position: Position | null,
  lastPrice: number | null,
  baseLines: readonly PriceLine[],
): ChartTrading {
  // What was drawn or asked for one instrument and position is kept under its key: another
  // instrument, or a changed position, shows none of it.
  const key = `${instrument?.instrumentToken ?? ''}|${position ? `${position.product}:${position.quantity}` : ''}`;
  const { dropped, ...modify } = useChartModify(orders, lastPrice, key);
  const { drawn, ...exits } = useChartExits(instrument, position, key);
  // The same array while nothing drawn changed: the chart's lines and their list under it are
  // compared by it, and the panel renders on every tick (docs/ladder.md §Speed).
  const lines = useMemo(
    () => [...withModifying(baseLines, modify.modifying), ...draftLines(exits.exits)],
    [baseLines, modify.modifying, exits.exits],
  );
  return {
    lines,
    onDrop: (line, price) => {
      if (!instrument || modify.modifying) return;
      const drop = dropOf(line, price, {
        orders,
        positionSide: position ? (position.quantity > 0 ? 'BUY' : 'SELL') : null,
        lastPrice,
        tickSize: instrument.tickSize,
      });
      if (!drop) return;
      if (drop.t === 'exit') drawn(drop.exit);
      else dropped(drop.modify);
    },
    ...modify,
    ...exits,
  };
}

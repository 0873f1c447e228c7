import { memo } from 'react';
import { formatPrice, formatQty } from '../../lib/format';
import { useConfirmChartDrag, useSettingsActions } from '../../state/settings-store';
import type { ChartTrading } from './use-chart-trading';

/**
 * Under the chart, what chart trading needs said in words (docs/brackets.md §On the chart): the
 * confirmation of a dragged order's move (with the setting that skips it), the move on its way
 * with its old and new price, why one did not go through, and the stop-loss and target drawn out
 * of the position with Place.
 */
export function ChartTradingBar(props: {
  readonly trading: ChartTrading;
  readonly tickSize: number | undefined;
  /** The position the drawn exits protect ("+50"), when there is one. */
  readonly position: number | null;
}) {
  const { trading: t, tickSize } = props;
  const price = (p: number | null): string => (p === null ? '–' : formatPrice(p, tickSize));
  const hasExits = t.exits.stop !== null || t.exits.target !== null;
  return (
    <div className="chart__trade" aria-live="polite">
      {t.confirming ? (
        <div className="chart__trade-row" role="group" aria-label="Confirm the move" data-testid="chart-confirm">
          <span>
            Move {t.confirming.label} from <b>{price(t.confirming.from)}</b> to <b>{price(t.confirming.to)}</b>?
          </span>
          <button type="button" className="primary small" onClick={t.confirm}>
            Move
          </button>
          <button type="button" className="small" onClick={t.dismiss}>
            Keep
          </button>
        </div>
      ) : null}
      {t.modifying ? (
        <div className="chart__trade-row" data-testid="chart-modifying">
          Modifying {t.modifying.label}: <s>{price(t.modifying.from)}</s> → <b>{price(t.modifying.to)}</b>, waiting for
          the broker…
        </div>
      ) : null}
      {t.modifyChecking ? (
        <div className="chart__trade-row inline-warning" role="status" data-testid="chart-modify-checking">
          {t.modifyChecking}
        </div>
      ) : null}
      {t.modifyError ? (
        <div className="chart__trade-row inline-error" role="alert" data-testid="chart-modify-error">
          {t.modifyError}{' '}
          <button type="button" className="small" onClick={t.dismiss}>
            OK
          </button>
        </div>
      ) : null}
      {hasExits && props.position !== null ? (
        <div className="chart__trade-row" role="group" aria-label="Drawn exits" data-testid="chart-exits">
          <span>
            Protect {props.position > 0 ? '+' : ''}
            {formatQty(props.position)}: stop-loss <b>{price(t.exits.stop)}</b> · target <b>{price(t.exits.target)}</b>
          </span>
          <button type="button" className="primary small" disabled={t.placing} onClick={t.placeExits}>
            {t.placing ? 'Placing…' : 'Place'}
          </button>
          <button type="button" className="small" onClick={t.clearExits}>
            Clear
          </button>
        </div>
      ) : null}
      {t.placed ? (
        <div
          className={`chart__trade-row${t.placed.ok ? '' : ' inline-error'}`}
          role={t.placed.ok ? undefined : 'alert'}
          data-testid="chart-exits-outcome"
        >
          {t.placed.text}
        </div>
      ) : null}
      <AskBeforeMoving />
    </div>
  );
}

/**
 * The setting, apart from the bar: the bar renders on every tick of the chart's instrument, and
 * each render of a checkbox writes its attributes again (docs/live-data.md §A ticking list's cost).
 */
const AskBeforeMoving = memo(function AskBeforeMoving() {
  const ask = useConfirmChartDrag();
  const { confirmChartDragToggled } = useSettingsActions();
  return (
    <label className="check small muted">
      <input type="checkbox" checked={ask} onChange={confirmChartDragToggled} />
      Ask before moving an order dragged on the chart
    </label>
  );
});

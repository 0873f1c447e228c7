import { formatPrice, formatQty, formatRupees } from '../../lib/format';
import type { OrderRequest } from '@shared/domain/order';
import { EmptyRow } from '../layout/panel-states';
import { ActionsHeader } from '../layout/record-table';
import type { BasketMarginView } from './basket-margin';

/** Leg `n`'s own margin while the basket's figure is current, else "–". */
function legMargin(view: BasketMarginView, n: number): string {
  const total = view.state === 'fresh' ? view.margin?.legs[n]?.total : undefined;
  return total === undefined ? '–' : formatRupees(total);
}

/** The basket's legs, each with its own margin and a remove button. */
export function BasketLegsTable({
  legs,
  margin,
  busy,
  onRemove,
}: {
  readonly legs: readonly OrderRequest[];
  readonly margin: BasketMarginView;
  /** Legs are being placed: none can be removed. */
  readonly busy: boolean;
  readonly onRemove: (n: number) => void;
}) {
  return (
    <table aria-label="Basket legs" className="grid">
      <thead>
        <tr>
          <th>#</th>
          <th>Symbol</th>
          <th>Side</th>
          <th className="num">Qty</th>
          <th>Type</th>
          <th className="num">Price</th>
          <th className="num">Trigger</th>
          <th>Product</th>
          <th className="num">Margin</th>
          <ActionsHeader />
        </tr>
      </thead>
      <tbody>
        {legs.length === 0 ? <EmptyRow colSpan={10}>Add orders from the ticket (Add to basket)</EmptyRow> : null}
        {legs.map((o, n) => (
          <tr key={n}>
            <td>{n + 1}</td>
            <td className="sym">
              {o.tradingsymbol} <span className="muted small">{o.exchange}</span>
            </td>
            <td className={o.transactionType === 'BUY' ? 'buy' : 'sell'}>{o.transactionType}</td>
            <td className="num">{formatQty(o.quantity)}</td>
            <td>{o.orderType}</td>
            <td className="num">{formatPrice(o.price)}</td>
            <td className="num">{formatPrice(o.triggerPrice)}</td>
            <td>{o.product}</td>
            <td className="num" data-testid="leg-margin">
              {legMargin(margin, n)}
            </td>
            <td className="row-actions">
              <button
                type="button"
                className="mini"
                aria-label={`Remove leg ${n + 1}`}
                disabled={busy}
                onClick={() => onRemove(n)}
              >
                ×
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

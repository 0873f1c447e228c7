import { formatPrice, formatQty, formatRupees } from '../../lib/format';
import type { OrderRequest } from '@shared/domain/order';
import { ACTIONS, GridTable, num, type Column } from '../layout/grid-table';
import type { BasketMarginView } from './basket-margin';

/** Leg `n`'s own margin while the basket's figure is current, else "–". */
function legMargin(view: BasketMarginView, n: number): string {
  const total = view.state === 'fresh' ? view.margin?.legs[n]?.total : undefined;
  return total === undefined ? '–' : formatRupees(total);
}

const COLUMNS: readonly Column[] = [
  '#',
  'Symbol',
  'Side',
  num('Qty'),
  'Type',
  num('Price'),
  num('Trigger'),
  'Product',
  num('Margin'),
  ACTIONS,
];

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
    <GridTable
      label="Basket legs"
      columns={COLUMNS}
      rows={legs}
      none="Add orders from the ticket (Add to basket)"
      row={(o, n) => (
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
      )}
    />
  );
}

import { useQuery } from '@tanstack/react-query';
import type { OrderRequest } from '@shared/domain/order';
import { describeError } from '../../lib/describe-error';
import { formatRupees } from '../../lib/format';
import { portfolioQueries } from '../portfolio/queries';
import { useDebounced } from './use-debounced';

/** A placeholder order for the disabled margin query (never sent: `enabled` is false). */
const NO_ORDER: OrderRequest = {
  exchange: 'NSE',
  tradingsymbol: '-',
  transactionType: 'BUY',
  quantity: 1,
  orderType: 'MARKET',
  product: 'MIS',
  validity: 'DAY',
};

/**
 * The margin the ticket's order needs beside what is available. Asked of the broker 250 ms after
 * the trader stops typing, and only for an order the rules accept (`request` null: "–").
 */
export function MarginSummary({ request }: { readonly request: OrderRequest | null }) {
  const marginFor = useDebounced(request, 250);
  const margin = useQuery({ ...portfolioQueries.margin(marginFor ?? NO_ORDER), enabled: marginFor !== null });
  const funds = useQuery(portfolioQueries.funds());
  return (
    <dl className="ticket__margin" aria-label="Margin">
      <div>
        <dt>Required</dt>
        <dd data-testid="margin-required">
          {request === null
            ? '–'
            : margin.data
              ? formatRupees(margin.data.total)
              : margin.error
                ? describeError(margin.error)
                : '…'}
        </dd>
      </div>
      <div>
        <dt>Available</dt>
        <dd data-testid="margin-available">{funds.data ? formatRupees(funds.data.availableMargin) : '–'}</dd>
      </div>
    </dl>
  );
}

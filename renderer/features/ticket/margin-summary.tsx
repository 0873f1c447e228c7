import { useQuery } from '@tanstack/react-query';
import type { OrderRequest } from '@shared/domain/order';
import { describeError } from '../../lib/describe-error';
import { formatRupees } from '../../lib/format';
import { portfolioQueries } from '../portfolio/queries';
import { shortfallOf, type MarginCheck } from './send-asks';
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

/** The ticket's margin line: what the order needs, what is available, and the check of one against the other. */
export interface TicketMargin {
  readonly request: OrderRequest | null;
  readonly required: number | null;
  readonly available: number | null;
  readonly error: unknown;
  /** Both figures for this very order (not the previous one's, kept while the next loads); else null. */
  readonly check: MarginCheck | null;
}

/**
 * The margin the ticket's order needs beside what is available. Asked of the broker 250 ms after
 * the trader stops typing, and only for an order the rules accept.
 */
export function useTicketMargin(request: OrderRequest | null): TicketMargin {
  const marginFor = useDebounced(request, 250);
  const margin = useQuery({ ...portfolioQueries.margin(marginFor ?? NO_ORDER), enabled: marginFor !== null });
  const funds = useQuery(portfolioQueries.funds());
  const required = margin.data?.total ?? null;
  const available = funds.data?.availableMargin ?? null;
  const current =
    request !== null && !margin.isPlaceholderData && JSON.stringify(marginFor) === JSON.stringify(request);
  return {
    request,
    required,
    available,
    error: margin.error,
    check: current && required !== null && available !== null ? { required, available } : null,
  };
}

/** "Required ₹… · Available ₹…", and the shortfall in red (and in words) when the account cannot fund it. */
export function MarginSummary({ margin }: { readonly margin: TicketMargin }) {
  const short = shortfallOf(margin.check);
  return (
    <dl className="ticket__margin" aria-label="Margin">
      <div>
        <dt>Required</dt>
        <dd data-testid="margin-required">
          {margin.request === null
            ? '–'
            : margin.required !== null
              ? formatRupees(margin.required)
              : margin.error
                ? describeError(margin.error)
                : '…'}
        </dd>
      </div>
      <div>
        <dt>Available</dt>
        <dd data-testid="margin-available">{margin.available !== null ? formatRupees(margin.available) : '–'}</dd>
      </div>
      {short !== null ? (
        <div className="down" data-testid="margin-shortfall">
          <dt>Short by</dt>
          <dd>{formatRupees(short)}</dd>
        </div>
      ) : null}
    </dl>
  );
}

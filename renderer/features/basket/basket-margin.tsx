import { useQuery } from '@tanstack/react-query';
import type { BasketMargin } from '@shared/domain/portfolio';
import type { OrderRequest } from '@shared/domain/order';
import { describeError } from '../../lib/describe-error';
import { formatRupees } from '../../lib/format';
import { portfolioQueries } from '../portfolio/queries';
import { useDebounced } from '../ticket/use-debounced';

/** How long the legs must stay unchanged before the basket's margin is asked again. */
export const BASKET_MARGIN_DEBOUNCE_MS = 400;

/** Where the basket's margin figure stands: none to show, first load, current, for older legs, or failed. */
export type BasketMarginState = 'empty' | 'loading' | 'fresh' | 'stale' | 'failed';

/** The basket's margin for its current legs, with its state; `legs` are the per-leg figures when current. */
export interface BasketMarginView {
  readonly state: BasketMarginState;
  readonly margin: BasketMargin | null;
  readonly error: unknown;
  readonly retry: () => void;
}

/**
 * The margin of the basket's legs together (`margins.basket`, docs/desk.md §Baskets), asked once
 * the legs have settled for BASKET_MARGIN_DEBOUNCE_MS. A figure for other legs than those shown is
 * `stale`, never passed off as current; a failure is `failed`. Advisory: nothing waits on it.
 */
export function useBasketMargin(legs: readonly OrderRequest[]): BasketMarginView {
  const settled = useDebounced(legs, BASKET_MARGIN_DEBOUNCE_MS);
  const q = useQuery({ ...portfolioQueries.basketMargin(settled), enabled: settled.length > 0 });
  const current = JSON.stringify(settled) === JSON.stringify(legs) && !q.isPlaceholderData;
  const retry = (): void => void q.refetch();
  if (legs.length === 0) return { state: 'empty', margin: null, error: null, retry };
  if (q.error && current) return { state: 'failed', margin: null, error: q.error, retry };
  if (!q.data) return { state: 'loading', margin: null, error: null, retry };
  return { state: current && !q.isFetching ? 'fresh' : 'stale', margin: q.data, error: null, retry };
}

/** "Margin ₹X (₹Y before hedging)", or why it is not known; marked while it is for older legs. */
export function BasketMarginSummary({ view }: { readonly view: BasketMarginView }) {
  const { state, margin } = view;
  return (
    <span className="totals basket__margin" data-testid="basket-margin-summary" data-state={state}>
      Margin{' '}
      <strong className="num" data-testid="basket-margin">
        {state === 'empty' ? '–' : state === 'failed' ? 'unknown' : margin ? formatRupees(margin.final) : '…'}
      </strong>
      {margin && state !== 'failed' ? (
        <span className="muted" data-testid="basket-margin-before">
          {' '}
          ({formatRupees(margin.initial)} before hedging)
        </span>
      ) : null}
      {state === 'stale' ? <span className="muted small"> · updating</span> : null}
    </span>
  );
}

/** The failure under the legs, with a retry: the figure is advisory and never holds placing back. */
export function BasketMarginError({ view }: { readonly view: BasketMarginView }) {
  if (view.state !== 'failed') return null;
  return (
    <p className="inline-error small" role="alert">
      Margin not known: {describeError(view.error)}. You can still place the basket.{' '}
      <button type="button" className="mini" onClick={view.retry}>
        Retry
      </button>
    </p>
  );
}

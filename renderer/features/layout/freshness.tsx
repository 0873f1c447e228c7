import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { describeError } from '../../lib/describe-error';
import { formatAge } from '../../lib/format';
import { pollStatusOf } from '../../lib/poll-schedule';
import { useNow } from '../../lib/use-now';

/** The parts of a `useQuery` result the label reads. */
export interface FreshnessSource {
  readonly queryKey: QueryKey;
  readonly dataUpdatedAt: number;
  readonly error: unknown;
  readonly isFetching: boolean;
}

/**
 * "12 s ago", or "Stale 40 s · Rate limited by the broker · retrying in 8 s".
 *
 * A trader must never mistake old figures for live ones: when the last poll failed the label
 * turns into a warning with the reason and when the next attempt is due.
 */
export function Freshness({ source }: { readonly source: FreshnessSource }) {
  const now = useNow();
  const client = useQueryClient();
  const { dataUpdatedAt, error } = source;
  if (error == null) {
    return (
      <span className="freshness" data-stale="false" title="Age of the data on this panel">
        {dataUpdatedAt ? ageOf(now - dataUpdatedAt) : 'loading…'}
      </span>
    );
  }
  const { nextAt } = pollStatusOf(client.getQueryCache().find({ queryKey: source.queryKey, exact: true }));
  const parts = [
    dataUpdatedAt ? `Stale ${formatAge(Math.max(0, now - dataUpdatedAt))}` : 'No data',
    describeError(error),
  ];
  if (source.isFetching) parts.push('retrying now');
  else if (nextAt !== null) parts.push(`retrying in ${formatAge(Math.max(0, nextAt - now)).replace('now', '0 s')}`);
  return (
    <span className="freshness freshness--stale" data-stale="true">
      {parts.join(' · ')}
    </span>
  );
}

/** "just now" or "12 s ago" (never "now ago"). */
function ageOf(ms: number): string {
  const age = formatAge(Math.max(0, ms));
  return age === 'now' ? 'just now' : `${age} ago`;
}

import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { expectedIntervalOf, pollStatusOf } from '../../lib/poll-schedule';
import { freshnessPromise } from '../../lib/polling-policy';
import { useClock, useNow, type Clock } from '../../lib/use-now';
import { sessionQueries } from '../session/queries';
import { freshnessView, type FreshnessView } from './freshness-rule';

/** The parts of a `useQuery` result the label reads (a panel passes `{ ...result, queryKey }`). */
export interface FreshnessSource {
  readonly queryKey: QueryKey;
  readonly dataUpdatedAt: number;
  readonly error: unknown;
  readonly isFetching: boolean;
  /** The failed attempt of a poll being retried right now (react-query's `failureReason`). */
  readonly failureReason?: unknown;
}

/**
 * Whether a panel's data may pass for live, and its header label (see `freshness-rule.ts`).
 *
 * The promise comes from the query's own polling schedule, so it follows the schedule (1 s
 * busy, 5 s idle, slower later); the broker link's state comes from `connection.changed`,
 * read from the cache without fetching it.
 */
export function useFreshness(source: FreshnessSource): FreshnessView {
  const clock = useClock();
  const now = useNow();
  const client = useQueryClient();
  const link = useQuery({ ...sessionQueries.connection(), enabled: false }).data;
  const fetchingSince = useSince(source.isFetching, clock);
  const query = client.getQueryCache().find({ queryKey: source.queryKey, exact: true });
  const expected = expectedIntervalOf(query);
  return freshnessView({
    now,
    dataUpdatedAt: source.dataUpdatedAt,
    error: source.error ?? null,
    failureReason: source.failureReason ?? null,
    fetchingSince,
    promise: expected === null ? null : freshnessPromise(expected),
    nextPollAt: pollStatusOf(query).nextAt,
    link,
  });
}

/** "12 s ago", or "Stale 40 s · Rate limited by the broker · retrying in 8 s". */
export function Freshness({ view }: { readonly view: FreshnessView }) {
  return view.stale ? (
    <span className="freshness freshness--stale" data-stale="true" title={view.text}>
      {view.text}
    </span>
  ) : (
    <span className="freshness" data-stale="false" title="Age of the data on this panel">
      {view.text}
    </span>
  );
}

/** When `flag` last turned true (by `clock`), or null while it is false. */
function useSince(flag: boolean, clock: Clock): number | null {
  const [since, setSince] = useState<number | null>(null);
  // Derived from the previous render (react.dev, "Storing information from previous renders").
  if (flag && since === null) {
    const at = clock.now();
    setSince(at);
    return at;
  }
  if (!flag && since !== null) {
    setSince(null);
    return null;
  }
  return since;
}

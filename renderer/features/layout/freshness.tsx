import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { expectedIntervalOf, pollStatusOf } from '../../lib/poll-schedule';
import { freshnessPromise } from '../../lib/polling-policy';
import { formatAge } from '../../lib/format';
import { TickBox } from '../../lib/tick-box';
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

/** A panel's freshness decision, with what it was decided from (shown as the label's attributes). */
export interface PanelFreshness extends FreshnessView {
  /** When the figures on screen arrived (epoch ms; 0 while there are none). */
  readonly dataUpdatedAt: number;
  /** How old they may get before they are called stale, or null for data nobody polls. */
  readonly maxAgeMs: number | null;
  /** How often they are re-read now, or null for data nobody polls. */
  readonly cadenceMs: number | null;
  /** The stream is open: changes arrive as pushes between reads. */
  readonly pushed: boolean;
}

/**
 * Whether a panel's data may pass for live, and its header label (see `freshness-rule.ts`).
 *
 * The promise comes from the query's own polling schedule, so it follows the cadence (1 s or
 * 5 s without a live stream, 30 s with one; docs/live-data.md §The cadence); the broker link's
 * state comes from `connection.changed`, read from the cache without fetching it.
 */
export function useFreshness(source: FreshnessSource): PanelFreshness {
  const clock = useClock();
  const now = useNow();
  const client = useQueryClient();
  const link = useQuery({ ...sessionQueries.connection(), enabled: false }).data;
  const fetchingSince = useSince(source.isFetching, clock);
  const query = client.getQueryCache().find({ queryKey: source.queryKey, exact: true });
  const expected = expectedIntervalOf(query);
  const promise = expected === null ? null : freshnessPromise(expected);
  const view = freshnessView({
    now,
    dataUpdatedAt: source.dataUpdatedAt,
    error: source.error ?? null,
    failureReason: source.failureReason ?? null,
    fetchingSince,
    promise,
    nextPollAt: pollStatusOf(query).nextAt,
    link,
  });
  return {
    ...view,
    dataUpdatedAt: source.dataUpdatedAt,
    maxAgeMs: promise?.maxAgeMs ?? null,
    cadenceMs: expected,
    pushed: link?.stream === 'open',
  };
}

/** What a fresh label's tooltip says about how the figures are kept current. */
function howKept(f: PanelFreshness): string {
  if (f.cadenceMs === null) return 'Age of the data on this panel';
  const every = formatAge(f.cadenceMs);
  return f.pushed
    ? `Age of the data on this panel: changes arrive from the live stream at once; re-checked every ${every}`
    : `Age of the data on this panel: polled every ${every}`;
}

/**
 * "12 s ago", or "Stale 40 s · Rate limited by the broker · retrying in 8 s". The label carries
 * when its figures arrived and how old they may get (`data-updated-at`, `data-max-age-ms`), so a
 * test or the poll benchmark can check the promise against the clock.
 */
export function Freshness({ view }: { readonly view: PanelFreshness }) {
  const facts = {
    'data-updated-at': view.dataUpdatedAt,
    ...(view.maxAgeMs === null ? {} : { 'data-max-age-ms': view.maxAgeMs }),
  };
  return view.stale ? (
    <span className="freshness freshness--stale" data-stale="true" title={view.text} {...facts}>
      {view.text}
    </span>
  ) : (
    <span className="freshness" data-stale="false" title={howKept(view)} {...facts}>
      {/* The age changes every second: in a box of its own (the label is a flex item of the header). */}
      <TickBox text={view.text} />
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

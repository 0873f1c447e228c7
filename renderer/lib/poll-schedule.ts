import { AppError } from '@shared/ipc/app-error';
import { DEFAULT_POLL_POLICY, nextPollDelay, type PollPolicy } from './polling-policy';

/**
 * Glue between the pure polling policy and react-query's `refetchInterval`.
 *
 * react-query calls `refetchInterval(query)` after every state change of the query and restarts
 * its timer with the answer, so the delay is "time after the last result". This module counts
 * consecutive failures from the query's own counters (`errorUpdateCount` at the last success),
 * keeps one jittered delay per result (the callback runs several times per result; re-rolling
 * the dice each time would make the schedule, and the "retrying in" label, jump), and
 * remembers when the next poll is due so a panel can say so.
 */

/** The parts of a react-query `Query` the schedule reads (structural, so tests can fake it). */
export interface PollableQuery {
  readonly state: {
    readonly dataUpdatedAt: number;
    readonly errorUpdatedAt: number;
    readonly errorUpdateCount: number;
    readonly error: unknown;
  };
}

/** What a panel shows about its polling. */
export interface PollStatus {
  /** Polls failed in a row. */
  readonly failures: number;
  /** Epoch ms of the next poll, or null when polling is paused. */
  readonly nextAt: number | null;
}

interface Entry {
  /** The base interval in the desk's current state (the cadence), before any backoff. */
  expectedMs: number;
  errorsAtLastSuccess: number;
  lastDataAt: number;
  stamp: string;
  delay: number | false;
  nextAt: number | null;
}

const entries = new WeakMap<object, Entry>();

/** The `retryAfterMs` of a rate-limited bridge error, else null. */
export function retryAfterOf(error: unknown): number | null {
  return error instanceof AppError && error.info.kind === 'rate_limited' ? (error.info.retryAfterMs ?? null) : null;
}

function entryOf(query: PollableQuery): Entry {
  let e = entries.get(query);
  if (!e) {
    e = {
      expectedMs: 0,
      errorsAtLastSuccess: 0,
      lastDataAt: 0,
      stamp: '',
      delay: false,
      nextAt: null,
    };
    entries.set(query, e);
  }
  return e;
}

function failuresOf(query: PollableQuery, e: Entry): number {
  const s = query.state;
  // A success is new data, not merely "no error": react-query clears `error` when it refetches
  // a query that never had data, and counting that as a success would reset the backoff of a
  // panel that has been failing since startup.
  if (s.error == null && s.dataUpdatedAt > e.lastDataAt) {
    e.errorsAtLastSuccess = s.errorUpdateCount;
    e.lastDataAt = s.dataUpdatedAt;
  }
  return s.errorUpdateCount - e.errorsAtLastSuccess;
}

/**
 * Builds a `refetchInterval` for react-query from the read's base interval in the desk's
 * current state (`cadenceMs`); a new base makes a new function, so react-query re-arms its timer.
 *
 * `isHidden` and `random` are injectable for tests; in the app the window's visibility decides.
 */
export function pollInterval(
  baseMs: number,
  options: { policy?: PollPolicy; isHidden?: () => boolean; random?: () => number } = {},
): (query: PollableQuery) => number | false {
  const policy = options.policy ?? DEFAULT_POLL_POLICY;
  const isHidden = options.isHidden ?? (() => typeof document !== 'undefined' && document.visibilityState === 'hidden');
  return (query) => {
    const e = entryOf(query);
    e.expectedMs = baseMs;
    const failures = failuresOf(query, e);
    const hidden = isHidden();
    const s = query.state;
    const stamp = `${s.dataUpdatedAt}:${s.errorUpdatedAt}:${baseMs}:${hidden}`;
    if (stamp !== e.stamp) {
      e.stamp = stamp;
      e.delay = nextPollDelay(
        { baseMs, hidden, failures, retryAfterMs: retryAfterOf(s.error) },
        policy,
        options.random,
      );
      e.nextAt = e.delay === false ? null : Math.max(s.dataUpdatedAt, s.errorUpdatedAt) + e.delay;
    }
    return e.delay;
  };
}

/** The schedule last computed for a query (for the "retrying in 4 s" label). */
export function pollStatusOf(query: PollableQuery | undefined): PollStatus {
  if (!query) return { failures: 0, nextAt: null };
  const e = entries.get(query);
  if (!e) return { failures: 0, nextAt: null };
  return { failures: query.state.errorUpdateCount - e.errorsAtLastSuccess, nextAt: e.nextAt };
}

/**
 * How often a query is meant to be refreshed right now (its cadence, before any backoff), or null
 * for a query this schedule does not poll. A panel's freshness promise is derived from it, so it
 * follows the schedule when that changes.
 */
export function expectedIntervalOf(query: PollableQuery | undefined): number | null {
  return query ? (entries.get(query)?.expectedMs ?? null) : null;
}

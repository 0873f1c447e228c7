import type { ConnectionState } from '@shared/domain/session';
import { describeError } from '../../lib/describe-error';
import { formatAge } from '../../lib/format';
import type { FreshnessPromise } from '../../lib/polling-policy';

/**
 * Whether a panel's figures may be read as live, and if not, why: a pure function of what the
 * panel knows, so the rule is unit-tested with plain numbers (docs/live-data.md, "Live data:
 * polling, the stream and ticks").
 *
 * A panel is stale when its last poll failed, when a retry of the current poll is in flight,
 * when its data is older than its promise allows, or when the current poll has waited too long
 * for an answer. The last two matter most: a poll can sit in main for tens of seconds (retries
 * honouring Retry-After, a paused rate-limit bucket, a hung broker) without any error reaching
 * the renderer, and the figures must not pass for live meanwhile.
 */

/** Everything the rule looks at (times are epoch ms from the same clock). */
export interface FreshnessFacts {
  readonly now: number;
  /** When the data on screen arrived; 0 while there is none. */
  readonly dataUpdatedAt: number;
  /** The last poll's final error, or null if it succeeded. */
  readonly error: unknown;
  /** The failed attempt of a poll that is being retried right now, else null. */
  readonly failureReason: unknown;
  /** When the poll in progress started, or null when none is. */
  readonly fetchingSince: number | null;
  /** What the panel promises (from its polling interval), or null for data nobody polls. */
  readonly promise: FreshnessPromise | null;
  /** When the schedule will poll next, or null when it will not (hidden window). */
  readonly nextPollAt: number | null;
  /** The broker link as main reports it (`connection.changed`), if known. */
  readonly link: ConnectionState | undefined;
}

/** What the panel header shows. */
export interface FreshnessView {
  readonly stale: boolean;
  /** "12 s ago", or "Stale 40 s · Rate limited by the broker · retrying in 8 s". */
  readonly text: string;
}

/** Decides whether the panel is stale and words its label. */
export function freshnessView(f: FreshnessFacts): FreshnessView {
  const age = f.dataUpdatedAt > 0 ? Math.max(0, f.now - f.dataUpdatedAt) : null;
  const waited = f.fetchingSince === null ? null : Math.max(0, f.now - f.fetchingSince);
  const failure = f.error ?? f.failureReason ?? null;
  const stale =
    f.error != null ||
    (waited !== null && f.failureReason != null) ||
    (f.promise !== null && age !== null && age > f.promise.maxAgeMs) ||
    (f.promise !== null && waited !== null && waited > f.promise.maxWaitMs);
  if (!stale) return { stale, text: age === null ? 'loading…' : ageLabel(age) };

  const linkReason = linkTrouble(f.link);
  const reason =
    failure != null
      ? describeError(failure)
      : (linkReason ?? (waited !== null && waited >= 1_000 ? `No reply for ${formatAge(waited)}` : null));
  const troubled = failure != null || linkReason !== null;
  let next: string | null = null;
  if (waited !== null) next = troubled ? 'retrying now' : reason === null ? 'refreshing now' : null;
  else if (f.nextPollAt !== null) {
    next = `${troubled ? 'retrying' : 'refreshing'} in ${formatAge(Math.max(1_000, f.nextPollAt - f.now))}`;
  }
  const head = age === null ? 'No data' : `Stale ${formatAge(Math.max(1_000, age))}`;
  return { stale, text: [head, reason, next].filter((p) => p !== null).join(' · ') };
}

/** The broker link's trouble in a trader's words, or null while it is up. */
function linkTrouble(link: ConnectionState | undefined): string | null {
  if (!link || link.rest === 'up') return null;
  const detail = link.detail ? ` (${link.detail})` : '';
  return link.rest === 'down' ? `Connection to the broker lost${detail}` : `Broker degraded${detail}`;
}

/** "just now" or "12 s ago" (never "now ago"). */
function ageLabel(ms: number): string {
  const age = formatAge(ms);
  return age === 'now' ? 'just now' : `${age} ago`;
}

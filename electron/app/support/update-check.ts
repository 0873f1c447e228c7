import { gt, valid } from 'semver';
import { z } from 'zod';
import { updateNoticeText } from '@shared/domain/update';

/**
 * Updates are announced, never forced (docs/architecture.md §Release): main reads a configured
 * feed, and a newer version becomes a notice; installing is the trader's choice, and waits for an
 * idle desk (install-gate.ts).
 */

/** The feed: one JSON object naming the newest release. */
export const UpdateFeed = z.object({
  version: z.string().refine((v) => valid(v) !== null, 'must be a semantic version such as 1.4.2'),
  /** Where the trader downloads it; https only. */
  url: z.url({ protocol: /^https$/, error: 'must be an https URL' }),
  notes: z.string().max(2_000).optional(),
});
export type UpdateFeed = z.infer<typeof UpdateFeed>;

export type UpdateCheck =
  | { readonly kind: 'current'; readonly version: string }
  | { readonly kind: 'available'; readonly version: string; readonly url: string; readonly notes: string | null }
  | { readonly kind: 'failed'; readonly reason: string };

type FetchFn = (url: string, init: { signal: AbortSignal }) => Promise<Pick<Response, 'ok' | 'status' | 'json'>>;

export interface UpdateCheckOptions {
  readonly feedUrl: string;
  /** The running app's version (`app.getVersion()`). */
  readonly currentVersion: string;
  readonly fetch: FetchFn;
  /** Gives up after this long (default 10 s): a slow feed never holds anything up. */
  readonly timeoutMs?: number;
}

/** Asks the feed once; never throws: a feed that cannot be read is `failed`, with why. */
export async function checkForUpdate(options: UpdateCheckOptions): Promise<UpdateCheck> {
  let body: unknown;
  try {
    const reply = await options.fetch(options.feedUrl, { signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) });
    if (!reply.ok) return { kind: 'failed', reason: `the update feed answered HTTP ${reply.status}` };
    body = await reply.json();
  } catch (err) {
    return {
      kind: 'failed',
      reason: `the update feed could not be read: ${err instanceof Error ? err.message : 'unknown error'}`,
    };
  }
  const feed = UpdateFeed.safeParse(body);
  if (!feed.success) {
    const issue = feed.error.issues[0];
    return {
      kind: 'failed',
      reason: `the update feed's ${issue?.path.join('.') || 'reply'} ${issue?.message ?? 'is invalid'}`,
    };
  }
  const { version, url, notes } = feed.data;
  return gt(version, options.currentVersion)
    ? { kind: 'available', version, url, notes: notes ?? null }
    : { kind: 'current', version: options.currentVersion };
}

/** The header's words for a check, or null when there is nothing to say (the page says them too). */
export function updateNotice(check: UpdateCheck): string | null {
  return updateNoticeText(check);
}

/** `TRADEDESK_UPDATE_FEED`, the feed's https address; absent → no update check at all. */
export function configuredFeed(env: {
  readonly TRADEDESK_UPDATE_FEED?: string | undefined;
}): { readonly ok: true; readonly url: string | null } | { readonly ok: false; readonly error: string } {
  const raw = env.TRADEDESK_UPDATE_FEED?.trim();
  if (!raw) return { ok: true, url: null };
  const url = z.url({ protocol: /^https$/ }).safeParse(raw);
  return url.success
    ? { ok: true, url: url.data }
    : { ok: false, error: `TRADEDESK_UPDATE_FEED must be an https URL, got "${raw.slice(0, 200)}"` };
}

/** What the trader reads after a check they asked for, with what an install would wait for. */
export function updateMessage(check: UpdateCheck, waitingFor: readonly string[]): { title: string; detail: string } {
  if (check.kind === 'failed') return { title: 'Could not check for updates', detail: `Because ${check.reason}.` };
  if (check.kind === 'current') return { title: `Tradedesk ${check.version} is up to date`, detail: '' };
  const wait =
    waitingFor.length === 0
      ? 'Nothing is open on the desk: you can install it now.'
      : `Install it after: ${waitingFor.join('; ')}.`;
  return {
    title: updateNotice(check) ?? '',
    detail: [`Download: ${check.url}`, check.notes, wait].filter(Boolean).join('\n\n'),
  };
}

import type { UpdateStatus } from '@shared/domain/update';
import { checkForUpdate, type UpdateCheckOptions } from './update-check';

/** How often the feed is read again while the app runs: a release is news, not an emergency. */
export const UPDATE_RECHECK_MS = 6 * 60 * 60_000;

export interface UpdateNoticeDeps extends Omit<UpdateCheckOptions, 'timeoutMs'> {
  /** Told of every change of the status (the header's notice, `updates.changed`). */
  readonly onChange: (status: UpdateStatus) => void;
  readonly now: () => number;
  /** Calls `fn` after `ms`; answers a cancel. */
  readonly setTimer: (fn: () => void, ms: number) => () => void;
}

/**
 * The header's update notice (docs/architecture.md §Release): main reads the configured feed at
 * start and every few hours, and a newer version is announced — never downloaded, installed or
 * restarted for; installing stays the trader's act (Help › Check for updates…, behind the install
 * gate). A feed that cannot be read is said once and read again at the next turn.
 */
export class UpdateNotice {
  readonly #deps: UpdateNoticeDeps;
  #status: UpdateStatus = { kind: 'checking' };
  #cancel: (() => void) | null = null;
  #closed = false;

  public constructor(deps: UpdateNoticeDeps) {
    this.#deps = deps;
  }

  public status(): UpdateStatus {
    return this.#status;
  }

  /** Reads the feed now, then every `UPDATE_RECHECK_MS`; the returned promise ends with the first read. */
  public async start(): Promise<void> {
    await this.#check();
  }

  public close(): void {
    this.#closed = true;
    this.#cancel?.();
    this.#cancel = null;
  }

  async #check(): Promise<void> {
    const check = await checkForUpdate(this.#deps);
    if (this.#closed) return;
    const checkedAt = this.#deps.now();
    this.#set(
      check.kind === 'available'
        ? { kind: 'available', version: check.version, url: check.url, notes: check.notes, checkedAt }
        : check.kind === 'current'
          ? { kind: 'current', version: check.version, checkedAt }
          : { kind: 'failed', reason: check.reason, checkedAt },
    );
    this.#cancel = this.#deps.setTimer(() => void this.#check(), UPDATE_RECHECK_MS);
  }

  #set(status: UpdateStatus): void {
    this.#status = status;
    this.#deps.onChange(status);
  }
}

/** The app's notice on `feedUrl`: the platform's fetch and timers, the wall clock. */
export function newUpdateNotice(
  feed: { readonly feedUrl: string; readonly currentVersion: string },
  onChange: (status: UpdateStatus) => void,
): UpdateNotice {
  return new UpdateNotice({
    ...feed,
    fetch: (url, init) => fetch(url, init),
    onChange,
    now: Date.now,
    setTimer: (fn, ms) => {
      const t = setTimeout(fn, ms);
      t.unref();
      return () => clearTimeout(t);
    },
  });
}

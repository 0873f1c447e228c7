import { randomUUID } from 'node:crypto';
import type { SessionVersion } from '@shared/domain/session';

/**
 * Numbers the session's changes in the order main makes them (docs/session.md §Session
 * facts are ordered by main).
 *
 * The app shares one across every core it swaps in at login, so the old session's last fact and
 * the new session's first are numbered in the order they happened; each start of the service
 * has its own run id, so a renderer that outlives a restart is not misled by the count
 * starting again.
 */
export class SessionVersions {
  readonly #run: string;
  #seq = 0;

  public constructor(run: string = randomUUID()) {
    this.#run = run;
  }

  /** The next number: later than every one handed out before it. */
  public next(): SessionVersion {
    this.#seq += 1;
    return { run: this.#run, seq: this.#seq };
  }
}

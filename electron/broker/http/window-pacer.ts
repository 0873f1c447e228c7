import { LimitReached } from '../broker-error';
import { NotAdmitted, type BucketClock, type Priority } from './token-bucket';

/** At most `limit` requests in any `ms` milliseconds. */
export interface SlidingWindow {
  readonly limit: number;
  readonly ms: number;
  /**
   * Of `limit`, how many only cancels may take (default none): the other writes stop that many
   * short, so a run of placements never keeps a cancel waiting for the window.
   */
  readonly cancelReserve?: number;
}

/** A count that starts again each calendar day (Kite's orders a day, per IST day). */
export interface DailyCap {
  readonly limit: number;
  /** The day an instant belongs to (an IST date). */
  readonly dayOf: (epochMs: number) => string;
  /** When the day of `epochMs` ends (epoch ms), for the refusal's Retry-After. */
  readonly endOf: (epochMs: number) => number;
  /** Told in the refusal: "Kite allows 5,000 orders a day". */
  readonly label: string;
}

/** Anything that admits one request at a time: the token bucket, or this pacer. */
export interface Pacer {
  take(priority?: Priority, signal?: AbortSignal): Promise<number>;
  /** Admits nobody of `lane` for `ms`: the broker answered one of its requests 429 with that Retry-After. */
  pause(ms: number, lane: Priority): void;
  /**
   * The broker did not count the request admitted at `at` — it refused it with a 429, which
   * counts nothing (docs/kite.md §Limits), or it was never sent: its place is given back (with
   * `untilAnswered`, instead of `settled`, never after it).
   */
  giveBack?(at: number): void;
  /**
   * The request admitted at `at` was answered, or failed on its way: whatever the broker counted
   * of it, it counted by now (a pacer that holds a write until then: `untilAnswered`).
   */
  settled?(at: number): void;
}

/** Knobs of the window pacer. */
export interface WindowPacerOptions {
  /**
   * A write holds its place from its admission until `ms` after it was answered (`settled`),
   * not `ms` after it was sent: the broker counts it at some moment between the two, so
   * however long the network and the broker took, no calendar window of the broker's can hold
   * more than `limit` (docs/brokers.md §HTTP client, retries and limits). Its caller must call
   * `settled` or `giveBack` for every admission. Default false: `ms` from the admission.
   */
  readonly untilAnswered?: boolean;
  /**
   * For up to this long after a pause (a broker's Retry-After) ends, its lane sends only a whole
   * burst: as many of its waiting callers as the windows let go at once (up to their limit), not
   * the part that fits now — under a storm of 429s that part meets the next 429 and the rest of
   * the window goes unused for a whole pause. A lane that cannot send whole within it sends what
   * fits. It only ever delays (docs/brokers.md §HTTP client, retries and limits). Default 0: off.
   */
  readonly wholeAfterPauseMs?: number;
}

/** One admitted write: when it was admitted, and when it was answered (null: not yet). */
interface Place {
  readonly at: number;
  end: number | null;
}

interface Waiter {
  readonly admit: (at: number) => void;
  readonly refuse: (err: Error) => void;
  done: boolean;
}

/**
 * Keeps requests under limits counted in calendar windows (Kite counts orders per calendar
 * second, minute and IST day: docs/kite.md §Limits), so that no order is refused for them.
 *
 * A token bucket cannot: it lets a burst at the end of one second and another at the start of
 * the next, which a calendar count refuses. A sliding window can: at most N in any `ms` is at
 * most N in every calendar second, whatever the phase between our clock and the broker's — as
 * long as the window runs on the broker's side of the network. With `untilAnswered` it does: a
 * write holds its place from its admission until `ms` after its answer, and the broker counted
 * it between the two, so two writes that can share one of the broker's seconds always share one
 * of these windows, however the network's delay varied (docs/brokers.md §HTTP client, retries
 * and limits). A window may keep a reserve only cancels take. Cancels go first; within a lane,
 * arrival order. A day's cap, once reached, refuses at once (waiting cannot help), as a
 * `rate_limited` whose Retry-After is the day's end: nothing is sent. A caller whose signal
 * aborts while it waits leaves without counting (`NotAdmitted`).
 *
 * `pause(ms, lane)` holds a lane for a broker's Retry-After, as the token bucket does: its callers
 * are not admitted, so none is counted in a window while it would wait behind the pause, and the
 * window stays free for when the pause ends (cancels are the `cancel` lane, the rest the other).
 * `giveBack(at)` frees the place of a request the broker counted nothing for (a 429, or never sent).
 */
export class WindowPacer implements Pacer {
  readonly #windows: readonly SlidingWindow[];
  readonly #day: DailyCap | null;
  readonly #clock: BucketClock;
  readonly #wallNow: () => number;
  /** Writes that may still count in a window, oldest admission first. */
  #sent: Place[] = [];
  readonly #untilAnswered: boolean;
  #dayKey = '';
  #dayCount = 0;
  readonly #cancels: Waiter[] = [];
  readonly #others: Waiter[] = [];
  /** Each queue waits until this time (a Retry-After given to a request of it). */
  readonly #pausedUntil = { cancels: Number.NEGATIVE_INFINITY, others: Number.NEGATIVE_INFINITY };
  /** Until when each lane, its pause over, sends only a whole burst (`wholeAfterPauseMs`). */
  readonly #wholeUntil = { cancels: Number.NEGATIVE_INFINITY, others: Number.NEGATIVE_INFINITY };
  readonly #wholeAfterPauseMs: number;
  #pumping = false;
  readonly #onAdmit: (at: number) => void;
  /** Ends the pump's sleep behind a pause early: someone arrived who may go before it ends. */
  #wake: (() => void) | null = null;
  /** Ends the pump's sleep until the windows have room early: a place was given back (`giveBack`). */
  #roomMade: (() => void) | null = null;

  public constructor(
    windows: readonly SlidingWindow[],
    day: DailyCap | null,
    clock: BucketClock,
    wallNow: () => number = Date.now,
    onAdmit: (at: number) => void = () => undefined,
    options: WindowPacerOptions = {},
  ) {
    this.#untilAnswered = options.untilAnswered ?? false;
    this.#wholeAfterPauseMs = options.wholeAfterPauseMs ?? 0;
    this.#windows = windows;
    this.#day = day;
    this.#clock = clock;
    this.#wallNow = wallNow;
    this.#onAdmit = onAdmit;
  }

  public take(priority: Priority = 'urgent', signal?: AbortSignal): Promise<number> {
    if (signal?.aborted) return Promise.reject(new NotAdmitted());
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        if (waiter.done) return;
        waiter.done = true;
        reject(new NotAdmitted());
      };
      // Answered: the listener goes, so a signal shared by many requests (a kill switch's Stop) holds none.
      const waiter: Waiter = {
        admit: (at) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(at);
        },
        refuse: (err) => {
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
        done: false,
      };
      (priority === 'cancel' ? this.#cancels : this.#others).push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      // The pump may sleep behind a pause or a full window that this caller need not wait for
      // (the other lane; a cancel's reserve): it looks again.
      this.#wake?.();
      this.#roomMade?.();
      void this.#pump();
    });
  }

  /** Requests waiting (those who gave up included, until the pump passes them). */
  public waiting(): number {
    return this.#cancels.length + this.#others.length;
  }

  public pause(ms: number, lane: Priority): void {
    const q = lane === 'cancel' ? 'cancels' : 'others';
    this.#pausedUntil[q] = Math.max(this.#pausedUntil[q], this.#clock.now() + ms);
    if (this.#wholeAfterPauseMs > 0) this.#wholeUntil[q] = this.#pausedUntil[q] + this.#wholeAfterPauseMs;
  }

  public giveBack(at: number): void {
    // Given back before it was answered (`settled`): a place still open, where places are held.
    const i = this.#lastAt(at, this.#untilAnswered);
    if (i < 0) return;
    this.#sent.splice(i, 1);
    if (this.#day && this.#dayCount > 0 && this.#day.dayOf(this.#wallNow()) === this.#dayKey) this.#dayCount -= 1;
    // A caller waiting for the window may go sooner now.
    this.#roomMade?.();
  }

  public settled(at: number): void {
    const i = this.#lastAt(at, true);
    const place = this.#sent[i];
    if (!place) return;
    place.end = this.#clock.now();
    // Its place now ends `ms` from here, no longer "when it is answered": someone may go sooner.
    this.#roomMade?.();
  }

  /** The latest place admitted at `at` (one not yet answered, if `open`); -1 if none. */
  #lastAt(at: number, open: boolean): number {
    for (let i = this.#sent.length - 1; i >= 0; i -= 1) {
      const p = this.#sent[i] as Place;
      if (p.at === at && (!open || p.end === null)) return i;
    }
    return -1;
  }

  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      for (;;) {
        const now = this.#clock.now();
        const next = this.#head(now);
        if (next === 'paused') {
          // Until the pause ends, or someone arrives who may go sooner (the other lane).
          await Promise.race([
            this.#clock.sleep(this.#pauseLeft(now)),
            new Promise<void>((resolve) => (this.#wake = resolve)),
          ]);
          this.#wake = null;
          continue;
        }
        if (!next) return;
        const cancel = next === this.#cancels[0];
        const lane = cancel ? 'cancels' : 'others';
        if (now < this.#wholeUntil[lane]) {
          // Just out of a pause: room for the whole burst, if the windows have it in time.
          const whole = this.#waitFor(now, cancel, this.#burst(cancel));
          if (whole > 0 && now + whole <= this.#wholeUntil[lane]) {
            const roomMade = new Promise<void>((resolve) => (this.#roomMade = resolve));
            await Promise.race([this.#clock.sleep(Math.min(whole, this.#pauseLeft(now))), roomMade]);
            this.#roomMade = null;
            continue;
          }
          // Not in time (a write still unanswered holds its place a window past its answer, so
          // past the bound too): what fits goes now, as it would without the rule.
          if (whole > 0) this.#wholeUntil[lane] = Number.NEGATIVE_INFINITY;
        }
        const wait = this.#waitFor(now, cancel);
        if (wait > 0) {
          // Until the window has room, or a place in it is given back or answered (a write not
          // yet answered holds its place for as long: then only that can make room).
          // Or until the other lane's pause ends, if someone waits in it: a cancel need not wait
          // for the room a placement needs.
          const roomMade = new Promise<void>((resolve) => (this.#roomMade = resolve));
          const until = Math.min(wait, this.#pauseLeft(now));
          await (Number.isFinite(until) ? Promise.race([this.#clock.sleep(until), roomMade]) : roomMade);
          this.#roomMade = null;
          continue;
        }
        (this.#cancels[0] === next ? this.#cancels : this.#others).shift();
        if (next.done) continue;
        next.done = true;
        const refusal = this.#countDay();
        if (refusal) {
          next.refuse(refusal);
          continue;
        }
        // The burst has begun: its rest goes as the windows allow.
        this.#wholeUntil[cancel ? 'cancels' : 'others'] = Number.NEGATIVE_INFINITY;
        this.#sent.push({ at: now, end: this.#untilAnswered ? null : now });
        this.#onAdmit(now);
        next.admit(now);
      }
    } finally {
      this.#pumping = false;
    }
  }

  /**
   * The first caller still waiting in a lane not paused, cancels first; callers who gave up are
   * dropped. `paused`: someone waits, but only in paused lanes.
   */
  #head(now: number): Waiter | 'paused' | undefined {
    let paused = false;
    for (const [q, lane] of [
      [this.#cancels, 'cancels'],
      [this.#others, 'others'],
    ] as const) {
      while (q[0]?.done) q.shift();
      if (!q[0]) continue;
      if (now < this.#pausedUntil[lane]) paused = true;
      else return q[0];
    }
    return paused ? 'paused' : undefined;
  }

  /**
   * How long until the first paused lane with someone waiting may go again (at least 1 ms, so a
   * timer firing early does not spin the pump); infinite if no one waits in a paused lane.
   */
  #pauseLeft(now: number): number {
    const left = (['cancels', 'others'] as const)
      .filter((lane) => (lane === 'cancels' ? this.#cancels : this.#others).length > 0)
      .filter((lane) => this.#pausedUntil[lane] > now)
      .map((lane) => Math.max(1, this.#pausedUntil[lane] - now));
    return Math.min(Number.POSITIVE_INFINITY, ...left);
  }

  /**
   * A lane's whole burst: its callers still waiting (those who gave up not counted), at most as
   * many as its tightest window lets go at once.
   */
  #burst(cancel: boolean): number {
    const waiting = (cancel ? this.#cancels : this.#others).filter((w) => !w.done).length;
    const limits = this.#windows.map((w) => (cancel ? w.limit : Math.max(1, w.limit - (w.cancelReserve ?? 0))));
    return Math.min(waiting, ...limits);
  }

  /**
   * How long until every window has room for `n` more writes (cancels, or other writes, which
   * leave the windows' cancel reserve; at most a window's limit): 0, now; infinite, not before a
   * write is answered.
   */
  #waitFor(now: number, cancel: boolean, n = 1): number {
    const longest = Math.max(0, ...this.#windows.map((w) => w.ms));
    // A place counts in a window until `ms` after its end (its answer, or its admission).
    this.#sent = this.#sent.filter((p) => p.end === null || p.end + longest > now);
    let wait = 0;
    for (const w of this.#windows) {
      const limit = cancel ? w.limit : Math.max(1, w.limit - (w.cancelReserve ?? 0));
      const leaves = this.#sent
        .map((p) => (p.end === null ? Number.POSITIVE_INFINITY : p.end + w.ms))
        .filter((t) => t > now)
        .sort((a, b) => a - b);
      const room = limit - Math.min(n, limit);
      if (leaves.length <= room) continue;
      // Room once enough of the places that keep the window full have left it.
      wait = Math.max(wait, (leaves[leaves.length - room - 1] as number) - now);
    }
    return Math.ceil(wait);
  }

  /** Counts one more against the day's cap; the refusal if it is used up. */
  #countDay(): Error | null {
    if (!this.#day) return null;
    const wall = this.#wallNow();
    const key = this.#day.dayOf(wall);
    if (key !== this.#dayKey) {
      this.#dayKey = key;
      this.#dayCount = 0;
    }
    if (this.#dayCount >= this.#day.limit) {
      return new LimitReached(
        `${this.#day.label}, and today's are used up: not sent`,
        Math.max(1_000, this.#day.endOf(wall) - wall),
      );
    }
    this.#dayCount += 1;
    return null;
  }
}

/**
 * When a window draws the ticks it has queued: the focused window at every frame, a window
 * without the focus at most once every `UNFOCUSED_EVERY_MS` (docs/live-data.md §Windows not
 * focused). A plain function over an injected frame scheduler, focus source and clock, so the
 * rule is tested on a clock the test moves.
 */

/** Runs `work` before the next paint (the browser's next animation frame, or a test's). */
export type FrameScheduler = (work: () => void) => void;

/**
 * How often a window without the focus draws prices, at most: once a second. Four windows of
 * 200 ticking rows need more than one of two cores when each draws every batch (docs/
 * benchmarks.md §windows, real pop-outs); the ones the trader is not looking at give way.
 */
export const UNFOCUSED_EVERY_MS = 1_000;

/** What the pace reads: the frames, the window's focus and the time, all injected. */
export interface PaceSources {
  /** The next frame (the browser's `requestAnimationFrame`, or a test's). */
  readonly frame: FrameScheduler;
  /** Whether the window has the keyboard focus now. */
  readonly focused: () => boolean;
  /** Calls `listener` when the focus comes or goes; returns the unsubscribe. */
  readonly onFocusChange: (listener: () => void) => () => void;
  /** A monotonic clock, ms. */
  readonly now: () => number;
  /** Runs `work` after `ms` (a timer). */
  readonly after: (ms: number, work: () => void) => void;
  /** The slower pace of a window without the focus; `UNFOCUSED_EVERY_MS` unless a test says. */
  readonly everyMs?: number;
}

/**
 * A frame scheduler that runs work at the next frame while the window has the focus, and at
 * most once every `everyMs` (then at the next frame) while it has not. The focused window is
 * never slowed: work asked for while focused goes to the next frame whatever ran before, and
 * work held back by the slower pace goes to the next frame as soon as the focus comes back.
 */
export function focusPaced(p: PaceSources): FrameScheduler {
  const everyMs = p.everyMs ?? UNFOCUSED_EVERY_MS;
  let lastRun = Number.NEGATIVE_INFINITY;
  /** Work waiting out the slower pace (a box of its own: the same function may be asked for again). */
  let held: { readonly work: () => void } | null = null;
  const inFrame = (work: () => void): void =>
    p.frame(() => {
      lastRun = p.now();
      work();
    });
  p.onFocusChange(() => {
    if (!p.focused() || held === null) return;
    const { work } = held;
    held = null;
    inFrame(work);
  });
  return (work) => {
    const wait = lastRun + everyMs - p.now();
    if (p.focused() || wait <= 0) {
      inFrame(work);
      return;
    }
    const box = { work };
    held = box;
    p.after(wait, () => {
      if (held !== box) return; // drawn already: the focus came back meanwhile
      held = null;
      inFrame(work);
    });
  };
}

/** What the header says while this window draws prices at the slower pace. */
export function unfocusedNote(everyMs = UNFOCUSED_EVERY_MS): string {
  const seconds = everyMs / 1000;
  return `Not focused: prices every ${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

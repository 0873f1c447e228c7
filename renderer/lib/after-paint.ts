/** The longest a wait for the next painted frame lasts: a page opened hidden paints none. */
const HIDDEN_PAGE_WAIT_MS = 500;

/**
 * Calls `then` once, after the next frame has painted: a timer queued from that frame's animation
 * frame callback runs once the frame is painted. A page that is not shown gets no animation
 * frames, so a plain timer bounds the wait (HIDDEN_PAGE_WAIT_MS). Answers a cancel.
 */
export function afterNextPaint(then: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancel = (): void => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    clearTimeout(bound);
  };
  const run = (): void => {
    cancel();
    then();
  };
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(run, 0);
  });
  const bound = setTimeout(run, HIDDEN_PAGE_WAIT_MS);
  return cancel;
}

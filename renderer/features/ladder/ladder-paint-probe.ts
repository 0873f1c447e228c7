import { useLayoutEffect } from 'react';
import { BENCH_BUILD } from '../orders/blotter-paint-probe';

/** The name of the User Timing mark bench/dashboard-bench.ts collects for the ladder. */
export const LADDER_PAINT_MARK = 'ladder-painted';

/**
 * Times each book update the ladder draws, from its commit to the paint of the frame showing it
 * (the same method as the blotter's probe: a requestAnimationFrame queued at the commit, then a
 * message that runs after that frame's paint). The bench pairs each mark with the arrival of the
 * `market.ticks` message that carried the book (`book` is its market time), so "arrival → painted"
 * says whether the ladder repaints within a frame at the rate the depth updates come.
 */
function useProbe(book: string | null): void {
  useLayoutEffect(() => {
    if (book === null) return;
    const committed = performance.now();
    requestAnimationFrame(() => {
      const frame = performance.now();
      const after = new MessageChannel();
      after.port1.onmessage = () => {
        after.port1.close();
        performance.mark(LADDER_PAINT_MARK, { detail: { book, committed, frame, painted: performance.now() } });
      };
      after.port2.postMessage(null);
    });
  }, [book]);
}

/** The probe in the bench's build; nothing at all in the app's. */
export const useLadderPaintProbe: (book: string | null) => void = BENCH_BUILD ? useProbe : () => undefined;

import { useLayoutEffect } from 'react';

/**
 * True only in the dashboard benchmark's own build of the renderer (`vite build --mode bench`,
 * made by `npm run bench` into out/bench/renderer). Vite replaces `import.meta.env.MODE` when it
 * builds, so in the app's build this is the constant `false`: the probe below and the blotter's
 * plain mode are not in the bundle a trader runs.
 */
export const BENCH_BUILD = import.meta.env.MODE === 'bench';

/** The name of the User Timing mark bench/dashboard-bench.ts collects. */
export const PAINT_MARK = 'blotter-painted';

/**
 * Times each order-data update from "react-query stored it" to "the frame showing it painted".
 *
 * Start: `dataUpdatedAt` (react-query's `Date.now()` when the poll reply or pushed order landed
 * in the cache, so ±1 ms). The layout effect runs right after React wrote the DOM (the commit);
 * a requestAnimationFrame callback queued there runs at the start of the next frame, which
 * will style, lay out and paint that DOM; a message posted from it runs after that frame's
 * paint. So `painted - data` covers react-query's notification, React's render and commit,
 * and the browser's style/layout/paint of the frame, which is exactly what virtualization changes.
 */
function usePaintProbe(dataUpdatedAt: number): void {
  useLayoutEffect(() => {
    if (dataUpdatedAt === 0) return;
    const committed = performance.now();
    requestAnimationFrame(() => {
      const frame = performance.now();
      const after = new MessageChannel();
      after.port1.onmessage = () => {
        after.port1.close();
        performance.mark(PAINT_MARK, {
          detail: { data: dataUpdatedAt - performance.timeOrigin, committed, frame, painted: performance.now() },
        });
      };
      after.port2.postMessage(null);
    });
  }, [dataUpdatedAt]);
}

/** The probe in the bench's build; nothing at all in the app's. */
export const useBlotterPaintProbe: (dataUpdatedAt: number) => void = BENCH_BUILD ? usePaintProbe : () => undefined;

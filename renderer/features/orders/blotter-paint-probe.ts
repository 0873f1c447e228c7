import { useLayoutEffect } from 'react';

/**
 * Benchmark-only: active when the page URL carries `?blotter=…` (the dashboard bench opens
 * `?blotter=virtual` and `?blotter=plain`); the app never sets it, so in normal use this is
 * one skipped effect per update.
 */
const ACTIVE = typeof window !== 'undefined' && new URLSearchParams(window.location.search).has('blotter');

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
export function useBlotterPaintProbe(dataUpdatedAt: number): void {
  useLayoutEffect(() => {
    if (!ACTIVE || dataUpdatedAt === 0) return;
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

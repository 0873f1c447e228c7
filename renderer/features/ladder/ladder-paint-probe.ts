import { useLayoutEffect } from 'react';
import { BENCH_BUILD } from '../orders/blotter-paint-probe';

/** The name of the User Timing mark bench/dashboard-bench.ts collects for the ladder. */
export const LADDER_PAINT_MARK = 'ladder-painted';

/**
 * Times each book the ladder draws, from its commit to the paint of the frame showing it. The
 * book comes from the quotes store, which applies ticks in a requestAnimationFrame callback
 * (quotes-store.ts), so the ladder commits inside a frame's rendering step: a message posted at
 * the commit runs after that frame's paint (the blotter's probe, committing outside a frame,
 * waits for a frame first instead). The bench pairs each mark with the arrival of the
 * `market.ticks` message before it, so "arrival → painted" is the whole way from the socket to
 * the screen at the rate the depth updates come. Each book is a new object, so every one is
 * timed, even two that carry the same market time.
 */
function useProbe(book: object | null): void {
  useLayoutEffect(() => {
    if (book === null) return;
    const committed = performance.now();
    const after = new MessageChannel();
    after.port1.onmessage = () => {
      after.port1.close();
      performance.mark(LADDER_PAINT_MARK, { detail: { committed, painted: performance.now() } });
    };
    after.port2.postMessage(null);
  }, [book]);
}

/** The probe in the bench's build; nothing at all in the app's. */
export const useLadderPaintProbe: (book: object | null) => void = BENCH_BUILD ? useProbe : () => undefined;

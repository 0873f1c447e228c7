/**
 * One measured window of a bench over live pages, in the order that keeps its figures to the
 * window: the pages' probes are turned on, the window passes, the probes are turned off and read,
 * and only then is a profiler stopped. Stopping Chromium's tracing and CPU profiler takes from a
 * fraction of a second to several seconds on a busy machine (the trace is written out), and the
 * pages keep taking ticks and drawing frames meanwhile: read after it, a 6 s window on a loaded
 * machine read 15–23 `market.ticks` messages a second where main sends at most 10
 * (docs/benchmarks.md §Measured: a page taking `market.ticks` twice).
 */

/** What a window is measured with. */
export interface WindowParts<S, P> {
  /** Starts the profiler over the window and returns its stop; absent when not profiling. */
  readonly profile?: () => Promise<() => Promise<P>>;
  /** Turns every page's probe on. */
  readonly probesOn: () => Promise<void>;
  /** Turns every page's probe off and reads what it counted. */
  readonly probesOff: () => Promise<S>;
  /** Called as the window starts, and as it ends with its length in seconds (main's and the browser's CPU counters). */
  readonly started?: () => void;
  readonly ended?: (seconds: number) => void;
  /** Waits `ms` (the window). */
  readonly wait: (ms: number) => Promise<void>;
  /** Clock, ms. */
  readonly now: () => number;
}

/** What the window measured: the probes' counts, its length in seconds, the profile if one was taken. */
export interface MeasuredWindow<S, P> {
  readonly probes: S;
  readonly seconds: number;
  readonly profile: P | null;
  /** How long the profiler took to stop, in seconds (0 without one): what a probe read after it would have counted too. */
  readonly profilerStopSeconds: number;
}

export async function measuredWindow<S, P>(ms: number, parts: WindowParts<S, P>): Promise<MeasuredWindow<S, P>> {
  const stopProfile = parts.profile ? await parts.profile() : null;
  await parts.probesOn();
  const t0 = parts.now();
  parts.started?.();
  await parts.wait(ms);
  const probes = await parts.probesOff();
  const seconds = (parts.now() - t0) / 1000;
  parts.ended?.(seconds);
  const stopping = parts.now();
  const profile = stopProfile ? await stopProfile() : null;
  return { probes, seconds, profile, profilerStopSeconds: (parts.now() - stopping) / 1000 };
}

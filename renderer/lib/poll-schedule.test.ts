import { QueryClient, QueryObserver, focusManager } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '@shared/ipc/app-error';
import { expectedIntervalOf, pollInterval, pollStatusOf, retryAfterOf } from './poll-schedule';

/**
 * The polling schedule driven by react-query itself under fake timers: what a panel's poll
 * does over time when the broker answers, refuses, rate-limits, and when the window hides.
 */

type Outcome = 'ok' | AppError;

let visibility: DocumentVisibilityState = 'visible';

function setVisibility(v: DocumentVisibilityState): void {
  visibility = v;
  window.dispatchEvent(new Event('visibilitychange'));
}

/** A polled query whose fetcher answers from `script` (then keeps answering with its last entry). */
function startPolling(baseMs: number, script: Outcome[], random: () => number = () => 0.999_999) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 1_000 } } });
  client.mount(); // as QueryClientProvider does: listen to focus and visibility
  const fetchedAt: number[] = [];
  let n = 0;
  const observer = new QueryObserver(client, {
    queryKey: ['polled'],
    queryFn: async () => {
      fetchedAt.push(Date.now());
      const outcome = script[Math.min(n++, script.length - 1)]!;
      if (outcome !== 'ok') throw outcome;
      return n;
    },
    refetchInterval: pollInterval(baseMs, { random }),
  });
  const unsubscribe = observer.subscribe(() => {});
  const elapsed = () => fetchedAt.map((t) => t - fetchedAt[0]!);
  const query = () => client.getQueryCache().find({ queryKey: ['polled'] });
  return { fetchedAt, elapsed, query, observer, stop: () => (unsubscribe(), client.unmount(), client.clear()) };
}

const rateLimited = (retryAfterMs?: number) =>
  new AppError({
    kind: 'rate_limited',
    message: 'Too many requests',
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
const serverError = () => new AppError({ kind: 'server_error', message: 'HTTP 503' });

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-11-23T04:00:00Z') });
  visibility = 'visible';
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
  focusManager.setFocused(undefined); // follow the document's visibility, as in the app
});

afterEach(() => {
  vi.useRealTimers();
});

describe('pollInterval under react-query', () => {
  it('polls every second at a 1 s cadence', async () => {
    const p = startPolling(1_000, ['ok']);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(p.elapsed()).toEqual([0, 1_000, 2_000, 3_000, 4_000, 5_000]);
    p.stop();
  });

  it("polls every five seconds at a 5 s cadence, and every 30 s at the live stream's", async () => {
    const p = startPolling(5_000, ['ok']);
    await vi.advanceTimersByTimeAsync(16_000);
    expect(p.elapsed()).toEqual([0, 5_000, 10_000, 15_000]);
    p.stop();
    const live = startPolling(30_000, ['ok']);
    await vi.advanceTimersByTimeAsync(95_000);
    expect(live.elapsed()).toEqual([0, 30_000, 60_000, 90_000]);
    live.stop();
  });

  it('backs off exponentially while the broker fails, and returns to normal after a success', async () => {
    const e = serverError();
    const p = startPolling(1_000, [e, e, e, 'ok']);
    await vi.advanceTimersByTimeAsync(20_000);
    // Failures at 0, 2, 6 s (waits of 2 s, 4 s, 8 s at the top of the jitter), success at 14 s,
    // then the 1 s cadence again.
    expect(p.elapsed().slice(0, 7)).toEqual([0, 2_000, 6_000, 14_000, 15_000, 16_000, 17_000]);
    p.stop();
  });

  it('counts failures in a row for the panel and says when the next attempt is due', async () => {
    const e = serverError();
    const p = startPolling(5_000, [e, e, 'ok'], () => 0);
    await vi.advanceTimersByTimeAsync(0);
    expect(pollStatusOf(p.query())).toEqual({ failures: 1, nextAt: p.fetchedAt[0]! + 5_000 });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(pollStatusOf(p.query())).toEqual({ failures: 2, nextAt: p.fetchedAt[1]! + 10_000 });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(pollStatusOf(p.query())).toMatchObject({ failures: 0 });
    p.stop();
  });

  it('waits at least retryAfterMs after a rate-limited reply', async () => {
    const p = startPolling(1_000, [rateLimited(10_000), 'ok'], () => 0);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(p.fetchedAt).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(p.fetchedAt).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(p.fetchedAt).toHaveLength(3);
    p.stop();
  });

  it('keeps one jittered delay per failure, so the "retrying in" label does not jump', () => {
    let r = 0;
    const interval = pollInterval(5_000, { random: () => (r = (r + 0.37) % 1), isHidden: () => false });
    const failed = {
      state: { dataUpdatedAt: 1_000, errorUpdatedAt: 2_000, errorUpdateCount: 1, error: serverError() },
    };
    const first = interval(failed);
    // react-query asks several times per result; the answer must not be re-rolled each time.
    expect([interval(failed), interval(failed), interval(failed)]).toEqual([first, first, first]);
    const again = { state: { ...failed.state, errorUpdatedAt: 9_000, errorUpdateCount: 2 } };
    expect(interval(again)).not.toBe(first);
  });

  it('backs off too when a panel that had data starts failing, keeping the data', async () => {
    const e = rateLimited(1_000);
    const p = startPolling(1_000, ['ok', e, e, 'ok']);
    await vi.advanceTimersByTimeAsync(12_000);
    expect(p.elapsed().slice(0, 5)).toEqual([0, 1_000, 3_000, 7_000, 8_000]);
    p.stop();
  });

  it('stops polling while the window is hidden and resumes at once when it is shown again', async () => {
    const p = startPolling(1_000, ['ok']);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(p.fetchedAt).toHaveLength(3);

    setVisibility('hidden');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(p.fetchedAt).toHaveLength(3);

    setVisibility('visible');
    await vi.advanceTimersByTimeAsync(0);
    expect(p.fetchedAt).toHaveLength(4); // refetched on becoming visible, not a minute of backlog
    await vi.advanceTimersByTimeAsync(3_000);
    expect(p.fetchedAt).toHaveLength(7); // and back on the 1 s cadence
    p.stop();
  });

  it('stays paused while hidden even when the last poll failed', async () => {
    const p = startPolling(1_000, [serverError(), 'ok']);
    await vi.advanceTimersByTimeAsync(0);
    setVisibility('hidden');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(p.fetchedAt).toHaveLength(1);
    setVisibility('visible');
    await vi.advanceTimersByTimeAsync(0);
    expect(p.fetchedAt).toHaveLength(2);
    expect(p.query()?.state.status).toBe('success');
    p.stop();
  });
});

describe('expectedIntervalOf', () => {
  it('reports the interval the schedule currently means to keep, whatever the backoff, so freshness can follow it', async () => {
    const failing = startPolling(5_000, [serverError()]);
    await vi.advanceTimersByTimeAsync(0);
    expect(pollStatusOf(failing.query()).nextAt! - failing.fetchedAt[0]!).toBe(10_000); // backing off…
    expect(expectedIntervalOf(failing.query())).toBe(5_000); // …but the panel is meant to refresh every 5 s
    failing.stop();
    const busy = startPolling(1_000, ['ok']);
    await vi.advanceTimersByTimeAsync(0);
    expect(expectedIntervalOf(busy.query())).toBe(1_000);
    busy.stop();
    expect(expectedIntervalOf(undefined)).toBeNull();
  });
});

describe('retryAfterOf', () => {
  it('reads retryAfterMs from rate-limited errors only', () => {
    expect(retryAfterOf(rateLimited(3_000))).toBe(3_000);
    expect(retryAfterOf(rateLimited())).toBeNull();
    expect(retryAfterOf(new AppError({ kind: 'server_error', message: 'x', retryAfterMs: 3_000 }))).toBeNull();
    expect(retryAfterOf(new Error('boom'))).toBeNull();
  });
});

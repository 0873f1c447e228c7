import { describe, expect, it } from 'vitest';
import type { ConnectionState } from '@shared/domain/session';
import { AppError } from '@shared/ipc/app-error';
import { DEFAULT_CADENCE } from '../../lib/cadence';
import { freshnessPromise } from '../../lib/polling-policy';
import { freshnessView, type FreshnessFacts } from './freshness-rule';

/**
 * The staleness rule with plain numbers: what a panel header says when its data is fresh,
 * old, failing, waiting on a poll stuck in main, or behind a degraded broker link.
 */

const T0 = Date.parse('2026-11-23T04:00:00Z');
const S = 1_000;
const IDLE = freshnessPromise(DEFAULT_CADENCE.idleMs); // polled every 5 s
const BUSY = freshnessPromise(DEFAULT_CADENCE.busyMs); // polled every second
const UP: ConnectionState = { rest: 'up', stream: 'open', detail: null };
const RATE_LIMITED_LINK: ConnectionState = {
  rest: 'degraded',
  stream: 'open',
  detail: 'Too many requests (injected fault); retry after the pause',
};
const rateLimited = new AppError({ kind: 'rate_limited', message: 'Too many requests', retryAfterMs: 1_000 });
const serverError = new AppError({ kind: 'server_error', message: 'HTTP 503' });

/** A panel polled every 5 s whose data arrived at T0, idle (no poll running), link up. */
function facts(over: Partial<FreshnessFacts>): FreshnessFacts {
  return {
    now: T0,
    dataUpdatedAt: T0,
    error: null,
    failureReason: null,
    fetchingSince: null,
    promise: IDLE,
    nextPollAt: T0 + 5 * S,
    link: UP,
    ...over,
  };
}

describe('freshnessView', () => {
  it('shows the age of data that is within its promise, not stale', () => {
    expect(freshnessView(facts({ now: T0 + 400 }))).toEqual({ stale: false, text: 'just now' });
    expect(freshnessView(facts({ now: T0 + 12 * S, fetchingSince: T0 + 10 * S }))).toEqual({
      stale: false,
      text: '12 s ago',
    });
  });

  it('says loading before the first answer, while that answer is not overdue', () => {
    expect(freshnessView(facts({ dataUpdatedAt: 0, fetchingSince: T0, now: T0 + 3 * S }))).toEqual({
      stale: false,
      text: 'loading…',
    });
  });

  it('turns a 5 s panel stale when its poll has had no reply for 11 s and no error (data 16 s old), naming the silence', () => {
    // The poll started 4 s after the data and has had no answer since: main is retrying or stuck.
    const view = freshnessView(facts({ now: T0 + 16 * S, fetchingSince: T0 + 5 * S }));
    expect(view).toEqual({ stale: true, text: 'Stale 16 s · No reply for 11 s' });
  });

  it('gives the rate-limited link as the reason while main is still retrying the poll', () => {
    const view = freshnessView(facts({ now: T0 + 20 * S, fetchingSince: T0 + 5 * S, link: RATE_LIMITED_LINK }));
    expect(view).toEqual({
      stale: true,
      text: 'Stale 20 s · Broker degraded (Too many requests (injected fault); retry after the pause) · retrying now',
    });
  });

  it('names a lost broker link with its network error', () => {
    const link: ConnectionState = { rest: 'down', stream: 'closed', detail: 'connect ECONNREFUSED 127.0.0.1:8750' };
    expect(freshnessView(facts({ now: T0 + 20 * S, fetchingSince: T0 + 5 * S, link })).text).toBe(
      'Stale 20 s · Connection to the broker lost (connect ECONNREFUSED 127.0.0.1:8750) · retrying now',
    );
  });

  it('turns stale when a poll has waited more than 10 s for its answer, even if the data is young for its promise', () => {
    // Polled every 30 s (the stream is live): 25 s old data is within the promise, but the poll
    // that should have refreshed it has been waiting 11 s.
    const slow = freshnessPromise(30 * S);
    expect(freshnessView(facts({ promise: slow, now: T0 + 25 * S, fetchingSince: T0 + 14 * S }))).toEqual({
      stale: true,
      text: 'Stale 25 s · No reply for 11 s',
    });
    expect(freshnessView(facts({ promise: slow, now: T0 + 25 * S, fetchingSince: T0 + 16 * S })).stale).toBe(false);
  });

  it('follows the panel’s interval: 40 s old data is fresh for a 30 s panel and stale for a 5 s one', () => {
    const at40 = { now: T0 + 40 * S, nextPollAt: T0 + 60 * S };
    expect(freshnessView(facts({ ...at40, promise: freshnessPromise(30 * S) }))).toEqual({
      stale: false,
      text: '40 s ago',
    });
    expect(freshnessView(facts({ ...at40, promise: IDLE })).stale).toBe(true);
  });

  it('holds a 30 s panel (the stream live) to its cadence plus a poll’s 10 s wait: stale past 40 s, not 90 s', () => {
    const live = freshnessPromise(30 * S);
    expect(live.maxAgeMs).toBe(40 * S);
    expect(freshnessView(facts({ promise: live, now: T0 + 41 * S, nextPollAt: T0 + 60 * S }))).toEqual({
      stale: true,
      text: 'Stale 41 s · refreshing in 19 s',
    });
    // Holdings, re-checked every 2 min with the stream live: stale past 2 min 10 s.
    expect(freshnessPromise(120 * S).maxAgeMs).toBe(130 * S);
  });

  it('does not cry wolf on a busy 1 s panel whose poll waited its turn for a few seconds', () => {
    expect(freshnessView(facts({ promise: BUSY, now: T0 + 6 * S, fetchingSince: T0 + S })).stale).toBe(false);
    expect(freshnessView(facts({ promise: BUSY, now: T0 + 11 * S, fetchingSince: T0 + S })).stale).toBe(true);
  });

  it('gives the failed poll’s error ahead of the link, and when the next attempt is due', () => {
    const view = freshnessView(
      facts({ now: T0 + 7 * S, error: rateLimited, nextPollAt: T0 + 15 * S, link: RATE_LIMITED_LINK }),
    );
    expect(view).toEqual({ stale: true, text: 'Stale 7 s · Rate limited by the broker · retrying in 8 s' });
  });

  it('is stale while the renderer retries a failed attempt, before any final error', () => {
    const view = freshnessView(facts({ now: T0 + 2 * S, fetchingSince: T0 + S, failureReason: serverError }));
    expect(view).toEqual({ stale: true, text: 'Stale 2 s · The broker is having trouble · retrying now' });
  });

  it('says "No data" when a panel never had any', () => {
    expect(freshnessView(facts({ dataUpdatedAt: 0, error: serverError, now: T0 + S })).text).toBe(
      'No data · The broker is having trouble · retrying in 4 s',
    );
    expect(freshnessView(facts({ dataUpdatedAt: 0, now: T0 + 12 * S, fetchingSince: T0 })).text).toBe(
      'No data · No reply for 12 s',
    );
  });

  it('says a panel back from a hidden window is refreshing its old data', () => {
    // Hidden for a minute (no polls), shown 300 ms ago: the refetch is on its way.
    const view = freshnessView(facts({ now: T0 + 60 * S, fetchingSince: T0 + 60 * S - 300, nextPollAt: null }));
    expect(view).toEqual({ stale: true, text: 'Stale 1 min · refreshing now' });
  });

  it('never turns data stale by age alone when nothing polls it', () => {
    expect(freshnessView(facts({ promise: null, now: T0 + 600 * S, nextPollAt: null }))).toEqual({
      stale: false,
      text: '10 min ago',
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { UpdateStatus } from '@shared/domain/update';
import { UPDATE_RECHECK_MS, UpdateNotice } from './update-notice';

const FEED = 'https://updates.example/tradedesk.json';

/** A notice on a feed the test answers, its timers held until the test runs them. */
function noticeOn(answers: Array<{ status: number; body: unknown } | Error>) {
  const seen: UpdateStatus[] = [];
  const timers: Array<{ fn: () => void; ms: number; cancelled: boolean }> = [];
  let reads = 0;
  const notice = new UpdateNotice({
    feedUrl: FEED,
    currentVersion: '0.1.0',
    fetch: () => {
      const a = answers[Math.min(reads++, answers.length - 1)]!;
      if (a instanceof Error) return Promise.reject(a);
      return Promise.resolve({ ok: a.status < 300, status: a.status, json: () => Promise.resolve(a.body) });
    },
    onChange: (s) => seen.push(s),
    now: () => 1_000,
    setTimer: (fn, ms) => {
      const t = { fn, ms, cancelled: false };
      timers.push(t);
      return () => {
        t.cancelled = true;
      };
    },
  });
  return { notice, seen, timers, reads: () => reads };
}

describe("the header's update notice", () => {
  it('announces a newer version from the feed read at start, and reads it again hours later', async () => {
    const { notice, seen, timers, reads } = noticeOn([
      { status: 200, body: { version: '0.1.0', url: 'https://updates.example/a' } },
      { status: 200, body: { version: '0.2.0', url: 'https://updates.example/b', notes: 'Fixes' } },
    ]);
    expect(notice.status()).toEqual({ kind: 'checking' });
    await notice.start();
    expect(notice.status()).toEqual({ kind: 'current', version: '0.1.0', checkedAt: 1_000 });
    expect(timers).toHaveLength(1);
    expect(timers[0]!.ms).toBe(UPDATE_RECHECK_MS);
    timers[0]!.fn();
    await expect.poll(() => seen.length).toBe(2);
    expect(notice.status()).toEqual({
      kind: 'available',
      version: '0.2.0',
      url: 'https://updates.example/b',
      notes: 'Fixes',
      checkedAt: 1_000,
    });
    expect(reads()).toBe(2);
  });

  it('says why a feed could not be read, and tries again at the next turn', async () => {
    const { notice, timers } = noticeOn([new Error('getaddrinfo ENOTFOUND updates.example')]);
    await notice.start();
    expect(notice.status()).toMatchObject({ kind: 'failed', reason: expect.stringContaining('ENOTFOUND') });
    expect(timers).toHaveLength(1);
  });

  it('reads nothing more once closed', async () => {
    const { notice, timers } = noticeOn([
      { status: 200, body: { version: '0.1.0', url: 'https://updates.example/a' } },
    ]);
    await notice.start();
    notice.close();
    expect(timers[0]!.cancelled).toBe(true);
  });
});

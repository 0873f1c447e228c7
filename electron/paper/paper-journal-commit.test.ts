import { describe, expect, it } from 'vitest';
import { Journal } from './journal';
import { tempDirs } from './testing/temp-dirs';

/**
 * Group commit (docs/api.md §Persistence): a reply waits until what it changed is on disk, and
 * one fdatasync serves every request that appended while the previous one ran.
 */

const tmp = tempDirs('paper-commit-');

const mark = (n: number) => ({ e: 'marks' as const, prices: { '1': n }, at: n });

describe('journal group commit', () => {
  it('lines appended while a sync runs wait for the next sync, which serves all of them at once', async () => {
    const { journal } = Journal.open(tmp());
    try {
      journal.append(mark(1));
      const first = journal.durable();
      // Ten more requests append while the first sync is in flight: it does not cover them.
      const later = Array.from({ length: 10 }, (_, i) => {
        journal.append(mark(i + 2));
        return journal.durable();
      });
      await Promise.all([first, ...later]);
      expect(journal.syncs).toBe(2);
      // Nothing appended since: no sync is made for a caller with nothing to wait for.
      await journal.durable();
      expect(journal.syncs).toBe(2);
    } finally {
      await journal.settle();
      journal.close();
    }
  });

  it('a push held for the disk goes out once its lines are synced, in the order queued, and at once when nothing waits', async () => {
    const { journal } = Journal.open(tmp());
    try {
      const sent: string[] = [];
      journal.append(mark(1));
      journal.whenDurable(() => sent.push('first'));
      journal.append(mark(2));
      journal.whenDurable(() => sent.push('second'));
      // Not before the sync: a crash now would lose both lines.
      expect(sent).toEqual([]);
      await journal.durable();
      expect(sent).toEqual(['first', 'second']);
      journal.whenDurable(() => sent.push('third'));
      expect(sent).toEqual(['first', 'second', 'third']);
    } finally {
      await journal.settle();
      journal.close();
    }
  });
});

import { appendFile, chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildChild } from '../testing/build-child';
import { JOURNAL_KILL_POINTS, runChild } from '../testing/run-child';
import { DurableJournal, journalLine, readByFormat, type JournalStep, type Unreadable } from './durable-journal';

/** A record of the test journal: format 2 today; format 1 had no `v` and called `n` `num`. */
interface N {
  readonly v: 2;
  readonly n: number;
}
const read = (json: unknown): N | Unreadable =>
  readByFormat<N>(json, 2, {
    2: (j) => (typeof (j as N).n === 'number' ? (j as N) : { why: 'no n' }),
    1: (j) => {
      const num = (j as { num?: unknown }).num;
      return typeof num === 'number' ? { v: 2, n: num } : { why: 'no num' };
    },
  });
const numbers = (records: readonly N[]): number[] => records.map((r) => r.n);

describe('durable journal', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-journal-'));
    file = join(dir, 'data', 'test.jsonl');
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  const open = (onUnreadable?: (count: number, keptIn: string) => void) =>
    DurableJournal.open<N>(file, { name: 'test journal', read, ...(onUnreadable ? { onUnreadable } : {}) });

  it('reads back what was appended, an earlier format migrated; a newer format, a changed digit or a foreign line are moved aside and reported at every open', async () => {
    const a = await open();
    await Promise.all([1, 2, 3].map((n) => a.journal.append({ v: 2, n })));
    await a.journal.close();
    const lines = (await readFile(file, 'utf8')).split('\n');
    // A digit changed on disk: still JSON, still a record, but not the one written.
    const changed = (lines[1] ?? '').replace('"n":2', '"n":7');
    await writeFile(
      file,
      `${lines[0]}\n${changed}\n${lines[2]}\n{"num":4}\n{"v":3,"n":5}\nnot a journal line\n${journalLine({ v: 2, n: 6 })}`,
    );
    const warned: string[] = [];
    const b = await open((count, keptIn) => warned.push(`${count} ${keptIn}`));
    expect(numbers(b.records)).toEqual([1, 3, 4, 6]);
    expect(b.journal.unreadable()).toEqual({ count: 3, keptIn: `${file}.unreadable` });
    expect(warned).toEqual([`3 ${file}.unreadable`]);
    expect(await readFile(`${file}.unreadable`, 'utf8')).toBe(`${changed}\n{"v":3,"n":5}\nnot a journal line\n`);
    expect(b.journal.rewriteDue).toBe(true);
    await b.journal.rewrite(() => b.records);
    expect(b.journal.rewriteDue).toBe(false);
    await b.journal.close();
    const c = await open(() => warned.push('again'));
    expect(numbers(c.records)).toEqual([1, 3, 4, 6]);
    expect(c.journal.unreadable()).toEqual({ count: 3, keptIn: `${file}.unreadable` });
    expect(warned).toHaveLength(1);
    await c.journal.close();
  });

  it('cuts a torn last line, so the next record is a line of its own', async () => {
    const a = await open();
    await a.journal.append({ v: 2, n: 1 });
    await a.journal.close();
    await appendFile(file, journalLine({ v: 2, n: 2 }).slice(0, 15));
    const b = await open();
    expect(numbers(b.records)).toEqual([1]);
    await b.journal.append({ v: 2, n: 3 });
    await b.journal.close();
    const c = await open();
    expect(numbers(c.records)).toEqual([1, 3]);
    expect(c.journal.unreadable()).toBeNull();
    await c.journal.close();
  });

  it('is the trader’s alone: the file and side file 0600, the folder 0700, and a file an older version left 0644 is tightened at open', async () => {
    if (process.platform === 'win32') return;
    const a = await open();
    await a.journal.append({ v: 2, n: 1 });
    await a.journal.close();
    await appendFile(file, 'not a journal line\n');
    await chmod(file, 0o644);
    const b = await open(() => undefined);
    await b.journal.rewrite(() => b.records);
    await b.journal.close();
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(`${file}.unreadable`)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'data'))).mode & 0o777).toBe(0o700);
  });
});

/** Runs the journal child until it SIGKILLs itself at `step` #`occurrence`; the records it had confirmed. */
async function runUntilKilled(script: string, file: string, step: JournalStep, occurrence: number): Promise<number[]> {
  const run = await runChild(script, [file, step, String(occurrence)]);
  if (!run.killed) throw new Error(`the child was not killed at ${step} #${occurrence}`);
  return run.said('appended').map((n) => Number(n.slice(1)));
}

/** The child's records (`testing/journal-child.ts`): `{v: 1, n}`. */
const readChild = (json: unknown): N | Unreadable => {
  const n = (json as { n?: unknown }).n;
  return typeof n === 'number' ? { v: 2, n } : { why: 'no n' };
};

describe('durable journal in a process killed with SIGKILL', () => {
  let dir: string;
  let script: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-journal-kill-'));
    script = await buildChild('journal-child', dir);
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it.each(JOURNAL_KILL_POINTS)(
    'killed at %s #%i: every record it confirmed is read back, nothing unreadable, and the next record is readable',
    async (step, occurrence) => {
      const file = join(dir, `${step}-${occurrence}.jsonl`);
      const confirmed = await runUntilKilled(script, file, step, occurrence);
      expect(confirmed.length).toBeGreaterThan(0);
      const a = await DurableJournal.open<N>(file, { name: 'test journal', read: readChild });
      const found = numbers(a.records);
      for (const n of confirmed) expect(found, `lost n${n}`).toContain(n);
      // A record whose append was never confirmed may be there (its batch was written); no other.
      const inFlight = Math.max(...confirmed) + 3;
      for (const n of found) expect(n).toBeLessThanOrEqual(inFlight);
      expect(new Set(found).size, 'a record read twice').toBe(found.length);
      expect(a.journal.unreadable()).toBeNull();
      await a.journal.append({ v: 2, n: 1000 });
      await a.journal.close();
      const b = await DurableJournal.open<N>(file, { name: 'test journal', read: readChild });
      expect(numbers(b.records)).toEqual([...found, 1000]);
      await b.journal.close();
    },
  );
});

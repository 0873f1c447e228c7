import { expect } from '@playwright/test';

/**
 * Proves that something does NOT happen: `read()` keeps returning `expected` for `ms`.
 *
 * This is the one kind of check that has to spend a bounded stretch of wall time — absence
 * cannot be waited for — so the duration is an argument, chosen and stated at the call site
 * (e.g. "longer than the idle poll interval"). Anything that should happen is waited for as a
 * condition instead. It fails as soon as the value changes, naming `what`.
 */
export async function expectUnchangedFor<T>(
  what: string,
  read: () => T | Promise<T>,
  expected: T,
  ms: number,
): Promise<void> {
  const until = Date.now() + ms;
  let changed: T | undefined;
  await expect
    .poll(
      async () => {
        const value = await read();
        if (value !== expected) changed = value;
        if (changed !== undefined) return `changed to ${String(changed)}`;
        return Date.now() >= until ? 'unchanged' : 'watching';
      },
      { message: `${what}: expected ${String(expected)} for ${ms} ms`, intervals: [100], timeout: ms + 5_000 },
    )
    .toMatch(/^(unchanged|changed)/);
  expect(changed, `${what}: changed within ${ms} ms`).toBeUndefined();
}

/**
 * Proves that a count grows by at most `most` during `ms` (a desk that polls rarely): like
 * `expectUnchangedFor`, a bounded stretch of wall time stated at the call site, failing as soon
 * as the count passes the bound.
 */
export async function expectAtMostFor(what: string, read: () => number, most: number, ms: number): Promise<void> {
  const start = read();
  const until = Date.now() + ms;
  await expect
    .poll(
      () => {
        if (read() - start > most) return 'exceeded';
        return Date.now() >= until ? 'held' : 'watching';
      },
      { message: `${what}: expected at most ${most} in ${ms} ms`, intervals: [100], timeout: ms + 5_000 },
    )
    .toMatch(/^(held|exceeded)$/);
  expect(read() - start, `${what} within ${ms} ms`).toBeLessThanOrEqual(most);
}

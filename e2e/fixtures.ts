import { test as base, expect } from '@playwright/test';
import { startHost, type HostHandle } from './host-process';

export { startHost, type HostHandle };

/** Tests share one host per worker; a spec that needs a fresh one calls `startHost` itself. */
export const test = base.extend<object, { host: HostHandle }>({
  host: [
    async ({}, use) => {
      const { handle, stop } = await startHost();
      await use(handle);
      await stop();
    },
    { scope: 'worker' },
  ],
});

/**
 * A host of the calling spec file's own whose paper market moves only when a test moves it (no
 * ticks: fill prices and the book stay where the test put them). Started before the file's
 * first test, stopped after its last; call at the top level of the spec.
 */
export function quietHostPerFile(): () => HostHandle {
  let quiet: { handle: HostHandle; stop: () => Promise<void> } | null = null;
  test.beforeAll(async () => {
    quiet = await startHost(['--paper-tick-ms', '0']);
  });
  test.afterAll(async () => {
    await quiet?.stop();
  });
  return () => {
    if (!quiet) throw new Error('the quiet host starts in beforeAll');
    return quiet.handle;
  };
}

/**
 * Like `quietHostPerFile`, but a host of each test's own (limits, positions and the day's figures
 * never leak between tests). Call at the top level of the spec.
 */
export function quietHostPerTest(): () => HostHandle {
  let quiet: { handle: HostHandle; stop: () => Promise<void> } | null = null;
  test.beforeEach(async () => {
    quiet = await startHost(['--paper-tick-ms', '0']);
  });
  test.afterEach(async () => {
    await quiet?.stop();
    quiet = null;
  });
  return () => {
    if (!quiet) throw new Error('the quiet host starts in beforeEach');
    return quiet.handle;
  };
}

export { expect };

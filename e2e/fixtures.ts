import { test as base, expect } from '@playwright/test';
import { Desk, deskOn } from './desk';
import { startHost, type HostHandle } from './host-process';

export { Desk, deskOn, startHost, type HostHandle };

/**
 * Tests share one host per worker (`host`); a spec that needs a fresh one calls `startHost`
 * itself. `desk` is the test's page on that host (e2e/desk.ts): open it, trade from the ticket,
 * move the paper market.
 */
export const test = base.extend<{ desk: Desk }, { host: HostHandle }>({
  host: [
    async ({}, use) => {
      const { handle, stop } = await startHost();
      await use(handle);
      await stop();
    },
    { scope: 'worker' },
  ],
  desk: async ({ page, host }, use) => {
    await use(deskOn(page, host));
  },
});

/**
 * A host whose paper market moves only when a test moves it (no ticks: fill prices and the book
 * stay where the test put them), started and stopped around each test or around the spec file.
 * Call at the top level of the spec.
 */
function quietHost(per: 'file' | 'test'): () => HostHandle {
  let quiet: { handle: HostHandle; stop: () => Promise<void> } | null = null;
  (per === 'file' ? test.beforeAll : test.beforeEach)(async () => {
    quiet = await startHost(['--paper-tick-ms', '0']);
  });
  (per === 'file' ? test.afterAll : test.afterEach)(async () => {
    await quiet?.stop();
    quiet = null;
  });
  return () => {
    if (!quiet) throw new Error(`the quiet host starts before each ${per}`);
    return quiet.handle;
  };
}

/** A quiet host of the calling spec file's own, shared by its tests. */
export const quietHostPerFile = (): (() => HostHandle) => quietHost('file');

/** A quiet host of each test's own: limits, positions and the day's figures never leak between tests. */
export const quietHostPerTest = (): (() => HostHandle) => quietHost('test');

export { expect };

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

export { expect };

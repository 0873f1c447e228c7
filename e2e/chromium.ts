import type { LaunchOptions } from '@playwright/test';

/**
 * How Chromium is launched for the e2e specs (playwright.config.ts) and the benches that drive the
 * renderer: Debian's Chromium (`CHROMIUM_PATH` points elsewhere; never Playwright's own browser
 * download), no sandbox and no GPU (containers without either), and none of the browser's own
 * background traffic — updates, sync, first-run pages, QUIC probes — beside what a spec checks or
 * a bench measures. `extraArgs` for what one run needs besides (a bench's precise memory figures).
 */
export function chromiumLaunchOptions(extraArgs: readonly string[] = []): LaunchOptions {
  return {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      ...extraArgs,
    ],
  };
}

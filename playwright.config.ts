import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './e2e/chromium';

/**
 * End-to-end tests drive the real renderer in Debian's Chromium against the real main-process
 * services, hosted by the browser host (no Electron binary can run on these machines; the
 * Electron spec runs where one exists). Never Playwright's own browser download.
 */
export default defineConfig({
  testDir: './e2e',
  timeout: 45_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1, // 2 cores: one host + one Chromium at a time keeps timings sane
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  outputDir: 'test-results',
  use: {
    trace: 'off',
    viewport: { width: 1440, height: 900 },
    launchOptions: chromiumLaunchOptions(),
  },
});

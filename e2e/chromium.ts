import type { LaunchOptions } from '@playwright/test';

/**
 * The features Playwright itself turns off (its `chromiumSwitches`, as of the pinned 1.65), which
 * it passes as one `--disable-features`. Chromium keeps only the last `--disable-features` on its
 * command line, so ours must carry these too or it would turn them back on;
 * e2e/chromium-launch.spec.ts fails when a Playwright upgrade adds one that is not here.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * The browser's own address-bar popup, which Chromium 156 (headless too) loads as two WebUI pages
 * in a renderer of their own for every new window, ahead of being asked: about half a second of
 * a core at each page a spec or bench opens — as much CPU as the desk's own first paint, beside
 * it (docs/benchmarks.md §Measured: first paint with the browser's own popup gone). An Electron window has no address bar, so nothing measured here should
 * pay for one.
 */
const NO_ADDRESS_BAR_POPUP = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * How Chromium is launched for the e2e specs (playwright.config.ts) and the benches that drive the
 * renderer: Debian's Chromium (`CHROMIUM_PATH` points elsewhere; never Playwright's own browser
 * download), no sandbox and no GPU (containers without either), and none of the browser's own
 * background work — updates, sync, first-run pages, QUIC probes, the address bar's popup — beside
 * what a spec checks or a bench measures. `extraArgs` for what one run needs besides (a bench's
 * precise memory figures).
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
      `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...NO_ADDRESS_BAR_POPUP].join(',')}`,
      ...extraArgs,
    ],
  };
}

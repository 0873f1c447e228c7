import { chromium, expect, test } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium';

/**
 * The browser every spec and bench runs is the one e2e/chromium.ts launches: nothing of the
 * browser's own beside the page, and Playwright's own settings kept.
 */

test("a new window opens no page of the browser's own beside the desk (the address bar's popup)", async ({
  browser,
}) => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto('data:text/html,<title>desk</title>');
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = (await cdp.send('Target.getTargets')) as {
      targetInfos: Array<{ type: string; url: string }>;
    };
    await cdp.detach();
    expect(targetInfos.filter((t) => t.url.startsWith('chrome://')).map((t) => t.url)).toEqual([]);
  } finally {
    await context.close();
  }
});

test("our --disable-features keeps every feature Playwright's own turns off (Chromium keeps only the last)", async () => {
  const server = await chromium.launchServer(chromiumLaunchOptions());
  try {
    const lists = server
      .process()
      .spawnargs.filter((a) => a.startsWith('--disable-features='))
      .map((a) => a.slice('--disable-features='.length).split(','));
    const last = new Set(lists.at(-1));
    expect(lists.length).toBeGreaterThan(1);
    expect(lists.flat().filter((f) => !last.has(f))).toEqual([]);
  } finally {
    await server.close();
  }
});

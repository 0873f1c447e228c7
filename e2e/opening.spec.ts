import { expect, test } from './fixtures';

/**
 * What the main window shows before the desk's code has run: index.html's own words, from the
 * page's first paint, until React's first render replaces them (docs/live-data.md §The first
 * screen first). The desk's script is held back here, then let go.
 */
test("the window says it is opening the desk until the desk's code has run, then shows the desk", async ({
  page,
  host,
}) => {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(host.url, { waitUntil: 'commit' });
  await expect(page.getByRole('status').filter({ hasText: 'Opening the desk…' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Orders' })).toHaveCount(0);

  release();
  await expect(page.getByRole('status').filter({ hasText: /Connected to/ })).toBeVisible();
  await expect(page.getByText('Opening the desk…')).toHaveCount(0);
});

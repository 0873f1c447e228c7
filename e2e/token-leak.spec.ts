import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';

/** Every file under a directory, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

test('the broker token appears nowhere in the renderer: bundle, DOM, storage, bridge traffic', async ({
  page,
  host,
}) => {
  const frames: string[] = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => frames.push(String(f.payload)));
    ws.on('framereceived', (f) => frames.push(String(f.payload)));
  });

  await page.goto(host.url);
  await expect(page.getByRole('status')).toContainText(/Connected to/);
  await expect(page.getByRole('table', { name: 'Instruments' }).getByRole('row').nth(1)).toBeVisible();

  // Ask the paper side which tokens it issued to the main process.
  const res = await fetch(`${host.paperUrl}/_control/sessions`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { sessions: Array<{ access_token: unknown }> };
  const tokens = body.sessions.map((s) => s.access_token);
  expect(tokens.every((t): t is string => typeof t === 'string')).toBe(true);
  expect(tokens.length).toBeGreaterThan(0);

  const dom = await page.content();
  const storage = await page.evaluate(() => {
    const dump = (s: Storage) =>
      Object.keys(s)
        .map((k) => `${k}=${s.getItem(k)}`)
        .join('\n');
    return [
      dump(localStorage),
      dump(sessionStorage),
      document.cookie,
      JSON.stringify(performance.getEntries().map((e) => e.name)),
    ].join('\n');
  });
  const bundle = filesUnder('out/renderer')
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  expect(frames.length).toBeGreaterThan(0);
  const traffic = frames.join('\n');

  for (const token of tokens as string[]) {
    expect(token.length).toBeGreaterThan(8);
    expect(dom.includes(token), 'token in the DOM').toBe(false);
    expect(storage.includes(token), 'token in web storage, cookies or resource URLs').toBe(false);
    expect(traffic.includes(token), 'token in bridge WebSocket frames').toBe(false);
    expect(bundle.includes(token), 'token in the renderer bundle').toBe(false);
  }
});

import type { Page } from '@playwright/test';
import { controlHeaders, openDashboard, setFaults } from './dashboard-helpers';
import { expect, test, type HostHandle } from './fixtures';

/**
 * The broker token lives only in the main process (docs/architecture.md §Security): it must
 * never reach the renderer — not in a bridge frame, the DOM, web storage, cookies, resource
 * URLs or the console — at login, across a silent mid-session re-login, through an expired
 * session, or after logging in again.
 *
 * (A search of the built bundle is not here: a token minted at run time can never be in the
 * build output, so that check could not fail.)
 */

interface IssuedSession {
  readonly access_token: string;
  readonly active: boolean;
}

/** Every session the embedded paper broker has issued, live or not (test code only). */
async function issued(host: HostHandle): Promise<IssuedSession[]> {
  const res = await fetch(`${host.paperUrl}/_control/sessions`, { headers: controlHeaders(host) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { sessions: IssuedSession[] }).sessions;
}

/** What the renderer holds right now: its DOM, web storage, cookies and the URLs it fetched. */
async function rendererState(page: Page): Promise<string> {
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
  return `${dom}\n${storage}`;
}

test('no broker token reaches the renderer: at login, across a re-login, through an expired session and after logging in again', async ({
  page,
  host,
}) => {
  test.setTimeout(180_000);
  const frames: string[] = [];
  const seen: Array<{ when: string; text: string }> = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => frames.push(String(f.payload)));
    ws.on('framereceived', (f) => frames.push(String(f.payload)));
  });
  page.on('console', (m) => seen.push({ when: 'console', text: m.text() }));
  const look = async (when: string): Promise<void> => {
    seen.push({ when, text: await rendererState(page) });
  };
  const status = page.getByRole('status');
  const expiredAlert = page.getByRole('alert').filter({ hasText: /^Session expired/ });
  const dialog = page.getByRole('dialog', { name: 'Log in to a broker' });

  try {
    await openDashboard(page, host);
    await expect(page.getByRole('table', { name: 'Instruments' }).getByRole('row').nth(1)).toBeVisible();
    await look('logged in');

    // Mid-session re-login: the broker drops the token main holds (as a revocation or a server
    // restart would); main's next call gets a 401, logs in once more, and the desk carries on.
    const before = await issued(host);
    const live = before.filter((s) => s.active);
    expect(live.length).toBeGreaterThan(0);
    for (const s of live) {
      const r = await fetch(`${host.paperUrl}/session`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${s.access_token}` },
      });
      expect(r.status).toBe(204);
    }
    await expect.poll(async () => (await issued(host)).filter((s) => s.active).length, { timeout: 30_000 }).toBe(1);
    await expect(status).toContainText(/Connected to .+ as \S+/);
    await expect(expiredAlert).toHaveCount(0);
    await expect(dialog).toHaveCount(0);
    await look('after the re-login');

    // Expired session: the broker now refuses every token, so main's one re-login fails too,
    // and the renderer is told the session expired (banner and login dialog).
    // Main learns it at its next REST call: with the stream live the desk polls every 30 s, and a
    // poll may wait its turn for up to 10 s more (docs/live-data.md §The cadence).
    await setFaults(host, { token_expiry: 1 });
    await expect(dialog).toBeVisible({ timeout: 60_000 });
    await expect(expiredAlert).toBeVisible();
    await look('session expired');
    const atExpiry = (await issued(host)).length;

    // Logging in again through the dialog.
    await setFaults(host, {});
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await expect(dialog).toBeHidden();
    await expect(status).toContainText(/Connected to .+ as \S+/);
    expect((await issued(host)).length, 'logging in again issues a new token').toBeGreaterThan(atExpiry);
    await look('logged in again');
  } finally {
    await setFaults(host, {});
  }

  // Every token the broker issued: the first login's, the re-login's, any the expiry refused, the new login's.
  const tokens = (await issued(host)).map((s) => s.access_token);
  expect(frames.length).toBeGreaterThan(0);
  const traffic = frames.join('\n');
  for (const token of tokens) {
    expect(token.length).toBeGreaterThan(8);
    expect(traffic.includes(token), 'a token in a bridge WebSocket frame').toBe(false);
    for (const { when, text } of seen) {
      expect(text.includes(token), `a token in the renderer (${when}): DOM, storage, cookies, URLs or console`).toBe(
        false,
      );
    }
  }
});

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIRECT, startUpstoxTest, type UpstoxTest } from '../paper/upstox/test-upstox';
import { createAppServices, type AppServices } from './app-services';
import type { Dispatch } from './dispatcher';
import { recordingDispatch } from './testing/app-on-paper';

/** The Upstox app's secret: a canary no reply, event or file other than the vault may ever hold. */
const SECRET = 'CANARY-upstox-secret-7d2a91';

/** An access token the way a trader gets one outside the app (the dialog, then the exchange). */
async function accessToken(t: UpstoxTest): Promise<string> {
  const code = (await t.authorize()).searchParams.get('code') ?? '';
  const r = await fetch(`${t.root}/v2/login/authorization/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      code,
      client_id: 'paper',
      client_secret: SECRET,
      redirect_uri: REDIRECT,
      grant_type: 'authorization_code',
    }).toString(),
  });
  return ((await r.json()) as { access_token: string }).access_token;
}

let t: UpstoxTest;
let dir: string;
let services: AppServices;
let dispatch: Dispatch;
/** Every reply and every event the renderer could have received, as it would (JSON). */
const seen: string[] = [];

beforeAll(async () => {
  t = await startUpstoxTest({ apiSecret: SECRET });
  dir = await mkdtemp(join(tmpdir(), 'td-upstox-app-'));
  services = await createAppServices({
    dataDir: dir,
    brokerUrl: t.root,
    broker: 'upstox',
    apiKey: 'paper',
    accessToken: await accessToken(t),
    // Any free port: the paper dialog takes whatever redirect URL the app names.
    kiteRedirectPort: 0,
  });
  dispatch = recordingDispatch(services, seen);
});
afterAll(async () => {
  await services.close();
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('logging in to Upstox through its page (the paper broker’s /upstox)', () => {
  it('the dialog’s redirect with the right state reaches main, whose code is exchanged with the redirect URL it was issued for', async () => {
    const before = t.api.broker.sessions().length;
    const started = await dispatch('session.loginPage', {
      profile: { kind: 'upstox', baseUrl: t.root, apiKey: 'paper', apiSecret: SECRET },
    });
    if (!started.ok) throw new Error(started.error.message);
    const loginUrl = new URL((started.data as { loginUrl: string }).loginUrl);
    expect(`${loginUrl.origin}${loginUrl.pathname}`).toBe(`${t.root}/v2/login/authorization/dialog`);
    expect(loginUrl.searchParams.get('client_id')).toBe('paper');
    expect(loginUrl.searchParams.get('response_type')).toBe('code');
    const redirect = new URL(loginUrl.searchParams.get('redirect_uri') ?? '');
    expect(redirect.pathname).toBe('/upstox/callback');
    // A forged redirect (wrong state) is refused and does not cancel the login under way.
    const forged = await fetch(`${redirect.origin}/upstox/callback?code=abc&state=nope`);
    expect(forged.status).toBe(400);
    // The browser follows Upstox's dialog to the loopback callback.
    const page = await fetch(loginUrl);
    expect(await page.text()).toContain('Logged in to Upstox');
    expect(page.status).toBe(200);
    expect(t.api.broker.sessions().length).toBe(before + 1);
    expect(await dispatch('session.status', undefined)).toMatchObject({
      ok: true,
      data: { state: 'connected', broker: 'upstox' },
    });
    const stored = JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8')) as { profile?: { kind: string } };
    expect(stored.profile?.kind).toBe('upstox');
    // The same redirect again (a replayed URL) is not accepted: each state works once.
    expect((await fetch(page.url)).status).toBe(400);
  });

  it('the secret and the access tokens never come back to the renderer, nor into the settings file', async () => {
    const tokens = t.api.broker.sessions().map((s) => s.token);
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    const all = seen.join('\n');
    const settings = await readFile(join(dir, 'settings.json'), 'utf8');
    for (const secret of [SECRET, ...tokens]) {
      expect(all).not.toContain(secret);
      expect(settings).not.toContain(secret);
    }
  });
});

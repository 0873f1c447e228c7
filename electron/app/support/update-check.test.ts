import { describe, expect, it } from 'vitest';
import { checkForUpdate, updateNotice } from './update-check';

const FEED = 'https://updates.example/tradedesk.json';

/** A feed that answers `body` with `status`, as fetch would. */
function feed(body: unknown, status = 200) {
  return () => Promise.resolve({ ok: status < 300, status, json: () => Promise.resolve(body) });
}

describe('the update check', () => {
  it('announces a newer version with where to get it, and the header says so', async () => {
    const check = await checkForUpdate({
      feedUrl: FEED,
      currentVersion: '0.1.0',
      fetch: feed({ version: '0.2.0', url: 'https://updates.example/tradedesk-0.2.0.AppImage', notes: 'Fixes' }),
    });
    expect(check).toEqual({
      kind: 'available',
      version: '0.2.0',
      url: 'https://updates.example/tradedesk-0.2.0.AppImage',
      notes: 'Fixes',
    });
    expect(updateNotice(check)).toBe(
      'Tradedesk 0.2.0 is available. It installs only when you choose, never during open work.',
    );
  });

  it.each([
    ['the same version', '0.1.0'],
    ['an older version', '0.0.9'],
    ['a pre-release of this version', '0.1.0-beta.1'],
  ])('says nothing for %s', async (_, version) => {
    const check = await checkForUpdate({
      feedUrl: FEED,
      currentVersion: '0.1.0',
      fetch: feed({ version, url: 'https://updates.example/x' }),
    });
    expect(check).toEqual({ kind: 'current', version: '0.1.0' });
    expect(updateNotice(check)).toBeNull();
  });

  it.each([
    ['a version that is not one', { version: 'latest', url: 'https://u.example/x' }, "feed's version must be"],
    ['a download over plain http', { version: '9.0.0', url: 'http://u.example/x' }, "feed's url must be an https URL"],
    ['no version at all', { url: 'https://u.example/x' }, "feed's version"],
  ])('refuses %s, naming the field', async (_, body, reason) => {
    const check = await checkForUpdate({ feedUrl: FEED, currentVersion: '0.1.0', fetch: feed(body) });
    expect(check.kind).toBe('failed');
    expect(check.kind === 'failed' && check.reason).toContain(reason);
    expect(updateNotice(check)).toBeNull();
  });

  it('reports a feed that fails or cannot be reached, and never throws', async () => {
    expect(await checkForUpdate({ feedUrl: FEED, currentVersion: '0.1.0', fetch: feed({}, 503) })).toEqual({
      kind: 'failed',
      reason: 'the update feed answered HTTP 503',
    });
    const unreachable = await checkForUpdate({
      feedUrl: FEED,
      currentVersion: '0.1.0',
      fetch: () => Promise.reject(new Error('getaddrinfo ENOTFOUND updates.example')),
    });
    expect(unreachable).toEqual({
      kind: 'failed',
      reason: 'the update feed could not be read: getaddrinfo ENOTFOUND updates.example',
    });
  });
});

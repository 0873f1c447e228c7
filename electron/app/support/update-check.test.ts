import { describe, expect, it } from 'vitest';
import { checkForUpdate, configuredFeed, updateMessage, updateNotice } from './update-check';

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

describe('the update feed setting and the message after a check', () => {
  it.each<[string, string | undefined, ReturnType<typeof configuredFeed>]>([
    ['absent: no check', undefined, { ok: true, url: null }],
    ['an https address', ' https://updates.example/feed.json ', { ok: true, url: 'https://updates.example/feed.json' }],
    [
      'plain http, refused naming the setting',
      'http://updates.example/feed.json',
      { ok: false, error: 'TRADEDESK_UPDATE_FEED must be an https URL, got "http://updates.example/feed.json"' },
    ],
  ])('%s', (_, value, expected) => {
    expect(configuredFeed({ TRADEDESK_UPDATE_FEED: value })).toEqual(expected);
  });

  const available = { kind: 'available', version: '0.2.0', url: 'https://u.example/t.AppImage', notes: null } as const;

  it('tells the trader what an install would wait for, or that nothing is open', () => {
    expect(updateMessage(available, ['1 order not yet confirmed']).detail).toBe(
      'Download: https://u.example/t.AppImage\n\nInstall it after: 1 order not yet confirmed.',
    );
    expect(updateMessage(available, []).detail).toContain('Nothing is open on the desk: you can install it now.');
  });

  it('says why a check failed', () => {
    expect(updateMessage({ kind: 'failed', reason: 'the update feed answered HTTP 503' }, [])).toEqual({
      title: 'Could not check for updates',
      detail: 'Because the update feed answered HTTP 503.',
    });
  });
});

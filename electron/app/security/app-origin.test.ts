import { describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { APP_ORIGIN, isTrustedUrl, resolveAppAsset } from './app-origin';

const root = resolve('/srv/renderer');

describe('resolveAppAsset (app:// protocol)', () => {
  it('serves files under the renderer root', () => {
    expect(resolveAppAsset(`${APP_ORIGIN}/index.html`, root)).toBe(join(root, 'index.html'));
    expect(resolveAppAsset(`${APP_ORIGIN}/assets/app-1.js`, root)).toBe(join(root, 'assets/app-1.js'));
    expect(resolveAppAsset(`${APP_ORIGIN}/`, root)).toBe(join(root, 'index.html'));
  });

  it('never resolves outside the root, whatever the encoding', () => {
    const attempts = [
      `${APP_ORIGIN}/../../etc/passwd`,
      `${APP_ORIGIN}/%2e%2e/%2e%2e/etc/passwd`,
      `${APP_ORIGIN}/assets/..%2f..%2f..%2fetc%2fpasswd`,
      `${APP_ORIGIN}/assets/..%5c..%5cetc%5cpasswd`,
      `${APP_ORIGIN}/%252e%252e/etc/passwd`,
    ];
    for (const a of attempts) {
      const file = resolveAppAsset(a, root);
      if (file !== null) expect(file.startsWith(root + '/'), `${a} → ${file}`).toBe(true);
    }
    // A decoded "../" that survives URL parsing is refused outright.
    expect(resolveAppAsset(`${APP_ORIGIN}/assets/..%2f..%2f..%2fetc%2fpasswd`, root)).toBeNull();
    expect(resolveAppAsset(`${APP_ORIGIN}/a%00.js`, root)).toBeNull();
  });

  it('refuses other origins and garbage', () => {
    expect(resolveAppAsset('app://evil/index.html', root)).toBeNull();
    expect(resolveAppAsset('file:///etc/passwd', root)).toBeNull();
    expect(resolveAppAsset('not a url', root)).toBeNull();
  });
});

describe('isTrustedUrl (IPC sender check)', () => {
  const allowed = new Set([APP_ORIGIN]);
  it('accepts only the app origin', () => {
    expect(isTrustedUrl(`${APP_ORIGIN}/index.html`, allowed)).toBe(true);
    expect(isTrustedUrl('https://example.com/', allowed)).toBe(false);
    expect(isTrustedUrl('app://tradedesk.evil/index.html', allowed)).toBe(false);
    expect(isTrustedUrl('file:///tmp/index.html', allowed)).toBe(false);
    expect(isTrustedUrl('about:blank', allowed)).toBe(false);
    expect(isTrustedUrl('', allowed)).toBe(false);
  });
});

import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * The app's own origin and the files behind it.
 *
 * The packaged renderer is served from a privileged `app://tradedesk` scheme instead of
 * `file://`, so the page has a real origin that the sender and navigation checks can compare
 * against, and `file://` gets none of its extra powers.
 *
 * @see https://www.electronjs.org/docs/latest/tutorial/security#18-avoid-usage-of-the-file-protocol-and-prefer-usage-of-custom-protocols
 */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://tradedesk`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * Maps a request URL to a file under `rootDir`, or null when it must not be served.
 *
 * Refuses other hosts, encoded traversal (`%2e%2e`), and anything that resolves outside the
 * root. Comparison is on parsed URLs and resolved paths, never `startsWith` on raw strings.
 */
export function resolveAppAsset(requestUrl: string, rootDir: string, origin: string = APP_ORIGIN): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  // Non-special schemes (app:) have the opaque origin "null", so compare scheme + host.
  if (`${url.protocol}//${url.host}` !== origin) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  const root = resolve(rootDir);
  const file = resolve(root, `.${pathname === '/' ? '/index.html' : pathname}`);
  const rel = relative(root, file);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) return null;
  return file;
}

/**
 * True when a frame URL belongs to the app's own page (checklist #17: validate IPC senders).
 *
 * `allowedOrigins` is the app origin, plus the Vite dev server's in `npm run dev`.
 */
export function isTrustedUrl(frameUrl: string, allowedOrigins: ReadonlySet<string>): boolean {
  try {
    const u = new URL(frameUrl);
    const origin = u.protocol === `${APP_SCHEME}:` ? `${u.protocol}//${u.host}` : u.origin;
    return allowedOrigins.has(origin);
  } catch {
    return false;
  }
}

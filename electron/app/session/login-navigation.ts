/**
 * Where the Kite login window may go (docs/session.md §Login through the broker's page): the login page's own
 * origin (Kite's form posts and its two-factor step stay there), and the loopback callback that
 * receives the redirect — nothing else, so a link on the page cannot take the window elsewhere.
 * Plain data, no Electron: the window module and its test share it.
 */
export function loginNavigationAllowed(url: string, loginOrigin: string, callbackOrigin: string): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  if (target.origin === callbackOrigin) return target.pathname === '/kite/callback';
  return target.origin === loginOrigin && (target.protocol === 'https:' || target.hostname === '127.0.0.1');
}

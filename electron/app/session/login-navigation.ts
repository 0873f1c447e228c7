/**
 * Where a broker's login window may go (docs/session.md §Login through the broker's page): the
 * login page's own origin (Kite's form posts and its two-factor step stay there), and the
 * loopback callback that receives the redirect (the kind's own path: `/kite/callback`,
 * `/upstox/callback`) — nothing else, so a link on the page cannot take the window elsewhere.
 * Plain data, no Electron: the window module and its test share it.
 */
export function loginNavigationAllowed(url: string, loginOrigin: string, callbackUrl: string): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  const callback = new URL(callbackUrl);
  if (target.origin === callback.origin) return target.pathname === callback.pathname;
  return target.origin === loginOrigin && (target.protocol === 'https:' || target.hostname === '127.0.0.1');
}

import { app, net, protocol, session, type WebContents } from 'electron';
import { pathToFileURL } from 'node:url';
import { APP_SCHEME, isTrustedUrl, resolveAppAsset } from '../../app/security/app-origin';
import { SECURITY_HEADERS } from '../../app/security/content-security-policy';
import { loginWindowRule } from '../../app/session/login-window-rules';
import { denyPermissions } from './session-guards';

/**
 * Must run before `app.whenReady()`: makes app:// a standard, secure scheme so the page gets a
 * real origin (checklist #18) instead of `file://`. `codeCache` lets V8 keep the compiled code of
 * the page's scripts between launches, as it does for http(s) pages (docs/live-data.md §The first
 * screen first; not measured: the benches run the browser host).
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

/** Serves the built renderer over app://, with the CSP and security headers (checklist #7, #18). */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppAsset(request.url, rendererDir);
    if (!file) return new Response('Not found', { status: 404 });
    const res = await net.fetch(pathToFileURL(file).toString());
    const headers = new Headers(res.headers);
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) headers.set(k, v);
    return new Response(res.body, { status: res.status, headers });
  });
}

/**
 * Denies every permission request and check (notifications, media, geolocation…): a trading
 * dashboard needs none (checklist #5).
 */
export function denyAllPermissions(): void {
  denyPermissions(session.defaultSession);
}

/**
 * Blocks navigation away from the app and every new window (checklist #13, #14), and refuses
 * <webview> attachment (#12). The app has no external links, so nothing is handed to
 * `shell.openExternal` either (#15): the safest allowlist is an empty one.
 */
export function lockDownContents(allowedOrigins: ReadonlySet<string>): void {
  app.on('web-contents-created', (_event, contents: WebContents) => {
    // A Kite login window has its own, narrower rule: its login origin and the loopback callback.
    const allowed = (url: string): boolean => loginWindowRule(contents)?.(url) ?? isTrustedUrl(url, allowedOrigins);
    contents.on('will-navigate', (event, url) => {
      if (!allowed(url)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!allowed(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
}

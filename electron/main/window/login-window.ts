import { BrowserWindow, type WebContents } from 'electron';
import { loginNavigationAllowed } from '../../app/session/login-navigation';

/** The navigation rule of each open login window, by its contents (the global lockdown asks it). */
const loginWindows = new WeakMap<WebContents, (url: string) => boolean>();

/**
 * The rule for `contents` when it is a Kite login window, else undefined: such a window may
 * navigate within the login page's origin and to the loopback callback only.
 */
export function loginWindowRule(contents: WebContents): ((url: string) => boolean) | undefined {
  return loginWindows.get(contents);
}

/**
 * Opens Kite's login page in its own window (docs/architecture.md, "Kite login"): sandboxed,
 * no preload (the page gets no bridge), its own in-memory session (no cookies shared with the
 * app), no new windows, navigation limited to the login origin and the loopback callback. It
 * closes itself once the callback page loaded.
 */
export function createLoginWindow(url: string, callbackOrigin: string): BrowserWindow {
  const loginOrigin = new URL(url).origin;
  const win = new BrowserWindow({
    width: 520,
    height: 720,
    title: 'Log in to Kite',
    autoHideMenuBar: true,
    webPreferences: {
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      contextIsolation: true,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      partition: 'kite-login',
      navigateOnDragDrop: false,
      devTools: false,
    },
  });
  const contents = win.webContents;
  loginWindows.set(contents, (to) => loginNavigationAllowed(to, loginOrigin, callbackOrigin));
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('did-navigate', (_event, at) => {
    if (new URL(at).origin === callbackOrigin) setTimeout(() => win.close(), 1_500);
  });
  void win.loadURL(url);
  return win;
}

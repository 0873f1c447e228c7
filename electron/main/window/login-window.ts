import { BrowserWindow, session } from 'electron';
import { loginNavigationAllowed } from '../../app/session/login-navigation';
import { setLoginWindowRule } from '../../app/session/login-window-rules';
import { denyDownloads, denyPermissions } from '../security/session-guards';

/** The login window's in-memory session: no cookies shared with the app's. */
const LOGIN_PARTITION = 'kite-login';

/**
 * Opens a broker's login page (Kite's, Upstox's dialog) in its own window (docs/session.md §Login through the broker's page): sandboxed,
 * no preload (the page gets no bridge), its own in-memory session (no cookies shared with the
 * app) that grants no permission and takes no download, no new windows, navigation limited to the
 * login origin and the kind's loopback callback. It closes itself once the callback page loaded.
 */
export function createLoginWindow(url: string, callbackUrl: string): BrowserWindow {
  const loginOrigin = new URL(url).origin;
  const callbackOrigin = new URL(callbackUrl).origin;
  const loginSession = session.fromPartition(LOGIN_PARTITION);
  denyPermissions(loginSession);
  denyDownloads(loginSession);
  const win = new BrowserWindow({
    width: 520,
    height: 720,
    title: 'Log in to the broker',
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
      disableBlinkFeatures: 'Auxclick', // middle-click must not open links
      partition: LOGIN_PARTITION, // the same session as loginSession: one per partition name
      navigateOnDragDrop: false,
      devTools: false,
    },
  });
  const contents = win.webContents;
  setLoginWindowRule(contents, (to) => loginNavigationAllowed(to, loginOrigin, callbackUrl));
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('did-navigate', (_event, at) => {
    if (new URL(at).origin === callbackOrigin) setTimeout(() => win.close(), 1_500);
  });
  void win.loadURL(url);
  return win;
}

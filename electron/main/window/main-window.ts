import { BrowserWindow, type Rectangle } from 'electron';

/**
 * Creates a window of the desk — the main one or a pop-out, with the very same preload, sandbox
 * and webPreferences (docs/workstation.md §Windows) — shown only once its first paint is ready
 * (no white flash).
 *
 * The webPreferences are written out literally, here and only here, so the static gate
 * (electronegativity, part of `npm test`) can verify each one; e2e/electron.spec.ts checks the
 * same values on the running windows. Each line is an item of Electron's security checklist.
 *
 * @see https://www.electronjs.org/docs/latest/tutorial/security
 */
export function createDeskWindow(
  preloadPath: string,
  url: string,
  bounds: Rectangle | null,
  popout: boolean,
): BrowserWindow {
  const win = new BrowserWindow({
    ...(bounds ?? { width: 1440, height: 900 }),
    minWidth: popout ? 320 : 960,
    minHeight: popout ? 240 : 600,
    show: false,
    title: 'Tradedesk',
    backgroundColor: '#0f1420',
    webPreferences: {
      preload: preloadPath,
      nodeIntegration: false, // #2: no Node in the renderer
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      contextIsolation: true, // #3
      sandbox: true, // #4: the preload is one self-contained CJS bundle for this
      webSecurity: true, // #6
      allowRunningInsecureContent: false, // #8
      experimentalFeatures: false, // #9
      webviewTag: false, // #11
      disableBlinkFeatures: 'Auxclick', // middle-click must not open links
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: process.env.TRADEDESK_DEVTOOLS === '1',
    },
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(url);
  return win;
}

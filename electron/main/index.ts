import { app, dialog, Notification, safeStorage } from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createAppServices, type AppServices } from '../app/app-services';
import { JournalError } from '../paper';
import { bindElectronIpc } from './ipc/electron-ipc';
import { createDispatcher } from '../app/dispatcher';
import { createLoginWindow } from './window/login-window';
import { alertNotificationText } from '../app/alerts/alert-notification-text';
import { decideLaunch, holdQuitUntilClosed, type LaunchConfig } from './launch-config';
import {
  denyAllPermissions,
  lockDownContents,
  registerAppScheme,
  serveRenderer,
} from './security/apply-electron-security';
import { SafeStorageVault } from '../core/session/safe-storage-vault';
import { mirrorDesk } from './window/desk-windows';
import { MainLog } from '../app/support/app-log';
import { installAppMenu, keepCrashDumpsLocally } from './support/support-shell';
import { userDataDir } from '../app/user-data-dir';

/** Composition root of the Electron app: no logic (launch rules: launch-config.ts; services: the host's). */

/** How long quitting waits for the services to close before it quits anyway. */
const CLOSE_BUDGET_MS = 5_000;

/** The bundled paper broker worker; a worker cannot load from inside the asar archive. */
const paperWorker = join(__dirname, 'paper-worker.mjs').replace(/app\.asar([\\/])/, 'app.asar.unpacked$1');

let services: AppServices | null = null;
const mainLog = new MainLog(); // <userData>/logs, the console until open (docs/architecture.md §Release)

async function start(config: LaunchConfig): Promise<void> {
  await app.whenReady();
  serveRenderer(join(__dirname, 'renderer'));
  denyAllPermissions();
  lockDownContents(config.allowedOrigins);

  const dataDir = app.getPath('userData');
  const appLog = await mainLog.open(join(dataDir, 'logs'));
  services = await createAppServices({
    dataDir,
    log: mainLog.problem,
    // Remembered tokens and secrets only ever touch disk encrypted by the OS keychain.
    vault: new SafeStorageVault(safeStorage, join(dataDir, 'vault.json')),
    ...config.broker,
    // `--paper-repair` moves a damaged paper journal's bad tail aside (docs/api.md §Persistence).
    paper: { repair: process.argv.includes('--paper-repair') },
    // Kite's login page opens in its own sandboxed window, never in the trading window.
    openLoginWindow: (url, callbackUrl) => void createLoginWindow(url, callbackUrl),
    // A fired alert that asks for it is also the OS's notification, window shown or not; silent,
    // as the page plays the alert's tone (docs/contract.md §Alert notifications).
    notifyOs: (a) =>
      Notification.isSupported() && new Notification({ ...alertNotificationText(a), silent: true }).show(),
    // The square-off's warning, two minutes before, with the window hidden too (docs/contract.md §Risk guard).
    notifyOsText: (text) => Notification.isSupported() && new Notification(text).show(),
    // Built beside this bundle (unpacked from the asar archive in a package): the embedded paper
    // broker then runs in a worker thread, off the loop that serves the window's IPC.
    ...(existsSync(paperWorker) ? { paperWorker } : {}),
    // The shell opens the desk's windows (docs/workstation.md §Windows).
    windowsOpenedBy: 'main',
    // The header announces a newer release; installing stays the trader's (docs/architecture.md §Release).
    ...(config.updateFeed !== null
      ? { updates: { feedUrl: config.updateFeed, currentVersion: app.getVersion() } }
      : {}),
  });
  appLog.follow(services.events);
  const desk = mirrorDesk(services.workstation, services.events, join(__dirname, 'preload.cjs'), config.entryUrl);
  const dispatch = createDispatcher(services.handlers, mainLog.problem);
  bindElectronIpc(dispatch, services.events, config.allowedOrigins, desk.windows);
  installAppMenu({ dataDir, updateFeed: config.updateFeed, dispatch, problem: mainLog.problem });
  app.on('before-quit', desk.deskClosing);
  app.on('second-instance', () => desk.windows()[0]?.focus());
  app.on('window-all-closed', () => app.quit());
}

// One per-user folder for the app, run packaged or from the repo (where Electron would name it
// "Electron"), and the same one `npm run host` uses (docs/architecture.md §Data folder). Set
// before the single-instance lock, which lives in it.
app.setPath('userData', userDataDir(process.platform, process.env, app.getPath('home')));

const launch = decideLaunch(process.env, app.isPackaged);
if (!launch.ok) {
  dialog.showErrorBox('Tradedesk cannot start', launch.error);
  app.exit(2);
} else if (!app.requestSingleInstanceLock()) {
  // Another Tradedesk is running (and is told by 'second-instance'); this one does nothing.
  app.quit();
} else {
  keepCrashDumpsLocally(join(app.getPath('userData'), 'crashes'));
  registerAppScheme();
  const started = start(launch.config);
  started.catch((err: unknown) => {
    if (err instanceof JournalError) {
      // The user's to fix, so a dialog that says how — not a stack trace in a terminal.
      dialog.showErrorBox('Tradedesk cannot open its paper account', err.message);
      app.exit(2);
      return;
    }
    mainLog.problem('Tradedesk failed to start', err);
    void mainLog.close().finally(() => app.exit(1));
  });
  // Quits only after the services closed (or the budget ran out): `before-quit` is held once.
  holdQuitUntilClosed(
    { onBeforeQuit: (handler) => app.on('before-quit', handler), quit: () => app.quit() },
    () => started.then(() => services?.close()).finally(mainLog.close),
    CLOSE_BUDGET_MS,
    (err) => mainLog.problem('Tradedesk did not close cleanly', err),
  );
}

import { app, dialog, safeStorage, type BrowserWindow } from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createAppServices, type AppServices } from '../app/app-services';
import { JournalError } from '../paper';
import { bindElectronIpc } from './ipc/electron-ipc';
import { createDispatcher } from '../app/dispatcher';
import { decideLaunch, settleWithin, type LaunchConfig } from './launch-config';
import {
  denyAllPermissions,
  lockDownContents,
  registerAppScheme,
  serveRenderer,
} from './security/apply-electron-security';
import { SafeStorageVault } from '../core/session/safe-storage-vault';
import { createMainWindow } from './window/main-window';

/**
 * Composition root of the Electron app: lifecycle, security, services, IPC, window. No logic
 * lives here — the launch rules are in `launch-config.ts` and the services are the same
 * plain-Node modules the browser host runs.
 */

/** How long quitting waits for the services to close before it quits anyway. */
const CLOSE_BUDGET_MS = 5_000;

/** The bundled paper broker worker; a worker cannot load from inside the asar archive. */
const paperWorker = join(__dirname, 'paper-worker.mjs').replace(/app\.asar([\\/])/, 'app.asar.unpacked$1');

let window: BrowserWindow | null = null;
let services: AppServices | null = null;

async function start(config: LaunchConfig): Promise<void> {
  await app.whenReady();
  serveRenderer(join(__dirname, 'renderer'));
  denyAllPermissions();
  lockDownContents(config.allowedOrigins);

  const dataDir = app.getPath('userData');
  services = await createAppServices({
    dataDir,
    // Remembered tokens and secrets only ever touch disk encrypted by the OS keychain.
    vault: new SafeStorageVault(safeStorage, join(dataDir, 'vault.json')),
    ...config.broker,
    // `--paper-repair` moves a damaged paper journal's bad tail aside (docs/api.md §Persistence).
    paper: { repair: process.argv.includes('--paper-repair') },
    // Built beside this bundle (unpacked from the asar archive in a package): the embedded paper
    // broker then runs in a worker thread, off the loop that serves the window's IPC.
    ...(existsSync(paperWorker) ? { paperWorker } : {}),
  });
  bindElectronIpc(createDispatcher(services.handlers), services.events, config.allowedOrigins, () => window);
  window = createMainWindow(join(__dirname, 'preload.cjs'), config.entryUrl);

  app.on('second-instance', () => window?.focus());
  app.on('window-all-closed', () => app.quit());
}

/** Quits only after the services closed (or the budget ran out): `before-quit` is held once. */
function quitAfterClosing(started: Promise<void>): void {
  let closing: Promise<void> | null = null;
  let closed = false;
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    closing ??= settleWithin(
      started.then(() => services?.close()),
      CLOSE_BUDGET_MS,
      (err) => console.error('Tradedesk did not close cleanly:', err),
    ).then(() => {
      closed = true;
      app.quit();
    });
  });
}

const launch = decideLaunch(process.env, app.isPackaged);
if (!launch.ok) {
  dialog.showErrorBox('Tradedesk cannot start', launch.error);
  app.exit(2);
} else if (!app.requestSingleInstanceLock()) {
  // Another Tradedesk is running (and is told by 'second-instance'); this one does nothing.
  app.quit();
} else {
  registerAppScheme();
  const started = start(launch.config);
  started.catch((err: unknown) => {
    if (err instanceof JournalError) {
      // The user's to fix, so a dialog that says how — not a stack trace in a terminal.
      dialog.showErrorBox('Tradedesk cannot open its paper account', err.message);
      app.exit(2);
      return;
    }
    console.error('Tradedesk failed to start:', err);
    app.exit(1);
  });
  quitAfterClosing(started);
}

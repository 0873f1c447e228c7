import { app, dialog, safeStorage, type BrowserWindow } from 'electron';
import { join } from 'node:path';
import { createAppServices, type AppServices } from '../app/app-services';
import { JournalError } from '../paper';
import { bindElectronIpc } from './ipc/electron-ipc';
import { createDispatcher } from './ipc/dispatcher';
import { APP_ENTRY_URL, APP_ORIGIN } from './security/app-origin';
import {
  denyAllPermissions,
  lockDownContents,
  registerAppScheme,
  serveRenderer,
} from './security/apply-electron-security';
import { SafeStorageVault } from './session/safe-storage-vault';
import { createMainWindow } from './window/main-window';

/**
 * Composition root of the Electron app: lifecycle, security, services, IPC, window. No logic
 * lives here — the services are the same plain-Node modules the browser host runs.
 */
const devServerUrl = process.env.VITE_DEV_SERVER_URL;
const allowedOrigins = new Set([APP_ORIGIN, ...(devServerUrl ? [new URL(devServerUrl).origin] : [])]);

registerAppScheme();
if (!app.requestSingleInstanceLock()) app.quit();

let window: BrowserWindow | null = null;
let services: AppServices | null = null;

async function start(): Promise<void> {
  await app.whenReady();
  serveRenderer(join(__dirname, 'renderer'));
  denyAllPermissions();
  lockDownContents(allowedOrigins);

  const dataDir = app.getPath('userData');
  services = await createAppServices({
    dataDir,
    // Remembered tokens and secrets only ever touch disk encrypted by the OS keychain.
    vault: new SafeStorageVault(safeStorage, join(dataDir, 'vault.json')),
    brokerUrl: process.env.TRADEDESK_BROKER_URL,
    apiKey: process.env.TRADEDESK_API_KEY,
    apiSecret: process.env.TRADEDESK_API_SECRET,
    // `--paper-repair` moves a damaged paper journal's bad tail aside (docs/api.md §Persistence).
    paper: { repair: process.argv.includes('--paper-repair') },
  });
  bindElectronIpc(createDispatcher(services.handlers), services.events, allowedOrigins, () => window);
  window = createMainWindow(join(__dirname, 'preload.cjs'), devServerUrl ?? APP_ENTRY_URL);

  app.on('second-instance', () => window?.focus());
  app.on('window-all-closed', () => app.quit());
}

app.on('before-quit', () => {
  void services?.close();
});

start().catch((err: unknown) => {
  if (err instanceof JournalError) {
    // The user's to fix, so a dialog that says how — not a stack trace in a terminal.
    dialog.showErrorBox('Tradedesk cannot open its paper account', err.message);
    app.exit(2);
    return;
  }
  console.error('Tradedesk failed to start:', err);
  app.exit(1);
});

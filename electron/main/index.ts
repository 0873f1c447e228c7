import { app, type BrowserWindow } from 'electron';
import { join } from 'node:path';
import { createAppServices, type AppServices } from '../app/app-services';
import { bindElectronIpc } from './ipc/electron-ipc';
import { createDispatcher } from './ipc/dispatcher';
import { APP_ENTRY_URL, APP_ORIGIN } from './security/app-origin';
import {
  denyAllPermissions,
  lockDownContents,
  registerAppScheme,
  serveRenderer,
} from './security/apply-electron-security';
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

  services = await createAppServices({
    dataDir: app.getPath('userData'),
    brokerUrl: process.env.TRADEDESK_BROKER_URL,
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
  console.error('Tradedesk failed to start:', err);
  app.exit(1);
});

import { app, BrowserWindow, crashReporter, dialog, Menu, type MenuItemConstructorOptions } from 'electron';
import { join } from 'node:path';
import { problemReportName, writeProblemReport, type ProblemReportSources } from '../../app/support/problem-report';
import { checkForUpdate, updateMessage } from '../../app/support/update-check';
import { installGate, readDeskActivity } from '../../app/support/install-gate';
import type { Dispatch } from '../../app/dispatcher';

/** The Electron side of what a support desk reads (docs/architecture.md §Release); the logic is in app/support/. */

/**
 * Crash dumps stay on this machine, under the data folder, until the trader sends a report.
 * Called before the app is ready, so a crash during start-up is kept too.
 */
export function keepCrashDumpsLocally(crashDir: string): void {
  app.setPath('crashDumps', crashDir);
  crashReporter.start({ uploadToServer: false });
}

/** Asks where to save, writes the report there and says where it went (or why not). */
async function reportAProblem(sources: ProblemReportSources): Promise<void> {
  const parent = BrowserWindow.getFocusedWindow();
  const options = {
    title: 'Report a problem',
    defaultPath: join(app.getPath('downloads'), problemReportName(sources.now())),
    filters: [{ name: 'Zip archive', extensions: ['zip'] }],
  };
  const chosen = await (parent ? dialog.showSaveDialog(parent, options) : dialog.showSaveDialog(options));
  if (chosen.canceled || !chosen.filePath) return;
  try {
    await writeProblemReport(chosen.filePath, sources);
    await dialog.showMessageBox({
      type: 'info',
      title: 'Report a problem',
      message: 'The report is saved',
      detail: `${chosen.filePath}\n\nIt holds the app's logs, its settings without secrets and its latest crash reports. Send it to your support desk.`,
    });
  } catch (err) {
    dialog.showErrorBox('The report could not be saved', err instanceof Error ? err.message : String(err));
  }
}

/**
 * Checks the feed when the trader asks, and says what is new and what an install would wait for.
 * Nothing is downloaded or installed here, and the app never restarts for an update.
 */
async function checkForUpdates(feedUrl: string, dispatch: Dispatch): Promise<void> {
  const check = await checkForUpdate({
    feedUrl,
    currentVersion: app.getVersion(),
    fetch: (url, init) => fetch(url, init),
  });
  const gate = check.kind === 'available' ? installGate(await readDeskActivity(dispatch)) : { ok: true as const };
  const { title, detail } = updateMessage(check, gate.ok ? [] : gate.waitingFor);
  await dialog.showMessageBox({
    type: check.kind === 'failed' ? 'warning' : 'info',
    title: 'Updates',
    message: title,
    detail,
  });
}

/**
 * The app's menu: Electron's standard ones (edit, view, window) and Help › Report a problem… and,
 * with a feed configured, Check for updates…, in place of the default menu, whose Help opens web pages.
 */
export interface AppMenuOptions {
  readonly dataDir: string;
  /** The update feed (`TRADEDESK_UPDATE_FEED`); null → no Check for updates item. */
  readonly updateFeed: string | null;
  /** Main's dispatcher: what an install would wait for is read through the handlers. */
  readonly dispatch: Dispatch;
  readonly problem: (message: string, err: unknown) => void;
}

export function installAppMenu({ dataDir, updateFeed, dispatch, problem }: AppMenuOptions): void {
  const sources = (): ProblemReportSources => ({
    dataDir,
    logDir: join(dataDir, 'logs'),
    crashDir: app.getPath('crashDumps'),
    about: {
      version: app.getVersion(),
      electron: process.versions.electron ?? '',
      platform: `${process.platform} ${process.arch}`,
    },
    now: () => new Date(),
  });
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        {
          label: 'Report a problem…',
          click: () => void reportAProblem(sources()).catch((err) => problem('Report a problem failed', err)),
        },
        ...(updateFeed === null
          ? []
          : [
              {
                label: 'Check for updates…',
                click: () =>
                  void checkForUpdates(updateFeed, dispatch).catch((err) => problem('The update check failed', err)),
              },
            ]),
      ],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

import { app, BrowserWindow, crashReporter, dialog, Menu, type MenuItemConstructorOptions } from 'electron';
import { join } from 'node:path';
import { problemReportName, writeProblemReport, type ProblemReportSources } from '../../app/support/problem-report';

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
 * The app's menu: Electron's standard ones (edit, view, window) and Help › Report a problem…,
 * in place of the default menu, whose Help opens web pages.
 */
export function installAppMenu(dataDir: string, problem: (message: string, err: unknown) => void): void {
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
      ],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

import { join } from 'node:path';

/** The folder name under the OS's per-user application data: the packaged app's product name. */
export const APP_FOLDER = 'Tradedesk';

/**
 * The per-user folder that keeps the desk's data (settings, the intents ledger, the paper
 * account's journal, the trader's journal, workspaces, risk limits): the Electron app sets its
 * `userData` to it and the browser host uses it unless told `--data-dir` (docs/architecture.md
 * §Data folder). The same rule as Electron's `appData`: `%APPDATA%` on Windows,
 * `~/Library/Application Support` on macOS, `$XDG_CONFIG_HOME` or `~/.config` elsewhere.
 */
export function userDataDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v !== '' ? v : undefined);
  if (platform === 'win32') return join(nonEmpty(env.APPDATA) ?? join(home, 'AppData', 'Roaming'), APP_FOLDER);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_FOLDER);
  return join(nonEmpty(env.XDG_CONFIG_HOME) ?? join(home, '.config'), APP_FOLDER);
}

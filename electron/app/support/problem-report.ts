import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { logFiles } from './app-log';
import { redactSecrets, scrubSecrets } from './secrets';

/**
 * "Report a problem" (docs/architecture.md §Release): one zip a trader sends to a support desk,
 * with main's logs, the settings with every secret redacted, the newest crash dumps and what the
 * app is. The vault (remembered secrets) and the journals are never in it.
 */
export interface ProblemReportSources {
  /** The app's data folder (`settings.json`). */
  readonly dataDir: string;
  /** Main's log folder (app-log.ts). */
  readonly logDir: string;
  /** Where Crashpad keeps dumps; searched at any depth for `.dmp` files. */
  readonly crashDir: string;
  /** Dumps taken, newest first (default 3). */
  readonly maxDumps?: number;
  /** What goes into `about.json`: the app's version, the Electron and OS it ran on. */
  readonly about: Readonly<Record<string, string>>;
  readonly now: () => Date;
}

export const DEFAULT_MAX_DUMPS = 3;

/** A file name for the report that sorts by when it was made: `tradedesk-problem-2026-11-28T11-05-00.zip`. */
export function problemReportName(at: Date): string {
  return `tradedesk-problem-${at.toISOString().slice(0, 19).replaceAll(':', '-')}.zip`;
}

/** The newest `max` crash dumps under `dir`, newest first; none when the folder does not exist. */
export async function newestCrashDumps(dir: string, max: number): Promise<string[]> {
  const names = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  const dumps = await Promise.all(
    names
      .filter((n) => n.endsWith('.dmp'))
      .map(async (n) => ({ path: join(dir, n), mtime: (await stat(join(dir, n))).mtimeMs })),
  );
  return dumps
    .sort((a, b) => b.mtime - a.mtime)
    .slice(0, max)
    .map((d) => d.path);
}

/** The settings file as a support desk may read it; a missing or damaged one says so. */
async function redactedSettings(dataDir: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(join(dataDir, 'settings.json'), 'utf8');
  } catch {
    return JSON.stringify({ note: 'no settings.json' });
  }
  try {
    return JSON.stringify(redactSecrets(JSON.parse(text)), null, 2);
  } catch {
    // Unparsed text could hold anything: only that it is damaged goes out.
    return JSON.stringify({ note: 'settings.json is not valid JSON', bytes: text.length });
  }
}

/**
 * Writes the report to `target` (0600: it holds the logs) and returns the entries it holds.
 */
export async function writeProblemReport(target: string, sources: ProblemReportSources): Promise<string[]> {
  const files: Zippable = {};
  for (const log of await logFiles(sources.logDir)) {
    // The log is scrubbed as it is written; scrubbed again in case an older build wrote it.
    files[`logs/${basename(log)}`] = strToU8(scrubSecrets(await readFile(log, 'utf8')));
  }
  files['settings.json'] = strToU8(await redactedSettings(sources.dataDir));
  for (const dump of await newestCrashDumps(sources.crashDir, sources.maxDumps ?? DEFAULT_MAX_DUMPS)) {
    files[`crashes/${basename(dump)}`] = new Uint8Array(await readFile(dump));
  }
  files['about.json'] = strToU8(JSON.stringify({ ...sources.about, madeAt: sources.now().toISOString() }, null, 2));
  await writeFile(target, zipSync(files), { mode: 0o600 });
  return Object.keys(files);
}

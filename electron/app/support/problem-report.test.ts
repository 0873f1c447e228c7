import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAppLog } from './app-log';
import { problemReportName, writeProblemReport, type ProblemReportSources } from './problem-report';

let dataDir: string;
let sources: ProblemReportSources;
const at = new Date('2026-11-28T11:05:00Z');

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'td-report-'));
  sources = {
    dataDir,
    logDir: join(dataDir, 'logs'),
    crashDir: join(dataDir, 'crashes'),
    about: { version: '0.1.0', electron: '45.5.0', platform: 'linux' },
    now: () => at,
  };
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const SECRETS = ['S3CRET-in-settings', 'TOK-in-settings', 'TOK-in-log', 'VAULT-secret'];

/** A data folder as the app leaves it: settings, a vault, a log, five crash dumps of known ages. */
async function seedDataDir(): Promise<void> {
  await writeFile(
    join(dataDir, 'settings.json'),
    JSON.stringify({
      profile: { kind: 'kite', apiKey: 'kitekey', apiSecret: SECRETS[0], remember: true },
      extra: { session: { accessToken: SECRETS[1] } },
    }),
  );
  await writeFile(join(dataDir, 'vault.json'), JSON.stringify({ kite: SECRETS[3] }));
  const log = await openAppLog({ dir: sources.logDir });
  log.problem('login failed', new Error(`403 for token kitekey:${SECRETS[2]}`));
  log.info({ orders: 2 }, 'synced');
  await log.close();
  await mkdir(join(sources.crashDir, 'completed'), { recursive: true });
  for (let i = 1; i <= 5; i++) {
    const dump = join(sources.crashDir, 'completed', `dump-${i}.dmp`);
    await writeFile(dump, `MDMP dump ${i}`);
    const when = new Date(at.getTime() - (10 - i) * 60_000); // dump-5 is the newest
    await utimes(dump, when, when);
  }
}

describe('Report a problem', () => {
  it('zips the logs, the settings, the three newest crash dumps and what the app is, and no secret', async () => {
    await seedDataDir();
    const target = join(dataDir, problemReportName(at));
    await writeProblemReport(target, sources);

    const zip = unzipSync(new Uint8Array(await readFile(target)));
    expect(Object.keys(zip).sort()).toEqual([
      'about.json',
      'crashes/dump-3.dmp',
      'crashes/dump-4.dmp',
      'crashes/dump-5.dmp',
      'logs/tradedesk.1.log',
      'settings.json',
    ]);
    const text = Object.fromEntries(Object.entries(zip).map(([name, bytes]) => [name, strFromU8(bytes)]));
    for (const [name, content] of Object.entries(text)) {
      for (const secret of SECRETS) expect(content.includes(secret), `${secret} in ${name}`).toBe(false);
    }
    // What a support desk needs is there.
    expect(JSON.parse(text['settings.json']!)).toMatchObject({
      profile: { kind: 'kite', apiKey: 'kitekey', apiSecret: '[redacted]' },
    });
    expect(text['logs/tradedesk.1.log']).toContain('login failed');
    expect(text['crashes/dump-5.dmp']).toBe('MDMP dump 5');
    expect(JSON.parse(text['about.json']!)).toEqual({
      version: '0.1.0',
      electron: '45.5.0',
      platform: 'linux',
      madeAt: '2026-11-28T11:05:00.000Z',
    });
    if (process.platform !== 'win32') expect((await stat(target)).mode & 0o777).toBe(0o600);
  });

  it('is still written on a fresh install: no log, no dumps, no settings yet', async () => {
    const target = join(dataDir, 'report.zip');
    await writeProblemReport(target, sources);
    const zip = unzipSync(new Uint8Array(await readFile(target)));
    expect(Object.keys(zip).sort()).toEqual(['about.json', 'settings.json']);
    expect(JSON.parse(strFromU8(zip['settings.json']!))).toEqual({ note: 'no settings.json' });
  });

  it('sends no text of a damaged settings file, only that it is damaged', async () => {
    await writeFile(join(dataDir, 'settings.json'), `{"apiSecret": "${SECRETS[0]}"`);
    const target = join(dataDir, 'report.zip');
    await writeProblemReport(target, sources);
    const settings = strFromU8(unzipSync(new Uint8Array(await readFile(target)))['settings.json']!);
    expect(settings).not.toContain(SECRETS[0]);
    expect(JSON.parse(settings)).toMatchObject({ note: 'settings.json is not valid JSON' });
  });

  it('names the file by when it was made, safe on every file system', () => {
    expect(problemReportName(at)).toBe('tradedesk-problem-2026-11-28T11-05-00.zip');
  });
});

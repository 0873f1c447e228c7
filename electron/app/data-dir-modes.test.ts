import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from './dispatcher';
import { createAppServices, type AppServices } from './app-services';
import { listInstruments } from './testing/app-on-paper';
import { marketBuy } from '../core/testing/core-fixture';

/**
 * What the desk leaves on disk is the trader's alone (docs/architecture.md §Data on disk): the
 * intents ledger, the brackets, the paper broker's journal (it holds paper tokens), settings.
 * Run under the usual umask 022, in a data folder another tool created 0755.
 */
describe.skipIf(process.platform === 'win32')('the data folder after a session with an order', () => {
  let dir: string;
  let services: AppServices;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-modes-'));
    await chmod(dir, 0o755);
    services = await createAppServices({ dataDir: dir, paper: { tickIntervalMs: 0 } });
    const dispatch = createDispatcher(services.handlers);
    const placed = await dispatch('orders.place', { order: marketBuy(await listInstruments(dispatch)) });
    expect(placed.ok).toBe(true);
    await services.close();
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('every folder is 0700 and every file 0600, the data folder itself included', async () => {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
    const folders = [dir, ...entries.filter((e) => e.isDirectory()).map((e) => join(e.parentPath, e.name))];
    // The ledger and the paper journal are there to be checked.
    expect(files.some((f) => f.includes('paper'))).toBe(true);
    expect(files.length).toBeGreaterThanOrEqual(2);
    const mode = async (p: string): Promise<string> => ((await stat(p)).mode & 0o777).toString(8);
    expect(Object.fromEntries(await Promise.all(folders.map(async (f) => [f, await mode(f)])))).toEqual(
      Object.fromEntries(folders.map((f) => [f, '700'])),
    );
    expect(Object.fromEntries(await Promise.all(files.map(async (f) => [f, await mode(f)])))).toEqual(
      Object.fromEntries(files.map((f) => [f, '600'])),
    );
  });
});

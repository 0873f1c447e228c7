import { writeSync } from 'node:fs';
import type { GttRequest } from '@shared/domain/gtt';
import { createCore } from './core-fixture';

/**
 * Test-only child process for the GTT crash test (docs/gtt.md §When the broker fails). argv:
 * <paper base URL> <data dir> <kill point> <request id> <GTT request JSON>.
 *
 * It starts a trading core on the data dir, creates the GTT under the request id, and SIGKILLs
 * itself where it is told: `journaled` (the intent on disk, nothing sent) or `replied` (the
 * broker answered the create, and the answer was never read: a reply lost with the process).
 * It prints `send <ref>` before the create and `done` if the point was never reached.
 */

const say = (line: string): void => void writeSync(1, `${line}\n`);
const POINTS = ['journaled', 'replied'] as const;

async function main(): Promise<void> {
  const [baseUrl, dataDir, point, requestId, json] = process.argv.slice(2);
  if (!baseUrl || !dataDir || !requestId || !json || !POINTS.includes(point as (typeof POINTS)[number]))
    throw new Error(`usage: gtt-child <baseUrl> <dataDir> <${POINTS.join('|')}> <requestId> <gtt>`);
  const request = JSON.parse(json) as GttRequest;
  const core = await createCore(baseUrl, dataDir, { rate: null });
  await core.start();
  const place = core.broker.placeGtt.bind(core.broker);
  core.broker.placeGtt = async (cmd) => {
    if (point === 'journaled') process.kill(process.pid, 'SIGKILL');
    say(`send ${cmd.clientGttId}`);
    await place(cmd).catch(() => undefined);
    process.kill(process.pid, 'SIGKILL');
    return new Promise(() => undefined);
  };
  await core.gtt.place(request, requestId);
  say('done');
  await core.close();
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`gtt-child failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

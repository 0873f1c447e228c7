import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPaperBroker } from '../../paper';
import { createAppServices } from '../app-services';
import { createDispatcher } from '../dispatcher';
import { installGate, readDeskActivity, type DeskActivity } from './install-gate';

const idle: DeskActivity = { unconfirmed: 0, activeBrackets: 0, safetyRunning: false };

describe('an update never restarts the app over open work', () => {
  it.each<[string, DeskActivity | null, readonly string[] | null]>([
    ['an idle desk', idle, null],
    ['an order not yet confirmed', { ...idle, unconfirmed: 1 }, ['1 order not yet confirmed']],
    ['a bracket still protecting', { ...idle, activeBrackets: 2 }, ['2 brackets still active']],
    ['a kill-switch run going', { ...idle, safetyRunning: true }, ['a kill-switch run in progress']],
    [
      'all three at once',
      { unconfirmed: 3, activeBrackets: 1, safetyRunning: true },
      ['3 orders not yet confirmed', '1 bracket still active', 'a kill-switch run in progress'],
    ],
    ['a desk whose work could not be read (unknown is not idle)', null, ["the desk's open work could not be read"]],
  ])('%s', (_, activity, waitingFor) => {
    expect(installGate(activity)).toEqual(waitingFor === null ? { ok: true } : { ok: false, waitingFor });
  });

  it("reads an idle desk through main's handlers, on the paper broker", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'td-gate-'));
    const paper = await startPaperBroker({ port: 0, tickIntervalMs: 0 });
    const services = await createAppServices({
      dataDir: dir,
      brokerUrl: paper.url,
      apiKey: 'paper',
      apiSecret: 'paper',
      core: { stream: false },
    });
    try {
      const activity = await readDeskActivity(createDispatcher(services.handlers, () => undefined));
      expect(activity).toEqual(idle);
      expect(installGate(activity)).toEqual({ ok: true });
    } finally {
      await services.close();
      await paper.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

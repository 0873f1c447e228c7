import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SquareOffState } from '@shared/domain/square-off';
import { DEFAULT_SQUARE_OFF } from '@shared/trading/square-off-rules';
import { createDispatcher } from './dispatcher';
import { createAppServices, type AppServices } from './app-services';

/**
 * The square-off's channels through the dispatcher against the embedded paper broker: a time it
 * cannot take is refused naming its field, the settings are kept per profile and in force again
 * after a restart of main, and every change is pushed (docs/contract.md §Risk guard).
 */
describe('square-off over the bridge', () => {
  let dir: string;
  let services: AppServices | null = null;
  afterEach(async () => {
    await services?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const start = async (): Promise<ReturnType<typeof createDispatcher>> => {
    services = await createAppServices({ dataDir: dir, paper: { tickIntervalMs: 0 } });
    return createDispatcher(services.handlers);
  };

  it('refuses a time after the close naming the field; keeps the settings across a restart', async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-square-off-'));
    let dispatch = await start();
    expect(await dispatch('squareOff.get', undefined)).toMatchObject({
      ok: true,
      data: { settings: DEFAULT_SQUARE_OFF, phase: 'off', next: null, last: null },
    });

    const late = { ...DEFAULT_SQUARE_OFF, enabled: true, times: { ...DEFAULT_SQUARE_OFF.times, NSE: '15:45' } };
    expect(await dispatch('squareOff.set', { settings: late })).toMatchObject({
      ok: false,
      error: { kind: 'bad_request', field: 'settings.times.NSE' },
    });

    const pushed: SquareOffState[] = [];
    services?.events.on('squareOff.changed', (s) => pushed.push(s));
    const settings = { ...DEFAULT_SQUARE_OFF, enabled: true, times: { ...DEFAULT_SQUARE_OFF.times, NSE: '15:00' } };
    const set = await dispatch('squareOff.set', { settings });
    expect(set).toMatchObject({ ok: true, data: { settings } });
    // The paper market's session: the next square-off is planned on its calendar.
    expect(set.ok && (set.data as SquareOffState).next).toMatchObject({ exchanges: expect.any(Array) });
    expect(pushed.at(-1)?.settings).toEqual(settings);
    const stored = JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8')) as {
      squareOff: Record<string, { settings: unknown }>;
    };
    expect(stored.squareOff.paper?.settings).toEqual(settings);

    // main restarts on the same data folder
    await services?.close();
    services = null;
    dispatch = await start();
    expect(await dispatch('squareOff.get', undefined)).toMatchObject({ ok: true, data: { settings } });
  });
});

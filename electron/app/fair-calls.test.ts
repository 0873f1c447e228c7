import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from './dispatcher';
import { createAppServices, type AppServices } from './app-services';

/**
 * Two pages sharing main's client rate limit (docs/brokers.md §Fair queuing): what a trader
 * notices is one page's chart history never keeping another page's funds from loading.
 */
describe('pages sharing the client rate limit', () => {
  let dir: string;
  let services: AppServices;
  let dispatch: ReturnType<typeof createDispatcher>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-fair-'));
    services = await createAppServices({
      dataDir: dir,
      paper: { tickIntervalMs: 0, rate: { perSecond: 10_000, burst: 10_000 } },
      core: { rate: { perSecond: 20, burst: 1 } },
    });
    dispatch = createDispatcher(services.handlers);
  });
  afterAll(async () => {
    await services.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("a page's funds.get is answered while another page's 60 candles.get calls are still queued", async () => {
    const list = await dispatch('instruments.list', { exchange: 'NSE' }, 'page-A');
    if (!list.ok) throw new Error(list.error.message);
    const tokens = (list.data as Array<{ instrumentToken: number }>).slice(0, 60).map((i) => i.instrumentToken);
    const done: string[] = [];
    const candles = tokens.map((instrumentToken, i) =>
      dispatch('candles.get', { instrumentToken, interval: 'day' }, 'page-A').then((r) => {
        expect(r.ok).toBe(true);
        done.push(`candles-${i}`);
      }),
    );
    const funds = dispatch('funds.get', undefined, 'page-B').then((r) => {
      expect(r.ok).toBe(true);
      done.push('funds');
    });
    await Promise.all([...candles, funds]);
    // Admitted right after the one candle request already holding the token: at most a couple
    // of candle replies (already on the wire) can land before it, never the whole queue.
    expect(done.indexOf('funds')).toBeLessThan(5);
  });
});

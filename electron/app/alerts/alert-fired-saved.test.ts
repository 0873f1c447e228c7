import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MarketQuote } from '@shared/domain/market';
import { INFY_MARKET_BUY } from '@shared/testing/order-fixtures';
import { SettingsStore } from '../settings/settings-store';
import { AlertBook } from './alert-book';

/**
 * An alert's orders go only once its firing is on disk (docs/contract.md §Alerts that place
 * orders): if the app died between placing and saving, the next start would find the alert still
 * armed, and fire it again once its condition held — after the ledger had stopped remembering the
 * firing's request ids, a second order.
 */
describe('an alert carrying orders', () => {
  let dir = '';
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('is saved as fired before its orders are placed', async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-alert-saved-'));
    const file = join(dir, 'settings.json');
    const statesAtPlacing: string[] = [];
    const book = new AlertBook({
      settings: new SettingsStore(file),
      watch: () => undefined,
      onFired: () => undefined,
      onChanged: () => undefined,
      placeOrders: async (alert) => {
        const text = await readFile(file, 'utf8').catch(() => null);
        const saved =
          text === null
            ? null
            : (JSON.parse(text) as { alerts?: Record<string, Array<{ id: string; state: string }>> });
        statesAtPlacing.push(saved?.alerts?.p?.find((a) => a.id === alert.id)?.state ?? 'not saved');
        return { state: 'placed', detail: 'Order A', legs: [] };
      },
    });
    await book.load('p');
    const quote = { instrumentToken: 9, exchange: 'NSE', tradingsymbol: 'INFY', lastPrice: 1_490 } as MarketQuote;
    await book.create({ condition: 'above', price: 1_500, orders: [INFY_MARKET_BUY] }, quote);
    book.onTick({ instrumentToken: 9, lastPrice: 1_510, volume: 1, ts: '2026-11-25T11:00:01+05:30' });
    await expect.poll(() => statesAtPlacing).toEqual(['triggered']);
    await book.idle();
  });
});

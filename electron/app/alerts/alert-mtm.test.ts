import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PriceAlert } from '@shared/domain/alert';
import { SettingsStore } from '../settings/settings-store';
import { AlertBook } from './alert-book';
import { outcomeOf } from './alert-orders';

const dirs: string[] = [];
const books: AlertBook[] = [];
afterEach(async () => {
  // A firing is saved in the background: removing the folder under that save fails (ENOTEMPTY) or
  // leaves it behind, so the books finish saving first.
  for (const b of books.splice(0)) await b.idle();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

function openBook(dir: string, mtm: { value: number | 'unknown' }, fired: PriceAlert[] = []) {
  const book = new AlertBook({
    settings: new SettingsStore(join(dir, 'settings.json')),
    watch: () => undefined,
    onFired: (a) => fired.push(a),
    onChanged: () => undefined,
    mtmOf: () => mtm.value,
  });
  books.push(book);
  return book;
}

async function bookWith(mtm: { value: number | 'unknown' }) {
  const dir = await mkdtemp(join(tmpdir(), 'td-alert-mtm-'));
  dirs.push(dir);
  const fired: PriceAlert[] = [];
  const book = openBook(dir, mtm, fired);
  await book.load('p');
  return { book, fired, dir };
}

const tick = (lastPrice: number) => ({ instrumentToken: 9, lastPrice, volume: 1, ts: '2026-11-25T11:00:00+05:30' });

describe("an alert on the day's MTM", () => {
  it('never fires while the MTM is unknown, and fires on the first tick it is known below the figure', async () => {
    const mtm: { value: number | 'unknown' } = { value: 'unknown' };
    const { book, fired } = await bookWith(mtm);
    await book.create({ condition: 'below', price: -20_000, basis: { kind: 'mtm' } }, null);
    book.onTick(tick(100));
    expect(fired).toHaveLength(0);
    mtm.value = -19_000;
    book.onTick(tick(101));
    expect(fired).toHaveLength(0);
    mtm.value = -20_140;
    book.onTick(tick(102));
    expect(fired).toMatchObject([{ state: 'triggered', triggeredPrice: -20_140, instrumentToken: null }]);
  });

  it('a restart once the book is idle finds the alert fired, and it does not fire again', async () => {
    const mtm: { value: number | 'unknown' } = { value: -19_000 };
    const { book, dir } = await bookWith(mtm);
    await book.create({ condition: 'below', price: -20_000, basis: { kind: 'mtm' } }, null);
    mtm.value = -20_140;
    book.onTick(tick(102));
    // What closing the app waits for: the firing was saved in the background.
    await book.idle();
    const again: PriceAlert[] = [];
    const restarted = openBook(dir, mtm, again);
    await restarted.load('p');
    expect(restarted.list()).toMatchObject([{ state: 'triggered', triggeredPrice: -20_140 }]);
    restarted.onTick(tick(103));
    expect(again).toHaveLength(0);
  });
});

describe('what a fired alert’s orders came to', () => {
  const placed = { state: 'placed' as const, orderId: 'A', detail: 'Order A' };
  const refused = {
    state: 'refused' as const,
    orderId: null,
    detail: 'Not placed: Quantity 50 exceeds your limit of 20',
  };
  const notSent = { state: 'not_sent' as const, orderId: null, detail: 'Not sent' };
  const unconfirmed = { state: 'unconfirmed' as const, orderId: null, detail: 'Checking with the broker…' };
  const rows: Array<[string, Parameters<typeof outcomeOf>[0], string, string]> = [
    ['every leg placed', [placed, placed], 'placed', 'All 2 orders placed'],
    ['the first refused: nothing created', [refused, notSent], 'refused', refused.detail],
    [
      'one placed, the next refused',
      [placed, refused, notSent],
      'partial',
      `1 of 3 placed; leg 2 refused: ${refused.detail}; not sent: leg 3`,
    ],
    ['the only leg not yet confirmed', [unconfirmed], 'unconfirmed', unconfirmed.detail],
  ];
  it.each(rows)('%s', (_t, legs, state, detail) => {
    expect(outcomeOf(legs, null)).toMatchObject({ state, detail });
  });
});

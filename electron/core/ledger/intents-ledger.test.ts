import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrderRequest } from '../../../shared/domain/order';
import { IntentsLedger } from './intents-ledger';

const order: OrderRequest = {
  exchange: 'NSE',
  tradingsymbol: 'INFY',
  transactionType: 'BUY',
  quantity: 1,
  orderType: 'MARKET',
  product: 'MIS',
  validity: 'DAY',
};

describe('intents ledger', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-ledger-'));
    file = join(dir, 'intents.jsonl');
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('an intent journaled and never resolved is there after a restart', async () => {
    const a = await IntentsLedger.open(file);
    await a.appendIntent({ clientOrderId: 'c1', at: 1, order });
    await a.appendIntent({ clientOrderId: 'c2', at: 2, order });
    await a.resolve({ clientOrderId: 'c1', at: 3, outcome: 'acknowledged', orderId: 'o1' });
    // No close(): as if the process died here. Everything awaited is already on disk.
    const b = await IntentsLedger.open(file);
    expect(b.unresolved().map((i) => i.clientOrderId)).toEqual(['c2']);
    await a.close();
    await b.close();
  });

  it('skips a torn last line (a crash mid-append) and keeps the rest', async () => {
    const a = await IntentsLedger.open(file, { compactAfter: 0 });
    await a.appendIntent({ clientOrderId: 'c1', at: 1, order });
    await a.close();
    await appendFile(file, '{"t":"intent","clientOrderId":"c2","at":2,"ord');
    const b = await IntentsLedger.open(file);
    expect(b.unresolved().map((i) => i.clientOrderId)).toEqual(['c1']);
    await b.close();
  });

  it('group-commits concurrent appends and compacts resolved intents away', async () => {
    const a = await IntentsLedger.open(file, { compactAfter: 50 });
    const ids = Array.from({ length: 120 }, (_, i) => `c${i}`);
    await Promise.all(ids.map((id, i) => a.appendIntent({ clientOrderId: id, at: i, order })));
    await Promise.all(
      ids
        .slice(0, 110)
        .map((id) => a.resolve({ clientOrderId: id, at: 0, outcome: 'acknowledged', orderId: `o-${id}` })),
    );
    expect(a.unresolved()).toHaveLength(10);
    // Compaction left far fewer lines than the 230 records written.
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(lines.length).toBeLessThan(100);
    await a.appendIntent({ clientOrderId: 'after', at: 0, order });
    await a.close();
    const b = await IntentsLedger.open(file);
    expect(
      b
        .unresolved()
        .map((i) => i.clientOrderId)
        .sort(),
    ).toEqual([...ids.slice(110), 'after'].sort());
    expect((await readFile(file, 'utf8')).trim().split('\n')).toHaveLength(11);
    await b.close();
  });
});

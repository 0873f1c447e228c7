import type * as FsPromises from 'node:fs/promises';
import { mkdtemp, readFile, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IntentsLedger } from './intents-ledger';
import { INFY_MARKET_BUY } from '@shared/testing/order-fixtures';

/**
 * A compaction that dies half-way through writing (disk full, power cut): the kill tests in
 * intents-ledger.test.ts stop the process only between durable steps, after the compacted copy is
 * whole, so they cannot tell a rewrite in a side file from one over the ledger itself. Here the
 * rewrite's one write (at start-up, where the ledger compacts what it loaded) stores half its
 * bytes and fails, and the ledger is then read as the start after that would read it (docs/money-path.md, "Exactly-once orders": a crash during compaction
 * leaves one whole file).
 */

const disk = vi.hoisted(() => ({ tearNextRewrite: false, tornRewrites: 0 }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  /** Like fs.open; the next file opened for a rewrite ('w') stores half of its first write, then fails. */
  const open = async (path: string, flags?: string, mode?: number): Promise<FileHandle> => {
    const handle = await real.open(path, flags, mode);
    if (flags !== 'w' || !disk.tearNextRewrite) return handle;
    disk.tearNextRewrite = false;
    return new Proxy(handle, {
      get(target, key) {
        if (key === 'write') {
          return async (text: string) => {
            disk.tornRewrites += 1;
            await target.write(text.slice(0, Math.floor(text.length / 2)));
            throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          };
        }
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
  return { ...real, open, default: { ...real, open } };
});

const order = INFY_MARKET_BUY;

describe('intents ledger compaction torn half-way', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-ledger-torn-'));
    file = join(dir, 'intents.jsonl');
    disk.tearNextRewrite = false;
    disk.tornRewrites = 0;
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  /** The next start of the ledger (the disk has room) holds exactly `ids` open; the file is the failure's message. */
  async function expectOpenAtNextStart(ids: readonly string[]): Promise<void> {
    const b = await IntentsLedger.open(file, { compactAfter: 0 });
    const open = b.unresolved().map((i) => i.clientOrderId);
    expect(open.sort(), await readFile(file, 'utf8')).toEqual([...ids].sort());
    await b.close();
  }

  it('a compaction at start-up whose write stops half-way loses no unresolved intent and brings back no resolved one at the next start', async () => {
    const a = await IntentsLedger.open(file, { compactAfter: 0 });
    const ids = Array.from({ length: 10 }, (_, i) => `c${i}`);
    for (const id of ids) await a.appendIntent({ clientOrderId: id, at: 0, order });
    for (const id of ids.slice(0, 6))
      await a.resolve({ clientOrderId: id, at: 0, outcome: 'acknowledged', orderId: `o-${id}` });
    await a.close();

    // The next start compacts the six resolved intents away; its write is torn and the start fails.
    disk.tearNextRewrite = true;
    await expect(IntentsLedger.open(file)).rejects.toThrow('ENOSPC');
    expect(disk.tornRewrites, 'the compaction never ran, so nothing was torn').toBe(1);

    // The start after that (the disk has room again) finds every open intent, and only those.
    await expectOpenAtNextStart(ids.slice(6).sort());
  });

  it('a compaction while trading whose write stops half-way is not a failure: the resolution stands, later intents are journaled, and the next start reads every open intent', async () => {
    const a = await IntentsLedger.open(file, { compactAfter: 3 });
    const ids = Array.from({ length: 6 }, (_, i) => `r${i}`);
    for (const id of ids) await a.appendIntent({ clientOrderId: id, at: 0, order });
    await a.resolve({ clientOrderId: 'r0', at: 0, outcome: 'acknowledged', orderId: 'o-r0' });
    await a.resolve({ clientOrderId: 'r1', at: 0, outcome: 'acknowledged', orderId: 'o-r1' });
    // The third resolution triggers a compaction, and the disk is full for its rewrite.
    disk.tearNextRewrite = true;
    await expect(a.resolve({ clientOrderId: 'r2', at: 0, outcome: 'acknowledged', orderId: 'o-r2' })).resolves.toBe(
      undefined,
    );
    expect(disk.tornRewrites, 'the compaction never ran, so nothing was torn').toBe(1);
    await a.appendIntent({ clientOrderId: 'r6', at: 0, order });
    await a.close();

    await expectOpenAtNextStart(['r3', 'r4', 'r5', 'r6']);
  });
});

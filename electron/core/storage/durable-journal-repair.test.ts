import type * as FsPromises from 'node:fs/promises';
import { mkdtemp, readFile, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BracketJournal } from '../brackets/bracket-journal';
import { createBracket } from '../brackets/bracket-machine';
import { bracketRefs } from '../brackets/bracket-refs';
import { IntentsLedger } from '../ledger/intents-ledger';
import { INFY_MARKET_BUY } from '@shared/testing/order-fixtures';

/**
 * A write that fails half-way, and a cut back that fails too (storage/durable-journal.ts: repair,
 * verified). The disk fills up in the middle of one append, and the truncate that should cut the
 * half line off fails as well: the journal must not append the next record after half a line,
 * which would make both unreadable at the next start. Both owners of a journal are tried.
 */

const disk = vi.hoisted(() => ({ tearNextAppend: false, shortNextAppend: false, failTruncates: 0 }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  /** Like fs.open; the next file opened for appending ('a') stores half of its next write, then fails. */
  const open = async (path: string, flags?: string, mode?: number): Promise<FileHandle> => {
    const handle = await real.open(path, flags, mode);
    if (flags !== 'a') return handle;
    return new Proxy(handle, {
      get(target, key) {
        if (key === 'write' && (disk.tearNextAppend || disk.shortNextAppend)) {
          return async (data: string | Uint8Array, offset = 0, length?: number) => {
            const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data);
            const asked = bytes.subarray(offset, length === undefined ? undefined : offset + length);
            const half = asked.subarray(0, Math.floor(asked.length / 2));
            if (disk.shortNextAppend) {
              // A short write, as a filling disk may give: half stored, no error.
              disk.shortNextAppend = false;
              const { bytesWritten } = await target.write(half);
              return { bytesWritten, buffer: data };
            }
            disk.tearNextAppend = false;
            await target.write(half);
            throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          };
        }
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
  /** Like fs.truncate, but fails while `failTruncates` counts down. */
  const truncate = async (path: string, len?: number): Promise<void> => {
    if (disk.failTruncates > 0) {
      disk.failTruncates -= 1;
      throw Object.assign(new Error('EIO: i/o error, truncate'), { code: 'EIO' });
    }
    await real.truncate(path, len);
  };
  return { ...real, open, truncate, default: { ...real, open, truncate } };
});

function aBracket(id: string, quantity: number) {
  return createBracket(
    {
      id,
      request: {
        kind: 'entry',
        entry: { ...INFY_MARKET_BUY, quantity },
        stop: { triggerPrice: 1400 },
        target: { price: 1600 },
        trail: null,
      },
      requestId: null,
      instrument: { instrumentToken: 408065, instrumentType: 'EQ', tickSize: 0.05 },
      refs: bracketRefs(id),
    },
    1_800_000_000_000,
  ).bracket;
}

describe('a journal whose failed write cannot be cut back at once', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-journal-repair-'));
    disk.tearNextAppend = false;
    disk.shortNextAppend = false;
    disk.failTruncates = 0;
  });

  it('intents ledger: a short write is finished before the intent counts as on disk, and the next one lands whole', async () => {
    const file = join(dir, 'intents.jsonl');
    const l = await IntentsLedger.open(file, { compactAfter: 0 });
    disk.shortNextAppend = true;
    await l.appendIntent({ clientOrderId: 'c1', at: 1, order: INFY_MARKET_BUY });
    await l.appendIntent({ clientOrderId: 'c2', at: 2, order: INFY_MARKET_BUY });
    await l.close();
    const unreadable: unknown[] = [];
    const again = await IntentsLedger.open(file, { onUnreadable: (u) => unreadable.push(u) });
    expect(again.unresolved().map((i) => i.clientOrderId)).toEqual(['c1', 'c2']);
    expect(unreadable).toEqual([]);
    await again.close();
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('brackets journal: the torn write is refused, the next bracket is written whole once the cut succeeds, and every bracket is read back after a restart', async () => {
    const file = join(dir, 'brackets.jsonl');
    const j = await BracketJournal.open(file);
    await j.write(aBracket('bREPAIRREPAIRREP1', 1));
    disk.tearNextAppend = true;
    disk.failTruncates = 1;
    await expect(j.write(aBracket('bREPAIRREPAIRREP2', 2))).rejects.toThrow(/ENOSPC/);
    await j.write(aBracket('bREPAIRREPAIRREP3', 3));
    await j.close();
    const again = await BracketJournal.open(file, { onUnreadable: () => undefined });
    expect(again.unreadable(), await readFile(file, 'utf8')).toBeNull();
    expect(
      again
        .brackets()
        .map((b) => b.id)
        .sort(),
    ).toEqual(['bREPAIRREPAIRREP1', 'bREPAIRREPAIRREP3']);
    await again.close();
  });

  it('intents ledger: while the file cannot be cut back, intents are refused (never sent), and none lands after half a line', async () => {
    const file = join(dir, 'intents.jsonl');
    const l = await IntentsLedger.open(file, { compactAfter: 0 });
    await l.appendIntent({ clientOrderId: 'c1', at: 1, order: INFY_MARKET_BUY });
    disk.tearNextAppend = true;
    disk.failTruncates = 2; // the cut after the tear, and the retry before the next intent
    await expect(l.appendIntent({ clientOrderId: 'c2', at: 2, order: INFY_MARKET_BUY })).rejects.toThrow(/ENOSPC/);
    await expect(l.appendIntent({ clientOrderId: 'c3', at: 3, order: INFY_MARKET_BUY })).rejects.toThrow(
      /could not be repaired/,
    );
    await l.appendIntent({ clientOrderId: 'c4', at: 4, order: INFY_MARKET_BUY });
    await l.close();
    const again = await IntentsLedger.open(file, { onUnreadable: () => undefined });
    expect(again.unreadable()).toBeNull();
    expect(again.unresolved().map((i) => i.clientOrderId)).toEqual(['c1', 'c4']);
    await again.close();
  });
});

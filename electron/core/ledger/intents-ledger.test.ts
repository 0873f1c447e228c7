import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, open, readFile, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildChild } from '../testing/build-child';
import { IntentsLedger, type LedgerStep } from './intents-ledger';
import { INFY_MARKET_BUY } from '@shared/testing/order-fixtures';

const order = INFY_MARKET_BUY;

/** Runs the ledger child until it SIGKILLs itself at `step` #`occurrence`; what it had confirmed. */
function runUntilKilled(
  script: string,
  file: string,
  step: LedgerStep,
  occurrence: number,
): Promise<{ appended: string[]; resolving: string[]; resolved: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, file, step, String(occurrence)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += String(d)));
    child.stderr.on('data', (d: Buffer) => (err += String(d)));
    child.on('exit', (_code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`child was not killed: ${err}`));
      const lines = out.split('\n');
      const ids = (verb: string): string[] =>
        lines.filter((l) => l.startsWith(`${verb} `)).map((l) => l.slice(verb.length + 1));
      resolve({ appended: ids('appended'), resolving: ids('resolving'), resolved: ids('resolved') });
    });
  });
}

describe('intents ledger', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-ledger-'));
    file = join(dir, 'intents.jsonl');
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('cuts a torn last line (a crash mid-append) on load, so the next intent is a line of its own and readable', async () => {
    const a = await IntentsLedger.open(file, { compactAfter: 0 });
    await a.appendIntent({ clientOrderId: 'c1', at: 1, order });
    await a.close();
    await appendFile(file, '{"t":"intent","clientOrderId":"c2","at":2,"ord');
    const b = await IntentsLedger.open(file, { compactAfter: 0 });
    expect(b.unresolved().map((i) => i.clientOrderId)).toEqual(['c1']);
    await b.appendIntent({ clientOrderId: 'c3', at: 3, order });
    await b.close();
    const c = await IntentsLedger.open(file);
    expect(c.unresolved().map((i) => i.clientOrderId)).toEqual(['c1', 'c3']);
    await c.close();
  });

  it('a write that fails half-way is cut back: that intent is refused, and the next intent is readable after a restart', async () => {
    let failNext = false;
    // The disk fills up in the middle of one batch: half of it is written, then ENOSPC.
    const openFile = async (path: string, flags: string): Promise<FileHandle> => {
      const real = await open(path, flags);
      const write = real.write.bind(real) as (text: string) => Promise<unknown>;
      return new Proxy(real, {
        get(target, prop, receiver) {
          if (prop !== 'write') return Reflect.get(target, prop, receiver) as unknown;
          return async (text: string) => {
            if (!failNext) return write(text);
            failNext = false;
            await write(text.slice(0, Math.floor(text.length / 2)));
            throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
          };
        },
      });
    };
    const a = await IntentsLedger.open(file, { compactAfter: 0, openFile });
    await a.appendIntent({ clientOrderId: 'c1', at: 1, order });
    failNext = true;
    await expect(a.appendIntent({ clientOrderId: 'c2', at: 2, order })).rejects.toThrow(/ENOSPC/);
    await a.appendIntent({ clientOrderId: 'c3', at: 3, order });
    await a.close();
    const b = await IntentsLedger.open(file);
    expect(b.unresolved().map((i) => i.clientOrderId)).toEqual(['c1', 'c3']);
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

describe('intents ledger in a process killed with SIGKILL', () => {
  let dir: string;
  let script: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-ledger-kill-'));
    script = await buildChild('ledger-child', dir);
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it.each([
    ['batch-written', 3],
    ['batch-synced', 4],
    ['compaction-written', 1],
    ['compaction-renamed', 1],
    ['compaction-renamed', 2],
  ] as const)(
    'killed at %s #%i: every intent on disk and unresolved is open after restart, none resolved comes back, and the next intent is readable',
    async (step, occurrence) => {
      const file = join(dir, `${step}-${occurrence}.jsonl`);
      const { appended, resolving, resolved } = await runUntilKilled(script, file, step, occurrence);
      const next = `c${appended.length}`; // the intent being journaled when the process died
      const a = await IntentsLedger.open(file, { compactAfter: 0 });
      const open = a.unresolved().map((i) => i.clientOrderId);
      // (An intent whose resolution was being written when it died may be either.)
      for (const id of appended) if (!resolving.includes(id)) expect(open, `lost ${id}`).toContain(id);
      for (const id of resolved) expect(open, `resurrected ${id}`).not.toContain(id);
      // An intent whose append was never confirmed may be there (it was never sent); nothing else.
      for (const id of open) expect([...appended, next]).toContain(id);
      await a.appendIntent({ clientOrderId: 'after-restart', at: 0, order });
      await a.close();
      const b = await IntentsLedger.open(file);
      expect(b.unresolved().map((i) => i.clientOrderId)).toEqual([...open, 'after-restart']);
      await b.close();
    },
  );
});

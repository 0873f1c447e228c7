import { appendFile, mkdtemp, open, readFile, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildChild } from '../testing/build-child';
import { JOURNAL_KILL_POINTS, runChild } from '../testing/run-child';
import { IntentsLedger, type LedgerStep } from './intents-ledger';
import { INFY_MARKET_BUY } from '@shared/testing/order-fixtures';

const order = INFY_MARKET_BUY;

/** Runs the ledger child until it SIGKILLs itself at `step` #`occurrence`; what it had confirmed. */
async function runUntilKilled(
  script: string,
  file: string,
  step: LedgerStep,
  occurrence: number,
): Promise<{ appended: string[]; resolving: string[]; resolved: string[] }> {
  const run = await runChild(script, [file, step, String(occurrence)]);
  if (!run.killed) throw new Error(`the child was not killed at ${step} #${occurrence}`);
  return { appended: run.said('appended'), resolving: run.said('resolving'), resolved: run.said('resolved') };
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

  it.each(JOURNAL_KILL_POINTS)(
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

describe('intents ledger: formats, unreadable lines, request ids', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-ledger-fmt-'));
    file = join(dir, 'intents.jsonl');
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  /** Lines exactly as the previous version (format 1, no `v`) wrote them. */
  const FORMAT_1 = [
    '{"t":"intent","clientOrderId":"td-old-open","at":1700000000000,"order":{"exchange":"NSE","tradingsymbol":"INFY","transactionType":"BUY","quantity":1,"orderType":"MARKET","product":"MIS","validity":"DAY"},"requestId":"click-old-1"}',
    '{"t":"intent","clientOrderId":"td-old-done","at":1700000000001,"order":{"exchange":"NSE","tradingsymbol":"INFY","transactionType":"BUY","quantity":1,"orderType":"MARKET","product":"MIS","validity":"DAY"}}',
    '{"t":"resolved","clientOrderId":"td-old-done","at":1700000000050,"outcome":"acknowledged","orderId":"260000000001"}',
  ];

  it('a journal written by the previous format is read: its open intent is kept, and it is rewritten in the current one', async () => {
    await writeFile(file, `${FORMAT_1.join('\n')}\n`);
    const warned: string[] = [];
    const l = await IntentsLedger.open(file, { onUnreadable: (n, keptIn) => warned.push(`${n} ${keptIn}`) });
    expect(l.unresolved()).toEqual([
      expect.objectContaining({ v: 3, clientOrderId: 'td-old-open', requestId: 'click-old-1', order: order }),
    ]);
    expect(l.unreadable()).toBeNull();
    expect(warned).toEqual([]);
    await l.close();
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    // Each line is now `<checksum> <record>` (storage/durable-journal.ts).
    expect(lines.map((x) => JSON.parse(x.slice(9)) as { v: number; clientOrderId: string })).toEqual([
      expect.objectContaining({ v: 3, clientOrderId: 'td-old-open' }),
    ]);
  });

  it('format 2 lines are read as they are; GTT intents are kept open across a restart, and a resolved one answers its request id after a compaction', async () => {
    const v2 = FORMAT_1.map((l) => JSON.stringify({ v: 2, ...(JSON.parse(l) as object) }));
    await writeFile(file, `${v2.join('\n')}\n`);
    const gtt = {
      type: 'single' as const,
      exchange: 'NSE' as const,
      tradingsymbol: 'INFY',
      triggerValues: [1600],
      legs: [{ transactionType: 'SELL' as const, quantity: 1, product: 'MIS' as const, price: 1600 }],
    };
    let l = await IntentsLedger.open(file, { now: () => 1700000000100 });
    expect(l.unresolved().map((i) => i.clientOrderId)).toEqual(['td-old-open']);
    expect(l.unreadable()).toBeNull();
    await l.appendGttIntent({ ref: 'gtt-open', at: 1700000000100, action: 'create', gtt, requestId: 'click-gtt-1' });
    await l.appendGttIntent({ ref: 'gtt-done', at: 1700000000100, action: 'create', gtt, requestId: 'click-gtt-2' });
    await l.resolveGtt({ ref: 'gtt-done', at: 1700000000200, outcome: 'done', gttId: '7' });
    await l.close();

    l = await IntentsLedger.open(file, { now: () => 1700000000300 });
    // The order intents are untouched by the GTT lines, and the other way round.
    expect(l.unresolved().map((i) => i.clientOrderId)).toEqual(['td-old-open']);
    expect(l.unresolvedGtts().map((g) => g.ref)).toEqual(['gtt-open']);
    expect(l.openGttRequest('click-gtt-1')?.ref).toBe('gtt-open');
    expect(l.resolvedGttRequest('click-gtt-2')?.resolution).toMatchObject({ outcome: 'done', gttId: '7' });
    await l.close();
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('"v":2');
  });

  it('a line that cannot be read is moved to a side file, named, and reported at every start until it is dealt with', async () => {
    const damaged = '{"t":"intent","clientOrderId":"td-damaged","at":"yesterday"}';
    const newer = '{"v":9,"t":"intent","clientOrderId":"td-from-the-future"}';
    await writeFile(file, `${FORMAT_1[0]}\n${damaged}\n${newer}\nnot json at all\n${FORMAT_1[1]}\n`);
    const warned: string[] = [];
    const l = await IntentsLedger.open(file, { onUnreadable: (n, keptIn) => warned.push(`${n} ${keptIn}`) });
    expect(l.unresolved().map((i) => i.clientOrderId)).toEqual(['td-old-open', 'td-old-done']);
    expect(l.unreadable()).toEqual({ count: 3, keptIn: `${file}.unreadable` });
    expect(warned).toEqual([`3 ${file}.unreadable`]);
    expect(await readFile(`${file}.unreadable`, 'utf8')).toBe(`${damaged}\n${newer}\nnot json at all\n`);
    await l.close();
    // The ledger no longer holds them; the side file does, and says so at the next start.
    expect(await readFile(file, 'utf8')).not.toContain('td-damaged');
    const again = await IntentsLedger.open(file, { onUnreadable: () => warned.push('again') });
    expect(again.unreadable()).toEqual({ count: 3, keptIn: `${file}.unreadable` });
    expect(warned).toHaveLength(1);
    await again.close();
  });

  it('a resolved intent’s request id is kept across a restart and a compaction, for its window only', async () => {
    let now = 1_800_000_000_000;
    const options = { compactAfter: 1, keepResolvedMs: 60_000, now: () => now };
    const a = await IntentsLedger.open(file, options);
    await a.appendIntent({ clientOrderId: 'td-req-1', at: now, order, requestId: 'click-req-1' });
    await a.resolve({ clientOrderId: 'td-req-1', at: now, outcome: 'acknowledged', orderId: '42', status: 'OPEN' });
    await a.close();
    const b = await IntentsLedger.open(file, options);
    expect(b.resolvedRequest('click-req-1')).toMatchObject({
      intent: { clientOrderId: 'td-req-1' },
      resolution: { outcome: 'acknowledged', orderId: '42', status: 'OPEN' },
    });
    expect(b.unresolved()).toEqual([]);
    await b.close();
    now += 61_000;
    const c = await IntentsLedger.open(file, options);
    expect(c.resolvedRequest('click-req-1')).toBeUndefined();
    await c.close();
  });
});

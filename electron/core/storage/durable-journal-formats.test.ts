import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BracketJournal } from '../brackets/bracket-journal';
import { IntentsLedger } from '../ledger/intents-ledger';

/**
 * Files the journals wrote before they shared `durable-journal.ts` (lines without a checksum;
 * fixtures/README.md) still load after the upgrade, and are rewritten in today's lines.
 */

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

describe('journal files an earlier version wrote', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-journal-formats-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('an intents ledger (format 3): its open intent and open GTT are open, a resolved request id is answered, nothing is unreadable — before and after it is rewritten', async () => {
    const file = join(dir, 'intents.jsonl');
    await copyFile(fixture('intents-format3.jsonl'), file);
    const now = () => 1_800_000_060_000;
    for (let start = 0; start < 2; start += 1) {
      const l = await IntentsLedger.open(file, { now, onUnreadable: () => undefined });
      expect(l.unreadable()).toBeNull();
      expect(l.unresolved().map((i) => [i.clientOrderId, i.requestId])).toEqual([['td-fix-open', 'click-fix-1']]);
      expect(l.unresolvedGtts().map((g) => g.ref)).toEqual(['gtt-fix-open']);
      expect(l.openGttRequest('click-gtt-fix')?.ref).toBe('gtt-fix-open');
      expect(l.resolvedRequest('click-fix-2')?.resolution).toMatchObject({ orderId: '261128000001', status: 'OPEN' });
      await l.close();
    }
    // The start compacted it: every line now carries its checksum.
    for (const line of (await readFile(file, 'utf8')).trim().split('\n')) expect(line).toMatch(/^[0-9a-f]{8} \{/);
  });

  it('a brackets journal (format 1): the bracket still waiting is back as it stood, the dropped one stays gone — before and after it is rewritten', async () => {
    const file = join(dir, 'brackets.jsonl');
    await copyFile(fixture('brackets-format1.jsonl'), file);
    for (let start = 0; start < 2; start += 1) {
      const j = await BracketJournal.open(file, { now: () => 1_800_000_060_000, onUnreadable: () => undefined });
      expect(j.unreadable()).toBeNull();
      expect(j.brackets().map((b) => [b.id, b.phase, b.quantity, b.requestId, b.stop?.order.triggerPrice])).toEqual([
        ['bFIXTUREFIXTURE01', 'waiting_entry', 4, 'click-bracket-fix', 1400],
      ]);
      await j.close();
    }
    for (const line of (await readFile(file, 'utf8')).trim().split('\n')) expect(line).toMatch(/^[0-9a-f]{8} \{/);
  });
});

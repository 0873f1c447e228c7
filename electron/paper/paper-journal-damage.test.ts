import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { JOURNAL_FILE, JournalDamagedError } from './journal';
import { type Api, type Res, startTestBroker } from './test-helpers';
import { tempDirs } from './testing/temp-dirs';

/**
 * Every kind of journal damage → its documented outcome (docs/api.md §Persistence): a torn last
 * line is cut off with a log; anything else stops the start naming the file, the line and what
 * is wrong, and leaves the file as it was; `repair` moves the damage and what follows aside.
 */

const tmp = tempDirs('paper-damage-');

/** The lines of a real journal: a login, a filled MARKET order with its trade, a resting LIMIT. */
let lines: string[];
let filledId: string;
let restingId: string;

beforeAll(async () => {
  const dir = tmp();
  const a = await startTestBroker({ dataDir: dir });
  const infy = await a.instrument('NSE', 'INFY');
  filledId = (await a.place({ quantity: 10, client_order_id: 'd-fill' })).body.order_id;
  const limit = Math.round((infy.last_price - 30) * 20) / 20;
  restingId = (await a.place({ order_type: 'LIMIT', price: limit, client_order_id: 'd-rest' })).body.order_id;
  await a.close();
  lines = readFileSync(join(dir, JOURNAL_FILE), 'utf8').trimEnd().split('\n');
});

const indexOf = (pred: (rec: Record<string, unknown>) => boolean): number =>
  lines.findIndex((l) => pred(JSON.parse(l) as Record<string, unknown>));
const isOrder = (id: string, status?: string) => (r: Record<string, unknown>) => {
  const o = r.o as { orderId?: string; status?: string } | undefined;
  return r.e === 'order' && o?.orderId === id && (status === undefined || o.status === status);
};
const isTrade = (r: Record<string, unknown>) => r.e === 'trade';

/** The same record as the format-2 build wrote it: no checksum. */
function asV2(line: string): string {
  const { v: _v, c: _c, ...rest } = JSON.parse(line) as Record<string, unknown>;
  return JSON.stringify({ v: 2, ...rest });
}

function write(text: string): string {
  const dir = tmp();
  writeFileSync(join(dir, JOURNAL_FILE), text);
  return dir;
}

const withLine = (i: number, f: (line: string) => string): string[] => lines.map((l, k) => (k === i ? f(l) : l));

interface Case {
  readonly damage: string;
  /** The whole journal text after the damage. */
  readonly text: () => string;
  /** 1-based line the refusal must name. */
  readonly line: () => number;
  readonly why: RegExp;
}

const cases: Case[] = [
  {
    damage: 'one character of an order id changed (26000000001r), checksummed line',
    text: () =>
      `${withLine(indexOf(isOrder(filledId)), (l) => l.replace(filledId, `${filledId.slice(0, -1)}r`)).join('\n')}\n`,
    line: () => indexOf(isOrder(filledId)) + 1,
    why: /checksum does not match/,
  },
  {
    damage: 'the same edit in a journal of the format-2 build (no checksums)',
    text: () =>
      `${withLine(indexOf(isOrder(filledId)), (l) => l.replace(filledId, `${filledId.slice(0, -1)}r`))
        .map(asV2)
        .join('\n')}\n`,
    line: () => indexOf(isOrder(filledId)) + 1,
    why: /o\.orderId: must be a decimal id/,
  },
  {
    damage: 'a line {"e":"order","o":null}',
    text: () => `${[lines[0], '{"e":"order","o":null}', ...lines.slice(1)].join('\n')}\n`,
    line: () => 2,
    why: /^o: /,
  },
  {
    damage: 'the event type of the OPEN order renamed (format 2)',
    text: () =>
      `${withLine(indexOf(isOrder(restingId, 'OPEN')), (l) => l.replace('"e":"order"', '"e":"ordr"'))
        .map(asV2)
        .join('\n')}\n`,
    line: () => indexOf(isOrder(restingId, 'OPEN')) + 1,
    why: /unknown event type/,
  },
  {
    damage: 'the event type of the OPEN order renamed (checksummed)',
    text: () =>
      `${withLine(indexOf(isOrder(restingId, 'OPEN')), (l) => l.replace('"e":"order"', '"e":"ordr"')).join('\n')}\n`,
    line: () => indexOf(isOrder(restingId, 'OPEN')) + 1,
    why: /checksum does not match/,
  },
  {
    damage: "a trade's quantity edited",
    text: () => `${withLine(indexOf(isTrade), (l) => l.replace('"quantity":10', '"quantity":100')).join('\n')}\n`,
    line: () => indexOf(isTrade) + 1,
    why: /checksum does not match/,
  },
  {
    damage: 'an unknown status OPEM (format 2)',
    text: () =>
      `${withLine(indexOf(isOrder(restingId, 'OPEN')), (l) => l.replace('"status":"OPEN"', '"status":"OPEM"'))
        .map(asV2)
        .join('\n')}\n`,
    line: () => indexOf(isOrder(restingId, 'OPEN')) + 1,
    why: /o\.status/,
  },
  {
    damage: 'a trade of an order no earlier line holds (format 2)',
    text: () =>
      `${withLine(indexOf(isTrade), (l) => l.replace(`"orderId":"${filledId}"`, '"orderId":"260000000999"'))
        .map(asV2)
        .join('\n')}\n`,
    line: () => indexOf(isTrade) + 1,
    why: /trade .* of order 260000000999, which no earlier line holds/,
  },
  {
    damage: 'a format-2 line after format-4 lines',
    text: () => `${withLine(2, asV2).join('\n')}\n`,
    line: () => 3,
    why: /format-2 record after format-4/,
  },
  {
    damage: 'a line that is not JSON in the middle',
    text: () => `${[lines[0], 'not json', ...lines.slice(1)].join('\n')}\n`,
    line: () => 2,
    why: /not valid JSON/,
  },
  {
    damage: 'a damaged last line that does end in a newline (not a torn write)',
    text: () => `${[...lines, '{"e":"order","o":{"orderId":"26'].join('\n')}\n`,
    line: () => lines.length + 1,
    why: /not valid JSON/,
  },
];

describe('a damaged journal stops the start, naming the file, the line and what is wrong', () => {
  it.each(cases)('$damage', async (c) => {
    const text = c.text();
    const dir = write(text);
    const path = join(dir, JOURNAL_FILE);
    const err = await startTestBroker({ dataDir: dir }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(JournalDamagedError);
    const d = err as JournalDamagedError;
    expect({ path: d.path, line: d.line }).toEqual({ path, line: c.line() });
    expect(d.why).toMatch(c.why);
    expect(d.message).toContain(`${path} is damaged at line ${c.line()}`);
    expect(d.message).toContain('--repair');
    // Nothing was changed: the trader can still look at, or keep, the damaged file.
    expect(readFileSync(path, 'utf8')).toBe(text);
  });
});

describe('a torn last line (a crash mid-write) is cut off with a log', () => {
  it('and the torn order is gone, but its id is never given to the next order', async () => {
    const open = indexOf(isOrder(restingId, 'OPEN'));
    const torn = lines[open]!.slice(0, 60);
    const dir = write(`${lines.slice(0, open).join('\n')}\n${torn}`);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const b = await startTestBroker({ dataDir: dir });
      try {
        expect(warn.mock.calls.map(String).join('\n')).toMatch(`torn last line (line ${open + 1})`);
        expect((await b.call('GET', `/orders/${restingId}`)).status).toBe(404);
        expect((await b.order(filledId)).status).toBe('COMPLETE');
        const next = (await b.place()).body.order_id as string;
        expect(next).not.toBe(restingId);
        expect(BigInt(next)).toBeGreaterThan(BigInt(restingId));
      } finally {
        await b.close();
      }
    } finally {
      warn.mockRestore();
    }
  });
});

/** A single-trigger GTT on INFY, `offset` rupees from its price, for one share `side` at the trigger. */
async function singleGtt(api: Api, side: 'BUY' | 'SELL', offset: number): Promise<Res> {
  const infy = await api.instrument('NSE', 'INFY');
  const trigger = Math.round((infy.last_price + offset) * 20) / 20;
  return api.call('POST', '/gtt', {
    type: 'single',
    exchange: 'NSE',
    tradingsymbol: 'INFY',
    trigger_values: [trigger],
    orders: [{ transaction_type: side, quantity: 1, product: 'MIS', order_type: 'LIMIT', price: trigger }],
  });
}

describe('repair', () => {
  it('moves the damaged line and everything after it to a side file, says what was lost, and starts', async () => {
    const damagedAt = indexOf(isOrder(restingId, 'OPEN'));
    const text = `${withLine(damagedAt, (l) => l.replace('"quantity":1,', '"quantity":7,')).join('\n')}\n`;
    const dir = write(text);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const b = await startTestBroker({ dataDir: dir, repair: true });
      try {
        const side = readdirSync(dir).filter((f) => f.startsWith(`${JOURNAL_FILE}.damaged-`));
        expect(side).toHaveLength(1);
        const moved = lines.slice(damagedAt);
        moved[0] = moved[0]!.replace('"quantity":1,', '"quantity":7,');
        expect(readFileSync(join(dir, side[0]!), 'utf8')).toBe(`${moved.join('\n')}\n`);
        const log = warn.mock.calls.map(String).join('\n');
        expect(log).toContain(`line ${damagedAt + 1} was damaged (the checksum does not match`);
        expect(log).toContain(side[0]);
        expect(log).toContain(`orders touched: ${restingId}`);
        // What came before the damage is intact; what came after is gone.
        expect((await b.order(filledId)).status).toBe('COMPLETE');
        expect((await b.call('GET', `/orders/${restingId}`)).status).toBe(404);
        expect(BigInt((await b.place()).body.order_id)).toBeGreaterThan(BigInt(restingId));
      } finally {
        await b.close();
      }
      // The repaired journal opens cleanly next time, without --repair.
      const c = await startTestBroker({ dataDir: dir });
      await c.close();
    } finally {
      warn.mockRestore();
    }
  });

  it('a GTT whose line was moved aside never has its id given to the next GTT', async () => {
    const dir = tmp();
    const a = await startTestBroker({ dataDir: dir });
    let removedId: string;
    try {
      const r = await singleGtt(a, 'SELL', +10);
      expect(r.status).toBe(201);
      removedId = String(r.body.gtt_id);
    } finally {
      await a.close();
    }
    // The GTT's line is damaged, so a repair moves it and everything after it aside.
    const path = join(dir, JOURNAL_FILE);
    const all = readFileSync(path, 'utf8').trimEnd().split('\n');
    const at = all.findIndex((l) => l.includes(`"gttId":"${removedId}"`));
    expect(at).toBeGreaterThan(0);
    all[at] = all[at]!.replace('"quantity":1,', '"quantity":2,');
    writeFileSync(path, `${all.join('\n')}\n`);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const b = await startTestBroker({ dataDir: dir, repair: true });
      try {
        expect((await b.call('GET', `/gtt/${removedId}`)).status).toBe(404);
        const next = await singleGtt(b, 'BUY', -10);
        expect(next.status).toBe(201);
        // A client may have seen the removed GTT: its id means that GTT, never a new one.
        expect(BigInt(next.body.gtt_id)).toBeGreaterThan(BigInt(removedId));
      } finally {
        await b.close();
      }
    } finally {
      warn.mockRestore();
    }
  });
});

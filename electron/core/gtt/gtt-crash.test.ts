import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GttRequest } from '@shared/domain/gtt';
import { buildChild } from '../testing/build-child';
import { startCoreFixture, type CoreFixture } from '../testing/core-fixture';

/**
 * A GTT creation is journaled in the intents ledger (docs/gtt.md §When the broker fails): a host
 * SIGKILLed mid-create and restarted never creates it twice when the dialog retries the click
 * under the same request id, and a create that never left is not reported created.
 */

const single = (trigger: number): GttRequest => ({
  type: 'single',
  exchange: 'NSE',
  tradingsymbol: 'INFY',
  triggerValues: [trigger],
  legs: [{ transactionType: 'SELL', quantity: 1, product: 'MIS', price: trigger }],
});

function runChild(script: string, args: readonly string[]): Promise<{ killed: boolean; sent: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += String(d)));
    child.stderr.on('data', (d: Buffer) => (err += String(d)));
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL' && code !== 0) return reject(new Error(`child failed (${code}): ${err}`));
      const sent = out
        .split('\n')
        .filter((l) => l.startsWith('send '))
        .map((l) => l.slice(5));
      resolve({ killed: signal === 'SIGKILL', sent });
    });
  });
}

describe('GTT creation across a SIGKILL of the host', () => {
  let fx: CoreFixture;
  let script: string;
  beforeAll(async () => {
    fx = await startCoreFixture({ rate: { perSecond: 100_000, burst: 100_000 } });
    script = await buildChild('gtt-child', fx.dir);
    const probe = await fx.newCore();
    await probe.start();
    const infy = (await probe.broker.listInstruments()).find((i) => i.tradingsymbol === 'INFY' && i.exchange === 'NSE');
    fx.paper.setPrice(infy?.instrumentToken ?? 0, 1500);
    await probe.close();
  });
  afterAll(async () => fx.close());

  it('the create reached the broker, its reply died with the host; after a restart the same request id answers that GTT and creates no second one', async () => {
    const before = fx.paper.gttCount();
    const request = single(1610);
    const run = await runChild(script, [fx.paper.url, fx.dir, 'replied', 'req-gtt-crash-1', JSON.stringify(request)]);
    expect(run.killed).toBe(true);
    expect(run.sent).toHaveLength(1);
    expect(fx.paper.gttCount()).toBe(before + 1);

    const core = await fx.newCore();
    await core.start();
    const again = await core.gtt.place(request, 'req-gtt-crash-1');
    expect(again).toMatchObject({ state: 'placed', clientGttId: run.sent[0] });
    expect(fx.paper.gttCount()).toBe(before + 1);
    const held = (await core.gtt.list()).filter((g) => g.clientGttId === run.sent[0]);
    expect(held.map((g) => g.gttId)).toEqual([again.state === 'placed' ? again.gttId : '?']);
    await core.close();
  });

  it('killed with the intent on disk and nothing sent: after a restart the same request id creates nothing and says it was not found', async () => {
    const before = fx.paper.gttCount();
    const request = single(1620);
    const run = await runChild(script, [fx.paper.url, fx.dir, 'journaled', 'req-gtt-crash-2', JSON.stringify(request)]);
    expect(run).toEqual({ killed: true, sent: [] });

    const core = await fx.newCore();
    await core.start();
    await core.recovery();
    const again = await core.gtt.place(request, 'req-gtt-crash-2');
    expect(again.state).toBe('unconfirmed');
    expect(again.state === 'unconfirmed' ? again.detail : '').toMatch(/not in its GTT list/);
    expect(fx.paper.gttCount()).toBe(before);
    await core.close();
  });
});

import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerRecord } from '../ledger/ledger-record';
import { startCoreFixture, type CoreFixture } from '../testing/core-fixture';

/** The intents the ledger file holds right now, and which are unresolved (a torn tail is skipped). */
async function readLedger(file: string): Promise<{ all: string[]; open: string[] }> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const all: string[] = [];
  const open = new Set<string>();
  for (const line of text.split('\n')) {
    try {
      const r = LedgerRecord.safeParse(JSON.parse(line));
      if (!r.success) continue;
      if (r.data.t === 'intent') {
        all.push(r.data.clientOrderId);
        open.add(r.data.clientOrderId);
      } else open.delete(r.data.clientOrderId);
    } catch {
      // torn tail
    }
  }
  return { all, open: [...open] };
}

/** Spawns the child, waits until it is placing orders, lets it run `ms`, then SIGKILLs it. */
function runAndKill(script: string, baseUrl: string, dir: string, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, baseUrl, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    child.stdout.on('data', (d: Buffer) => {
      if (String(d).includes('ready')) setTimeout(() => child.kill('SIGKILL'), ms);
    });
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited on its own: ${stderr}`)),
    );
  });
}

describe('crash recovery: a placing process SIGKILLed at random moments', () => {
  let fx: CoreFixture;
  let script: string;

  beforeAll(async () => {
    fx = await startCoreFixture({ rate: { perSecond: 100_000, burst: 100_000 } });
    script = join(fx.dir, 'crash-child.mjs');
    await build({
      entryPoints: [fileURLToPath(new URL('../testing/crash-child.ts', import.meta.url))],
      outfile: script,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'error',
      external: ['bufferutil', 'utf-8-validate'],
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    });
  });
  afterAll(async () => fx.close());

  it('maps every journaled intent to exactly one order after restart and reconciliation', async () => {
    const ledgerFile = join(fx.dir, 'intents-paper.jsonl');
    // Lost replies and 5xx keep requests in flight and intents open when the kill lands.
    fx.paper.setFaults('drop_reply=0.2,server_error=0.1,latency_ms=3');
    const intents = new Set<string>();
    let leftOpenByKills = 0;
    for (let round = 0; round < 6; round += 1) {
      await runAndKill(script, fx.paper.url, fx.dir, 50 + Math.floor(Math.random() * 400));
      const ledger = await readLedger(ledgerFile);
      for (const id of ledger.all) intents.add(id);
      leftOpenByKills += ledger.open.length;
    }

    const core = await fx.newCore();
    await core.start(); // reconciles before anything else is sent
    fx.paper.setFaults({});
    expect(core.openIntents()).toBe(0);

    const orders = await core.broker.listOrders();
    const perIntent = new Map<string, number>();
    for (const o of orders)
      if (o.clientOrderId) perIntent.set(o.clientOrderId, (perIntent.get(o.clientOrderId) ?? 0) + 1);
    expect(intents.size).toBeGreaterThan(0);
    // The kills did land mid-placement: the next start had intents to reconcile.
    expect(leftOpenByKills).toBeGreaterThan(0);
    for (const id of intents) expect(perIntent.get(id), id).toBe(1);
    // Nothing reached the broker without an intent journaled first.
    expect(orders.length).toBe(intents.size);
  });
});

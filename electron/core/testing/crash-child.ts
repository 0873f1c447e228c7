import { MemoryVault } from '../session/secret-vault';
import { TradingCore } from '../trading-core';
import { marketBuy } from './core-fixture';

/**
 * Test-only child process for the crash test: logs in (which reconciles what the previous,
 * killed child left open), then places orders forever until the parent SIGKILLs it.
 * argv: <paper base URL> <data dir>.
 */
async function main(): Promise<void> {
  const [baseUrl, dataDir] = process.argv.slice(2);
  if (!baseUrl || !dataDir) throw new Error('usage: crash-child <baseUrl> <dataDir>');
  const core = await TradingCore.create({
    baseUrl,
    target: { broker: 'paper', label: 'Paper broker', vaultKey: 'paper' },
    credentials: { apiKey: 'paper', apiSecret: 'paper' },
    vault: new MemoryVault(),
    dataDir,
    stream: false,
    rate: null,
    pauseAllOnRetryAfter: false,
    ledgerCompactAfter: 0,
    readBackoff: { baseMs: 5, capMs: 100, maxRetries: 12 },
  });
  await core.start();
  const order = marketBuy(await core.broker.listInstruments());
  process.stdout.write('ready\n');
  const worker = async (): Promise<void> => {
    for (;;) await core.orders.place(order).catch(() => undefined);
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

main().catch((err: unknown) => {
  process.stderr.write(`crash-child failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

import { writeSync } from 'node:fs';
import { IntentsLedger, type LedgerStep } from '../ledger/intents-ledger';
import { INFY_MARKET_BUY } from '@shared/testing/order-fixtures';

/**
 * Test-only child process for the ledger crash test. argv: <ledger file> <kill step> <occurrence>.
 *
 * Journals intents c0, c1, … and resolves every other one, printing `appended cN` once an
 * intent is on disk, `resolving cN` before its resolution is written and `resolved cN` once it
 * is (and any compaction it triggered is done), and SIGKILLs itself the
 * <occurrence>-th time the ledger reaches <kill step> (a batch written but not synced, a
 * compaction written but not renamed, renamed but the directory not synced).
 */
const [file, killStep, occurrence] = process.argv.slice(2);
if (!file || !killStep || !occurrence) throw new Error('usage: ledger-child <file> <step> <occurrence>');
const say = (line: string): void => void writeSync(1, `${line}\n`);
const order = INFY_MARKET_BUY;
let seen = 0;
const onStep = (step: LedgerStep): void => {
  if (step === killStep && (seen += 1) === Number(occurrence)) process.kill(process.pid, 'SIGKILL');
};

const ledger = await IntentsLedger.open(file, { compactAfter: 5, onStep });
for (let i = 0; ; i += 1) {
  const id = `c${i}`;
  await ledger.appendIntent({ clientOrderId: id, at: i, order });
  say(`appended ${id}`);
  if (i % 2 === 0) {
    say(`resolving ${id}`);
    await ledger.resolve({ clientOrderId: id, at: i, outcome: 'acknowledged', orderId: `o${i}` });
    say(`resolved ${id}`);
  }
  if (i > 200) throw new Error(`the kill step ${killStep} #${occurrence} was never reached`);
}

import { writeSync } from 'node:fs';
import { DurableJournal, type JournalStep } from '../storage/durable-journal';

/**
 * Test-only child process for the durable journal's crash test (storage/durable-journal.test.ts).
 * argv: <journal file> <kill step> <occurrence>.
 *
 * Appends records n0, n1, … three at a time (so appends share a batch), printing `appended nN`
 * once each is on disk, and after every ninth record rewrites the journal with every record
 * appended so far; it SIGKILLs itself the <occurrence>-th time the journal reaches <kill step>.
 */
const [file, killStep, occurrence] = process.argv.slice(2);
if (!file || !killStep || !occurrence) throw new Error('usage: journal-child <file> <step> <occurrence>');
const say = (line: string): void => void writeSync(1, `${line}\n`);
let seen = 0;
const onStep = (step: JournalStep): void => {
  if (step === killStep && (seen += 1) === Number(occurrence)) process.kill(process.pid, 'SIGKILL');
};

interface N {
  readonly v: 1;
  readonly n: number;
}
const read = (json: unknown): N | { why: string } =>
  typeof json === 'object' && json !== null && (json as N).v === 1 && typeof (json as N).n === 'number'
    ? (json as N)
    : { why: 'not a record' };

const { journal } = await DurableJournal.open<N>(file, { name: 'test journal', read, onStep });
const kept: N[] = [];
for (let i = 0; i < 300; i += 3) {
  await Promise.all(
    [i, i + 1, i + 2].map(async (n) => {
      const record: N = { v: 1, n };
      await journal.append(record);
      kept.push(record);
      say(`appended n${n}`);
    }),
  );
  if ((i + 3) % 9 === 0) await journal.compact(() => [...kept]);
}
throw new Error(`the kill step ${killStep} #${occurrence} was never reached`);

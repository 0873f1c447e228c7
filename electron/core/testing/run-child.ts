import { spawn } from 'node:child_process';
import type { JournalStep } from '../storage/durable-journal';

/**
 * Where the journals' crash tests stop a child (a step and which occurrence of it): mid-batch,
 * after a sync, and on each side of a compaction's rename, twice for the last.
 */
export const JOURNAL_KILL_POINTS: ReadonlyArray<readonly [JournalStep, number]> = [
  ['batch-written', 3],
  ['batch-synced', 4],
  ['compaction-written', 1],
  ['compaction-renamed', 1],
  ['compaction-renamed', 2],
];

/** What a crash-test child printed, and whether it died by SIGKILL. */
export interface ChildRun {
  readonly killed: boolean;
  /** Everything it printed (for a failure's message). */
  readonly out: string;
  /** The rest of each line it printed that starts with `verb` and a space, in order. */
  readonly said: (verb: string) => string[];
}

/**
 * Test-only: runs a crash-test child (a bundle from `build-child.ts`) with `node` until it ends.
 * Rejects if it ended neither by SIGKILL nor with exit code 0, with what it wrote to stderr.
 */
export function runChild(script: string, args: readonly string[]): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += String(d)));
    child.stderr.on('data', (d: Buffer) => (err += String(d)));
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL' && code !== 0) return reject(new Error(`child failed (${code ?? signal}): ${err}`));
      const lines = out.split('\n');
      resolve({
        killed: signal === 'SIGKILL',
        out,
        said: (verb) => lines.filter((l) => l.startsWith(`${verb} `)).map((l) => l.slice(verb.length + 1)),
      });
    });
  });
}

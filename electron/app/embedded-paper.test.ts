import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmbeddedPaper } from './embedded-paper';

describe('the embedded paper broker', () => {
  it('runs in this thread, and says so, when its worker cannot be loaded (a package without the unpacked file)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'td-embedded-'));
    const said: string[] = [];
    try {
      const paper = await startEmbeddedPaper(
        { port: 0, tickIntervalMs: 0, dataDir: join(dir, 'paper') },
        join(dir, 'no-such-paper-worker.mjs'),
        (m) => said.push(m),
      );
      try {
        const r = await fetch(`${paper.url}/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ api_key: 'paper', api_secret: 'paper' }),
        });
        expect(r.status).toBe(201);
        expect(said).toEqual([
          expect.stringMatching(/^The paper broker runs on the main thread: its worker did not start/),
        ]);
      } finally {
        await paper.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

import { readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppServices } from '../app-services';
import { startAppOnPaper } from './app-on-paper';

/**
 * The bridge tests' harness (CONTRIBUTING.md §Test against main's services): a start that fails
 * half-way fails that suite alone — it closes what it opened (the data folder, the paper broker,
 * main's services), so no folder is left in the temp dir and no socket or timer keeps the run alive.
 */
describe('startAppOnPaper when a start fails half-way', () => {
  let blocker: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((done) => (blocker ? blocker.close(() => done()) : done()));
    blocker = undefined;
  });

  /** The data folders a start named `name` left in the temp dir. */
  const leftBehind = async (name: string): Promise<string[]> =>
    (await readdir(tmpdir())).filter((f) => f.startsWith(`td-${name}-`));

  it('a start price for an instrument the broker does not list is refused naming it, and leaves nothing open', async () => {
    const name = `aop-price-${process.pid}`;
    let services: AppServices | undefined;
    let closed = false;
    const start = startAppOnPaper({
      name,
      prices: { NOSUCHSTOCK: 100 },
      started: (s) => {
        services = s;
        const close = s.close.bind(s);
        s.close = async () => {
          closed = true;
          await close();
        };
      },
    });
    await expect(start).rejects.toThrow(/NSE:NOSUCHSTOCK/);
    expect(services).toBeDefined();
    expect(closed, "main's services are closed").toBe(true);
    expect(await leftBehind(name)).toEqual([]);
  });

  it('a `started` hook that throws fails the start with its error, and the services it was given are closed', async () => {
    const name = `aop-hook-${process.pid}`;
    let closed = false;
    const start = startAppOnPaper({
      name,
      started: (s) => {
        const close = s.close.bind(s);
        s.close = async () => {
          closed = true;
          await close();
        };
        throw new Error('the hook failed');
      },
    });
    await expect(start).rejects.toThrow('the hook failed');
    expect(closed, "main's services are closed").toBe(true);
    expect(await leftBehind(name)).toEqual([]);
  });

  it('a paper broker that cannot listen fails the start, and its data folder is removed', async () => {
    const name = `aop-port-${process.pid}`;
    const taken = createServer();
    blocker = taken;
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const address = taken.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    await expect(startAppOnPaper({ name, paper: { port } })).rejects.toThrow();
    expect(await leftBehind(name)).toEqual([]);
  });
});

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForTest } from '../electron/core/testing/build-child';

/**
 * `npm run bench`, bundled the way scripts/build-node.mjs bundles it; inside the repo, so the
 * packages it leaves out (Playwright, Vite) resolve from node_modules as they do for out/bench.mjs.
 */
const cache = join('node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const dir = mkdtempSync(join(cache, 'bench-cli-'));
const out = join(dir, 'bench.mjs');

beforeAll(async () => {
  await bundleForTest('bench/cli.ts', out, ['electron', '@playwright/test', 'vite']);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bench = (args: string[]) => spawnSync(process.execPath, [out, ...args], { encoding: 'utf8', timeout: 60_000 });

describe('npm run bench on its command line', () => {
  it('--help lists the suites and exits 0 without running one', () => {
    const help = bench(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: npm run bench -- [suite [options]]');
    expect(help.stdout).toMatch(/^ {2}gtt +/m);
    expect(help.stdout).not.toContain('## bench');
  });

  it('an unknown flag, before or after a suite, is one line naming it and exit 2', () => {
    const before = bench(['--frobnicate']);
    expect(before.status).toBe(2);
    expect(before.stdout).not.toContain('## bench');
    expect(before.stderr.trim().split('\n')).toEqual([expect.stringContaining('--frobnicate')]);

    const after = bench(['gtt', '--frobnicate']);
    expect(after.status).toBe(2);
    expect(after.stderr.trim().split('\n')).toEqual([expect.stringContaining("Unknown option '--frobnicate'")]);
  });
});

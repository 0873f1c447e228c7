import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** `npm run host`, bundled the way scripts/build-node.mjs bundles it. */
const dir = mkdtempSync(join(tmpdir(), 'host-cli-'));
const out = join(dir, 'host.mjs');

beforeAll(async () => {
  await build({
    entryPoints: ['electron/host/cli.ts'],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    external: ['electron', 'bufferutil', 'utf-8-validate'],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[]) {
  const child = spawn(process.execPath, [out, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const io = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (io.stdout += String(d)));
  child.stderr.on('data', (d: Buffer) => (io.stderr += String(d)));
  return { child, io, exited: new Promise<number | null>((resolve) => child.once('exit', resolve)) };
}

describe('npm run host on a damaged paper journal', () => {
  it('says which file and line are damaged and how to repair, without a stack trace; --paper-repair starts', async () => {
    const data = join(dir, 'data');
    mkdirSync(join(data, 'paper'), { recursive: true });
    const journal = join(data, 'paper', 'paper-journal.jsonl');
    writeFileSync(journal, '{"e":"session_end","token":"a"}\n{"e":"order","o":null}\n');

    const refused = run(['--data-dir', data]);
    expect(await refused.exited).toBe(2);
    expect(refused.io.stderr).toContain(`${journal} is damaged at line 2`);
    expect(refused.io.stderr).toContain('--paper-repair');
    expect(refused.io.stderr).not.toMatch(/\n\s+at /);
    expect(refused.io.stdout).not.toContain('READY');

    const repaired = run(['--data-dir', data, '--paper-repair']);
    await new Promise<void>((resolve, reject) => {
      repaired.child.stdout.on('data', () => {
        if (repaired.io.stdout.includes('READY ')) resolve();
      });
      repaired.child.once('exit', (code) => reject(new Error(`exited ${code}: ${repaired.io.stderr}`)));
    });
    expect(repaired.io.stderr).toContain('Repaired the paper journal');
    expect(readdirSync(join(data, 'paper')).some((f) => f.startsWith('paper-journal.jsonl.damaged-'))).toBe(true);
    repaired.child.kill('SIGTERM');
    await repaired.exited;
  });
});

describe('npm run host --renderer-dir', () => {
  it('serves the page from the given folder instead of the renderer beside the bundle', async () => {
    const page = join(dir, 'other-renderer');
    mkdirSync(page, { recursive: true });
    writeFileSync(join(page, 'index.html'), '<!doctype html><title>another build</title>');
    const host = run(['--data-dir', join(dir, 'data-renderer'), '--renderer-dir', page]);
    const url = await new Promise<string>((resolve, reject) => {
      host.child.stdout.on('data', () => {
        const m = /READY (\S+)/.exec(host.io.stdout);
        if (m) resolve(m[1] as string);
      });
      host.child.once('exit', (code) => reject(new Error(`exited ${code}: ${host.io.stderr}`)));
    });
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('another build');
    host.child.kill('SIGTERM');
    await host.exited;
  });
});

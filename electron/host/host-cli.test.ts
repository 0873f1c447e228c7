import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { startPaperBroker } from '../paper';
import { rawHttp } from '../paper/raw-http';
import { bundleForTest } from '../core/testing/build-child';
import { userDataDir } from '../app/user-data-dir';

/** `npm run host`, bundled the way scripts/build-node.mjs bundles it. */
const dir = mkdtempSync(join(tmpdir(), 'host-cli-'));
const out = join(dir, 'host.mjs');

beforeAll(async () => {
  await bundleForTest('electron/host/cli.ts', out, ['electron']);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [out, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
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

describe('npm run host against hostile input, as its own process', () => {
  it('GET //[, a bridge frame over 256 KiB and one of invalid UTF-8 each end only that request or bridge: the process keeps running and serving', async () => {
    // In process (host-server.test.ts) a throw in a socket callback is caught by the test runner;
    // here it would end the host, so the exit code tells.
    const pageDir = join(dir, 'renderer-hostile');
    mkdirSync(pageDir, { recursive: true });
    writeFileSync(join(pageDir, 'index.html'), '<!doctype html><title>desk</title>');
    const host = run(['--data-dir', join(dir, 'data-hostile'), '--paper-tick-ms', '0', '--renderer-dir', pageDir]);
    try {
      const page = await new Promise<URL>((resolve, reject) => {
        host.child.stdout.on('data', () => {
          const m = /READY (\S+)/.exec(host.io.stdout);
          if (m) resolve(new URL(m[1] as string));
        });
        host.child.once('exit', (code) => reject(new Error(`exited ${code}: ${host.io.stderr}`)));
      });
      const port = Number(page.port);
      const bridge = (): Promise<WebSocket> =>
        new Promise((resolve, reject) => {
          const ws = new WebSocket(`ws://127.0.0.1:${port}/bridge?key=${page.searchParams.get('key') ?? ''}`, {
            headers: { Origin: page.origin },
          });
          ws.once('open', () => resolve(ws));
          ws.once('error', reject);
        });

      expect((await rawHttp(port, 'GET //[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))?.status).toBe(400);
      for (const frame of ['x'.repeat(300 * 1024), Buffer.from([0x7b, 0xff, 0xfe, 0x7d])]) {
        const ws = await bridge();
        ws.on('error', () => undefined);
        const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
        ws.send(frame, { binary: false });
        expect([1007, 1009]).toContain(await closed);
      }

      // Still the same process, still answering pages and bridge calls.
      expect(host.child.exitCode, host.io.stderr).toBeNull();
      expect((await fetch(page)).status).toBe(200);
      const again = await bridge();
      // The call's reply, whatever events main pushes to a new page first (the desk it joins).
      const reply = new Promise<unknown>((resolve) =>
        again.on('message', (d) => {
          const m = JSON.parse(String(d)) as { id?: number };
          if (m.id === 1) resolve(m);
        }),
      );
      again.send(JSON.stringify({ id: 1, channel: 'session.status' }));
      expect(await reply).toMatchObject({ id: 1, result: { ok: true } });
      again.close();
      expect(host.child.exitCode, host.io.stderr).toBeNull();
    } finally {
      host.child.kill('SIGTERM');
      await host.exited;
    }
  });
});

describe('npm run host --broker', () => {
  it('takes the broker names of the registry, listing them when given another, with exit code 2', async () => {
    const other = run([
      '--data-dir',
      join(dir, 'data-broker'),
      '--broker',
      'fyers',
      '--broker-url',
      'http://127.0.0.1:9/x',
    ]);
    expect(await other.exited).toBe(2);
    expect(other.io.stderr).toContain('--broker must be one of rest, kite, upstox, got "fyers"');
    const noUrl = run(['--data-dir', join(dir, 'data-broker'), '--broker', 'kite']);
    expect(await noUrl.exited).toBe(2);
    expect(noUrl.io.stderr).toContain('--broker kite needs --broker-url (https://api.kite.trade');
  });
});

describe('npm run host on its command line', () => {
  it('--help prints the usage and exits 0 without starting; an unknown flag is one line naming it and exit 2', async () => {
    const help = run(['--help']);
    expect(await help.exited).toBe(0);
    expect(help.io.stdout).toContain('Usage: npm run host');
    expect(help.io.stdout).toContain('--data-dir DIR');
    expect(help.io.stderr).toBe('');

    const unknown = run(['--colour', 'red']);
    expect(await unknown.exited).toBe(2);
    expect(unknown.io.stderr.trim().split('\n')).toEqual([expect.stringContaining("host: Unknown option '--colour'")]);
    expect(unknown.io.stdout).toBe('');
  });

  it('without --data-dir keeps its data in the per-user folder of the Electron app and says where on the READY line', async () => {
    const config = join(dir, 'xdg-config');
    const child = spawn(process.execPath, [out, '--port', '0', '--paper-tick-ms', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, XDG_CONFIG_HOME: config, APPDATA: config, HOME: join(dir, 'home') },
    });
    let stdout = '';
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += String(d);
        const m = /^READY .*$/m.exec(stdout);
        if (m) resolve(m[0]);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const folder = userDataDir(process.platform, { XDG_CONFIG_HOME: config, APPDATA: config }, join(dir, 'home'));
    expect(line).toMatch(/^READY http:\/\/127\.0\.0\.1:\d+\/\?key=\S+ \(data: .+\)$/);
    expect(line.endsWith(`(data: ${folder})`)).toBe(true);
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    // The paper account's journal is there, for the next launch to replay.
    expect(readdirSync(folder)).toContain('paper');
  });
});

describe('npm run host takes secrets from the environment or an owner-only file, never an argument', () => {
  it.each([
    ['--api-secret', 'TRADEDESK_API_SECRET'],
    ['--access-token', 'TRADEDESK_ACCESS_TOKEN'],
  ])('%s is refused in one line naming %s and the file flag (exit 2), nothing started', async (flag, env) => {
    const host = run(['--data-dir', join(dir, 'data-flag'), flag, 's3cret']);
    expect(await host.exited).toBe(2);
    expect(host.io.stderr.trim().split('\n')).toHaveLength(1);
    expect(host.io.stderr).toContain(`${flag} is no longer accepted`);
    expect(host.io.stderr).toContain(env);
    expect(host.io.stderr).toContain(`${flag}-file PATH (mode 0600)`);
    expect(host.io.stdout).not.toContain('READY');
  });

  it('an --api-secret-file others can read is refused, naming the file (exit 2)', async () => {
    const file = join(dir, 'secret-0644');
    writeFileSync(file, 'paper\n');
    chmodSync(file, 0o644);
    const host = run(['--data-dir', join(dir, 'data-mode'), '--api-secret-file', file]);
    expect(await host.exited).toBe(2);
    expect(host.io.stderr).toContain(
      `--api-secret-file ${file}: mode 0644 lets other users read it; chmod 600 ${file}`,
    );
    expect(host.io.stdout).not.toContain('READY');
  });

  it.each(['env', 'file'])('the API secret from the %s logs the host in to its broker', async (source) => {
    const paper = await startPaperBroker({ port: 0, control: true, tickIntervalMs: 0 });
    const file = join(dir, 'secret-0600');
    writeFileSync(file, 'paper\n');
    chmodSync(file, 0o600);
    const host = run(
      [
        '--data-dir',
        join(dir, `data-${source}`),
        '--broker-url',
        paper.url,
        '--api-key',
        'paper',
        ...(source === 'file' ? ['--api-secret-file', file] : []),
      ],
      source === 'env' ? { TRADEDESK_API_SECRET: 'paper' } : {},
    );
    try {
      await vi.waitFor(() => expect(host.io.stdout).toContain('READY '), { timeout: 20_000 });
      // The broker issued the host a session: the secret reached the login.
      expect(paper.sessions()).toHaveLength(1);
      expect(host.io.stderr).not.toContain('paper\n');
    } finally {
      host.child.kill('SIGTERM');
      await host.exited;
      await paper.close();
    }
  });
});

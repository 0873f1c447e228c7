import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForTest } from '../core/testing/build-child';
import { MARKET_BUY_INFY } from './test-helpers';

/** The standalone command, bundled the way scripts/build-node.mjs bundles it. */
const dir = mkdtempSync(join(tmpdir(), 'paper-cli-'));
const out = join(dir, 'paper.mjs');

beforeAll(async () => {
  await bundleForTest('electron/paper/cli.ts', out);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run paper', () => {
  it('prints exactly one READY line (with the control secret), serves, and exits 0 on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [out, '--port', '0', '--seed', '3', '--control', '--rate', '50/s', '--data-dir', join(dir, 'data')],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    const [url, secret] = await new Promise<[string, string]>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += String(d);
        const m = /^READY (http:\/\/127\.0\.0\.1:\d+\/v1) control=(\S+)\n/.exec(stdout);
        if (m) resolve([m[1] as string, m[2] as string]);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const control = (s: string) => fetch(`${url}/_control/holds`, { headers: { 'X-Paper-Control': s } });
    expect((await control(secret)).status).toBe(200);
    expect((await control(`${secret}x`)).status).toBe(401);
    const r = await fetch(`${url}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: 'paper', api_secret: 'paper' }),
    });
    expect(r.status).toBe(201);
    expect(r.headers.get('ratelimit-policy')).toBe('"default";q=100;w=2');
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(1);
  });

  it('--no-idempotency accepts a reused client_order_id as a second order (201, not 409); --orderbook-lag-ms keeps both out of the order reads', async () => {
    // Ten minutes of lag: the reads just after the placements cannot show them.
    const child = spawn(process.execPath, [out, '--port', '0', '--no-idempotency', '--orderbook-lag-ms', '600000'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = `${await rootOf(child)}/v1`;
      const token = await signIn(url);
      const place = () =>
        fetch(`${url}/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ ...MARKET_BUY_INFY, client_order_id: 'same-ref' }),
        });
      expect([(await place()).status, (await place()).status]).toEqual([201, 201]);
      const lookup = await fetch(`${url}/orders?client_order_id=same-ref`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(((await lookup.json()) as { orders: unknown[] }).orders).toEqual([]);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('refuses a damaged journal with exit 2 naming the file, line and --repair; --repair starts and says what it moved', async () => {
    const data = join(dir, 'damaged');
    mkdirSync(data);
    const journal = join(data, 'paper-journal.jsonl');
    writeFileSync(
      journal,
      '{"e":"session_end","token":"a"}\n{"e":"order","o":null}\n{"e":"session_end","token":"b"}\n',
    );
    const refused = spawn(process.execPath, [out, '--port', '0', '--data-dir', data], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    refused.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    expect(await new Promise<number | null>((resolve) => refused.once('exit', resolve))).toBe(2);
    expect(stderr).toContain(`${journal} is damaged at line 2: o: `);
    expect(stderr).toContain('--repair');
    expect(stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace

    const repaired = spawn(process.execPath, [out, '--port', '0', '--data-dir', data, '--repair'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out2 = '';
    let err2 = '';
    repaired.stderr.on('data', (d: Buffer) => (err2 += String(d)));
    await new Promise<void>((resolve, reject) => {
      repaired.stdout.on('data', (d: Buffer) => {
        out2 += String(d);
        if (out2.includes('READY ')) resolve();
      });
      repaired.once('exit', (code) => reject(new Error(`exited ${code}: ${err2}`)));
    });
    expect(err2).toMatch(
      /Repaired the paper journal .*line 2 was damaged.*Moved it and the 1 line\(s\) after it to .*\.damaged-/,
    );
    repaired.kill('SIGTERM');
    await new Promise((resolve) => repaired.once('exit', resolve));
  });

  it('refuses bad arguments with exit code 2', async () => {
    const child = spawn(process.execPath, [out, '--port', 'abc'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toMatch(/--port/);
  });

  it('--clock starts the market at a chosen time and speed, so a run meets the session it asks for', async () => {
    const child = spawn(process.execPath, [out, '--port', '0', '--clock', '2026-11-23T16:00:00+05:30,60'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = `${await rootOf(child)}/v1`;
      const token = await signIn(url);
      const status = (await (
        await fetch(`${url}/market/status`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { now: string; speed: number; exchanges: Array<{ exchange: string; phase: string }> };
      expect(status.now.slice(0, 13)).toBe('2026-11-23T16');
      expect(status.speed).toBe(60);
      expect(status.exchanges.find((e) => e.exchange === 'NSE')?.phase).toBe('closed');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('refuses a --clock that is neither wall nor a time, naming --clock, with exit code 2', async () => {
    const child = spawn(process.execPath, [out, '--port', '0', '--clock', 'tomorrow'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    expect(await new Promise<number | null>((resolve) => child.once('exit', resolve))).toBe(2);
    expect(stderr).toMatch(/^paper: --clock must be wall or a time like 2026-11-24T09:14:50\+05:30/);
  });

  it('--kite-redirect-url is where the Kite login page sends the request token (docs/kite.md §Login)', async () => {
    const child = spawn(process.execPath, [out, '--port', '0', '--kite-redirect-url', 'http://127.0.0.1:9/kite/cb'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await rootOf(child);
    const r = await fetch(`${url}/kite/connect/login?v=3&api_key=paper`, { redirect: 'manual' });
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:9\/kite\/cb\?request_token=[0-9a-f]{32}&/);
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  });

  it('refuses an --orderbook-lag-ms that is not a whole number of ms, naming it, with exit code 2', async () => {
    for (const bad of ['soon', '-5', '1.5', '600001']) {
      const child = spawn(process.execPath, [out, '--port', '0', `--orderbook-lag-ms=${bad}`], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
      expect(await new Promise<number | null>((resolve) => child.once('exit', resolve)), bad).toBe(2);
      expect(stderr, bad).toMatch(/^paper: --orderbook-lag-ms must be a whole number of ms from 0 to 600000/);
    }
  });

  it('refuses a --kite-redirect-url that is not a URL, naming it, with exit code 2', async () => {
    const child = spawn(process.execPath, [out, '--port', '0', '--kite-redirect-url', 'callback'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    expect(await new Promise<number | null>((resolve) => child.once('exit', resolve))).toBe(2);
    expect(stderr).toMatch(/^paper: --kite-redirect-url must be a URL/);
  });

  it('--kite-plan personal and --kite-allowed-ips set the Kite app’s console (docs/kite.md §The plan, §Static IP)', async () => {
    const child = spawn(
      process.execPath,
      [
        out,
        '--port',
        '0',
        '--kite-plan',
        'personal',
        '--kite-allowed-ips',
        '203.0.113.7',
        '--kite-order-limits',
        '5/s',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const url = await rootOf(child);
    const location = (await fetch(`${url}/kite/connect/login?v=3&api_key=paper`, { redirect: 'manual' })).headers.get(
      'location',
    );
    const requestToken = new URL(location ?? '').searchParams.get('request_token') ?? '';
    const checksum = createHash('sha256').update(`paper${requestToken}paper`).digest('hex');
    const session = await fetch(`${url}/kite/session/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ api_key: 'paper', request_token: requestToken, checksum }),
    });
    const token = ((await session.json()) as { data: { access_token: string } }).data.access_token;
    const auth = { authorization: `token paper:${token}` };
    const quote = await fetch(`${url}/kite/quote/ltp?i=NSE:INFY`, { headers: auth });
    expect(quote.status).toBe(403);
    expect(await quote.json()).toMatchObject({ error_type: 'PermissionException' });
    const order = await fetch(`${url}/kite/orders/regular`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'exchange=NSE&tradingsymbol=INFY&transaction_type=BUY&quantity=1&product=MIS&order_type=LIMIT&price=1400',
    });
    expect(await order.json()).toMatchObject({ message: /^IP \(127\.0\.0\.1\) is not allowed to place orders/ });
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  });

  it.each([
    ['--kite-plan', 'gold', /^paper: --kite-plan must be connect or personal, not gold/],
    ['--kite-allowed-ips', '127.0.0.1,laptop', /^paper: --kite-allowed-ips must be IP addresses .*laptop is not one/],
    ['--kite-order-limits', '10 a second', /^paper: --kite-order-limits must look like 10\/s,400\/min,5000\/day/],
    ['--upstox-allowed-ips', 'desk', /^paper: --upstox-allowed-ips must be IP addresses .*desk is not one/],
  ])('refuses %s %s, saying what it takes, with exit code 2', async (flag, value, message) => {
    const child = spawn(process.execPath, [out, '--port', '0', flag, value], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    expect(await new Promise<number | null>((resolve) => child.once('exit', resolve))).toBe(2);
    expect(stderr).toMatch(message);
  });
});

/** `http://127.0.0.1:P` once the CLI prints READY (it fails if the process exits first). */
function rootOf(child: ChildProcessByStdio<null, Readable, Readable>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += String(d);
      const m = /^READY (http:\/\/127\.0\.0\.1:\d+)\/v1\n/.exec(stdout);
      if (m) resolve(m[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}`)));
  });
}

/** A trade token from the CLI's broker at `v1`, signed in with the paper account's key and secret. */
async function signIn(v1: string): Promise<string> {
  const login = await fetch(`${v1}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: 'paper', api_secret: 'paper' }),
  });
  return ((await login.json()) as { access_token: string }).access_token;
}

describe('npm run paper on its command line', () => {
  it('--help prints the usage and exits 0 without serving; an unknown flag is one line naming it and exit 2', async () => {
    const once = async (args: string[]) => {
      const child = spawn(process.execPath, [out, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      const io = { stdout: '', stderr: '' };
      child.stdout.on('data', (d: Buffer) => (io.stdout += String(d)));
      child.stderr.on('data', (d: Buffer) => (io.stderr += String(d)));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      return { code, ...io };
    };
    const help = await once(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: npm run paper');
    expect(help.stdout).not.toMatch(/^READY /m);

    const unknown = await once(['--sed', '3']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toEqual([expect.stringContaining("paper: Unknown option '--sed'")]);
  });
});

import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventHub } from '../event-hub';
import { logFiles, openAppLog } from './app-log';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'td-log-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function allText(dir: string): Promise<string> {
  const files = await logFiles(dir);
  return (await Promise.all(files.map((f) => readFile(f, 'utf8')))).join('');
}

const onPosix = process.platform !== 'win32';

describe("main's log", () => {
  it.runIf(onPosix)('is a 0600 file in a 0700 folder, also when the folder was made wider before', async () => {
    const dir = join(root, 'logs');
    await mkdir(dir, { mode: 0o755 });
    const log = await openAppLog({ dir });
    log.info({ step: 1 }, 'started');
    await log.close();
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const [file] = await logFiles(dir);
    expect(file).toBeDefined();
    expect((await stat(file!)).mode & 0o777).toBe(0o600);
  });

  it('writes one JSON object a line, with its time, level and fields', async () => {
    const dir = join(root, 'logs');
    const log = await openAppLog({ dir });
    log.info({ orders: 3 }, 'synced');
    log.problem('handler orders.list failed', new Error('boom'));
    await log.close();
    const lines = (await allText(dir))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ level: 30, msg: 'synced', orders: 3 });
    expect(lines[0]?.time).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(lines[1]).toMatchObject({ level: 50, msg: 'handler orders.list failed', err: { message: 'boom' } });
  });

  it('never writes a secret: not under a secret-named key, in a header, or quoted in an error message', async () => {
    const dir = join(root, 'logs');
    const log = await openAppLog({ dir });
    const secrets = ['S3CRET-api', 'TOK-kite-header', 'TOK-bearer', 'TOK-query', 'TOK-in-error', 'TOK-nested'];
    log.info({ profile: { kind: 'kite', apiKey: 'kitekey', apiSecret: secrets[0] } }, 'profile saved');
    log.info({ request: { headers: { authorization: `token kitekey:${secrets[1]}` } } }, 'sent');
    log.problem(`refused: Authorization: Bearer ${secrets[2]}`);
    log.problem(`GET /session?access_token=${secrets[3]}&x=1 failed`);
    log.problem('login failed', new Error(`Kite said 403 for token kitekey:${secrets[4]}`));
    log.info({ session: { user: 'AB1234', token: secrets[5] } }, 'session');
    await log.close();
    const text = await allText(dir);
    for (const s of secrets) expect(text, `${s} in the log`).not.toContain(s);
    // What is not a secret stays readable for the support desk.
    for (const kept of ['kitekey', 'AB1234', 'profile saved', 'login failed', '[redacted]'])
      expect(text).toContain(kept);
  });

  it('logs the session events a support desk reads, and not the busy ones', async () => {
    const dir = join(root, 'logs');
    const log = await openAppLog({ dir });
    const events = new EventHub();
    const off = log.follow(events);
    events.emit('session.expired', { reason: 'the broker refused the token', version: { run: 'r1', seq: 3 } });
    events.emit('market.ticks', { ticks: [] } as never);
    off();
    events.emit('session.expired', { reason: 'after unfollow', version: { run: 'r1', seq: 4 } });
    await log.close();
    const text = await allText(dir);
    expect(text).toContain('the broker refused the token');
    expect(text).not.toContain('market.ticks');
    expect(text).not.toContain('after unfollow');
  });

  it('rolls to a new file past its size and keeps only the newest few', async () => {
    const dir = join(root, 'logs');
    const log = await openAppLog({ dir, maxSize: '1k', keep: 2 });
    const filler = 'x'.repeat(200);
    // Writes until the fifth file exists: pino-roll rolls after a write has reached the disk.
    for (let i = 0; i < 10_000 && !(await logFiles(dir)).some((f) => f.endsWith('.5.log')); i++) {
      log.info({ i, filler }, 'line');
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await logFiles(dir)).some((f) => f.endsWith('.5.log'))).toBe(true);
    await log.close();
    // The current file and two rolled ones; the older ones are removed.
    await expect.poll(async () => (await logFiles(dir)).length).toBe(3);
  });
});

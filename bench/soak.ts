import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import WebSocket from 'ws';
import { rawHttp, upgradeRequest } from '../electron/paper/raw-http';

/**
 * `npm run soak -- --seconds N [--idle-seconds I] [--slow K]`: the paper broker and the browser
 * host, each in its own process, under normal traffic, slow readers and bad input for N
 * seconds, after an idle run of I seconds with normal traffic only (and 3 s of warm-up before
 * it, not measured) (docs/benchmarks.md §soak).
 *
 * Prints, every 10 s and at the end: each process's RSS, the p50/p99 of normal calls (REST to
 * the broker, bridge calls to the host) in the idle run and under load, and how many times a
 * process died and was restarted. The JSON summary is the last line. Goals: 0 restarts, RSS
 * within 20 MB from the start of the load to its end (and flat over its second half, where a
 * leak would show once the heap has sized itself), normal-call p99 within 2× of the idle run.
 */

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    'idle-seconds': { type: 'string' },
    slow: { type: 'string', default: '5' },
  },
  strict: true,
});
const seconds = Number(values.seconds);
if (!(seconds > 0)) throw new Error(`--seconds must be a positive number, not ${values.seconds}`);
const idleSeconds = Number(values['idle-seconds'] ?? Math.min(60, Math.max(5, Math.round(seconds / 5))));
const slowCount = Number(values.slow);

const here = dirname(fileURLToPath(import.meta.url));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const mb = (kb: number): number => Math.round(kb / 102.4) / 10;

// ------------------------------------------------------------------ processes

interface Proc {
  readonly name: string;
  readonly args: () => string[];
  child: ChildProcess | null;
  url: string;
  restarts: number;
  lastErr: string[];
  stopping: boolean;
  rss: Array<{ at: number; kb: number }>;
}

/** A supervised process not started yet: `args` are read at each (re)launch. */
function proc(name: string, args: () => string[]): Proc {
  return { name, args, child: null, url: '', restarts: 0, lastErr: [], stopping: false, rss: [] };
}

function rssKb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Starts the process and resolves with the URL of its READY line. */
function launch(p: Proc): Promise<string> {
  return new Promise((resolve, reject) => {
    // The host's API secret comes from the environment, never an argument (README.md).
    const child = spawn(process.execPath, [join(here, `${p.name}.mjs`), ...p.args()], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TRADEDESK_API_SECRET: 'paper' },
    });
    p.child = child;
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += String(d);
      const m = /READY (\S+)/.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.stderr?.on('data', (d: Buffer) => {
      p.lastErr.push(...String(d).trim().split('\n'));
      p.lastErr.splice(0, Math.max(0, p.lastErr.length - 20));
    });
    child.once('exit', (code, signal) => {
      if (p.stopping) return;
      reject(new Error(`${p.name} exited ${code ?? signal} before READY`));
      // Died while the soak runs: count it, say why, start it again on the same port.
      p.restarts += 1;
      console.log(`!! ${p.name} exited (${code ?? signal}); last stderr:\n   ${p.lastErr.slice(-5).join('\n   ')}`);
      void launch(p).then(
        (url) => (p.url = url),
        () => undefined,
      );
    });
  });
}

let paperDir = '';
let hostDir = '';
let paperPort = 0;
const paper = proc('paper', () => [
  '--port',
  String(paperPort),
  '--data-dir',
  paperDir,
  '--rate',
  '200/s',
  '--tick-ms',
  '250',
]);
let hostPort = 0;
const host = proc('host', () => [
  '--port',
  String(hostPort),
  '--data-dir',
  hostDir,
  '--broker-url',
  `http://127.0.0.1:${paperPort}/v1`,
  '--api-key',
  'paper',
]);

// ------------------------------------------------------------------ helpers

let token = '';
async function login(): Promise<string> {
  const r = await fetch(`${paper.url}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: 'paper', api_secret: 'paper' }),
  });
  return ((await r.json()) as { access_token: string }).access_token;
}

function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
}
const round = (x: number): number => Math.round(x * 100) / 100;

/** A bridge socket to the host, with request/reply by id. */
async function bridge(): Promise<{
  ws: WebSocket;
  call(channel: string, payload?: unknown): Promise<unknown>;
}> {
  const u = new URL(host.url);
  const ws = new WebSocket(`ws://${u.host}/bridge?key=${u.searchParams.get('key')}`, {
    headers: { Origin: u.origin },
  });
  const waiting = new Map<number, (r: unknown) => void>();
  let seq = 0;
  ws.on('message', (d) => {
    const m = JSON.parse(String(d)) as { id?: number; result?: unknown };
    if (typeof m.id === 'number') waiting.get(m.id)?.(m.result);
    if (typeof m.id === 'number') waiting.delete(m.id);
  });
  ws.on('error', () => undefined);
  ws.on('close', () => {
    for (const w of waiting.values()) w({ ok: false, error: { kind: 'disconnected' } });
    waiting.clear();
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return {
    ws,
    call: (channel, payload) =>
      new Promise((resolve) => {
        const id = ++seq;
        waiting.set(id, resolve);
        ws.send(JSON.stringify({ id, channel, payload }));
      }),
  };
}

// ------------------------------------------------------------------ load

/** `warmup` (not measured: JIT, connections, first logins), then `idle`, then `load`. */
type Phase = 'warmup' | 'idle' | 'load';
let phase: Phase = 'warmup';
let running = true;
const WARMUP_MS = 3_000;
const latency: Record<Phase, { rest: number[]; bridge: number[] }> = {
  warmup: { rest: [], bridge: [] },
  idle: { rest: [], bridge: [] },
  load: { rest: [], bridge: [] },
};
const counts = { badInput: 0, slowClosed: 0, slowKept: 0, slowOpened: 0, normalErrors: 0, ordersPlaced: 0 };

/** Normal traffic: the reads a dashboard makes, a slow trickle of orders, and bridge calls. */
async function normalRest(): Promise<void> {
  let i = 0;
  while (running) {
    const t0 = performance.now();
    try {
      const path = ['/funds', '/positions', '/orders?status=OPEN', '/holdings'][i % 4] as string;
      const r = await fetch(`${paper.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      await r.arrayBuffer();
      if (r.status === 401) token = await login();
      else if (r.status !== 200) counts.normalErrors += 1;
      else latency[phase].rest.push(performance.now() - t0);
      if (i % 20 === 0) {
        const o = await fetch(`${paper.url}/orders`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            exchange: 'NSE',
            tradingsymbol: 'INFY',
            transaction_type: i % 40 === 0 ? 'BUY' : 'SELL',
            quantity: 1,
            order_type: 'MARKET',
            product: 'MIS',
            validity: 'DAY',
          }),
        });
        await o.arrayBuffer();
        if (o.status === 201) counts.ordersPlaced += 1;
      }
    } catch {
      counts.normalErrors += 1;
    }
    i += 1;
    await sleep(100);
  }
}

async function normalBridge(): Promise<void> {
  let b: Awaited<ReturnType<typeof bridge>> | null = null;
  let i = 0;
  while (running) {
    try {
      if (!b || b.ws.readyState !== WebSocket.OPEN) {
        b = await bridge();
        await b.call('market.subscribe', { owner: 'soak', tokens: instrumentTokens.slice(0, 500) });
      }
      const channel = ['funds.get', 'positions.list', 'orders.list', 'holdings.list'][i % 4] as string;
      const t0 = performance.now();
      const r = (await b.call(channel)) as { ok: boolean };
      if (r.ok) latency[phase].bridge.push(performance.now() - t0);
      else counts.normalErrors += 1;
    } catch {
      counts.normalErrors += 1;
      b = null;
    }
    i += 1;
    await sleep(200);
  }
  b?.ws.close();
}

let instrumentTokens: number[] = [];

/**
 * How long a slow reader stays paused before it reads again to learn whether the server dropped
 * it: past both servers' slow (10 s behind) and dead-peer (20 s / 30 s without a pong) limits.
 * A paused socket cannot see its own close, so it has to look.
 */
const SLOW_LIFETIME_MS = 45_000;

/**
 * A WebSocket client on a bare TCP socket: the handshake by hand, then nothing but bytes. A slow
 * reader built this way costs this process nothing when it finally reads (no frame decoding, no
 * JSON), so it does not take CPU from the servers being measured.
 */
async function rawWebSocket(port: number, target: string, headers: Record<string, string>): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    let head = '';
    const onData = (d: Buffer): void => {
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (head.startsWith('HTTP/1.1 101')) resolve();
      else reject(new Error(head.split('\r\n')[0]));
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error('closed during the handshake')));
    socket.write(upgradeRequest(target, headers));
  });
  return socket;
}

/** One masked client text frame (RFC 6455 §5.2), as a browser would send it. */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const len = payload.length;
  const head = len < 126 ? Buffer.from([0x81, 0x80 | len]) : Buffer.from([0x81, 0x80 | 126, len >> 8, len & 0xff]);
  const mask = Buffer.from([1, 2, 3, 4]);
  const masked = Buffer.from(payload.map((b, i) => b ^ (mask[i % 4] as number)));
  return Buffer.concat([head, mask, masked]);
}

/** Sockets that subscribe to everything and never read, each replaced after its lifetime. */
async function slowReaders(): Promise<void> {
  const open = new Set<Socket>();
  const one = async (kind: 'stream' | 'bridge'): Promise<void> => {
    try {
      let socket: Socket;
      if (kind === 'stream') {
        socket = await rawWebSocket(paperPort, '/v1/stream', { Authorization: `Bearer ${token}` });
        socket.write(textFrame(JSON.stringify({ action: 'subscribe', tokens: instrumentTokens.slice(0, 3000) })));
      } else {
        const u = new URL(host.url);
        socket = await rawWebSocket(hostPort, `/bridge?key=${u.searchParams.get('key')}`, { Origin: u.origin });
      }
      socket.pause();
      open.add(socket);
      counts.slowOpened += 1;
      const dropped = new Promise<boolean>((resolve) => socket.once('close', () => resolve(true)));
      for (let waited = 0; waited < SLOW_LIFETIME_MS && running; waited += 500) await sleep(500);
      if (!running) return;
      // Read again: a socket the server dropped delivers what was queued, then its end.
      socket.on('data', () => undefined);
      socket.resume();
      if (await Promise.race([dropped, sleep(5_000).then(() => false)])) counts.slowClosed += 1;
      else counts.slowKept += 1;
      open.delete(socket);
      socket.destroy();
    } catch {
      /* the process may be restarting */
    }
  };
  const lanes: Array<Promise<void>> = [];
  for (let k = 0; k < slowCount; k++) {
    for (const kind of ['stream', 'bridge'] as const)
      lanes.push(
        (async () => {
          while (running) {
            if (phase === 'load') await one(kind);
            else await sleep(500);
          }
        })(),
      );
  }
  await Promise.all(lanes);
  for (const socket of open) socket.destroy();
}

/** One piece of bad input, chosen in turn. */
async function badInput(i: number): Promise<void> {
  const pp = paperPort;
  const hp = hostPort;
  const key = new URL(host.url).searchParams.get('key') ?? '';
  const dupOrder =
    '{"exchange":"NSE","tradingsymbol":"INFY","transaction_type":"BUY","quantity":1,"order_type":"MARKET",' +
    '"product":"MIS","validity":"DAY","transaction_type":"SELL"}';
  const cases: Array<() => Promise<unknown>> = [
    () => rawHttp(pp, 'GET //[/v1/funds HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    () => rawHttp(pp, upgradeRequest('//[/v1/stream', { Authorization: `Bearer ${token}` })),
    () => rawHttp(pp, `GET /v1/orders/${'9'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
    () =>
      rawHttp(pp, `GET /v1/funds HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer guess-${i}\r\nConnection: close\r\n\r\n`),
    () =>
      rawHttp(
        pp,
        `POST /v1/orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${dupOrder.length}\r\nConnection: close\r\n\r\n${dupOrder}`,
      ),
    () => abortedBody(pp),
    () => rawHttp(pp, 'HELLO THERE\r\n\r\n'),
    () => rawHttp(hp, 'GET //[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    () => rawHttp(hp, upgradeRequest(`//[/bridge?key=${key}`, { Origin: `http://127.0.0.1:${hp}` })),
    () => rawHttp(hp, upgradeRequest(`/bridge?key=${'f'.repeat(64)}`, { Origin: `http://127.0.0.1:${hp}` })),
    () => badFrame(Buffer.from([0x7b, 0xff, 0xfe, 0x7d])),
    () => badFrame('x'.repeat(300 * 1024)),
    () => badStream(),
    () => flood(),
  ];
  await (cases[i % cases.length] as () => Promise<unknown>)().catch(() => undefined);
  counts.badInput += 1;
}

function abortedBody(port: number): Promise<void> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.on('error', () => resolve());
    s.write(
      `POST /v1/orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 500\r\n\r\n{"exchange":',
    );
    setTimeout(() => {
      s.destroy();
      resolve();
    }, 20);
  });
}

async function badFrame(frame: string | Buffer): Promise<void> {
  const b = await bridge();
  const closed = new Promise((r) => b.ws.once('close', r));
  b.ws.send(frame, { binary: false });
  await Promise.race([closed, sleep(2_000)]);
  b.ws.terminate();
}

async function badStream(): Promise<void> {
  const ws = new WebSocket(`${paper.url.replace('http', 'ws')}/stream`, {
    headers: { authorization: `Bearer ${token}` },
  });
  ws.on('error', () => undefined);
  await new Promise((r) => ws.once('open', r));
  ws.send('not json');
  ws.send(JSON.stringify({ action: 'subscribe', tokens: Array.from({ length: 3001 }, (_, k) => k + 1) }));
  ws.send(Buffer.from([0xff, 0x00]), { binary: true });
  await sleep(200);
  ws.terminate();
}

/** 1,000 messages at once on one bridge, most of them nonsense. */
async function flood(): Promise<void> {
  const b = await bridge();
  for (let k = 0; k < 1_000; k++) b.ws.send(k % 2 === 0 ? 'not json' : JSON.stringify({ id: k, channel: 'nope' }));
  await b.call('funds.get');
  b.ws.close();
}

async function badTraffic(): Promise<void> {
  let i = 0;
  while (running) {
    if (phase === 'load') await badInput(i++);
    await sleep(50);
  }
}

// ------------------------------------------------------------------ run

function sample(): void {
  const now = performance.now();
  for (const p of [paper, host]) {
    const kb = rssKb(p.child?.pid);
    if (kb !== null) p.rss.push({ at: now, kb });
  }
}

function median(xs: readonly number[]): number {
  return percentile(xs, 50);
}

/** One process's memory over the load, in MB, and how often it had to be restarted. */
interface RssSummary {
  readonly rss_start_mb: number;
  readonly rss_end_mb: number;
  readonly rss_max_mb: number;
  readonly rss_growth_mb: number;
  readonly rss_second_half_growth_mb: number;
  readonly restarts: number;
}

function rssSummary(p: Proc, loadStart: number): RssSummary {
  const load = p.rss.filter((s) => s.at >= loadStart);
  const tenth = Math.max(1, Math.floor(load.length / 10));
  const start = median(load.slice(0, tenth).map((s) => s.kb));
  const end = median(load.slice(-tenth).map((s) => s.kb));
  // The middle tenth: V8 sizes its heap to the load in the first minutes; a leak keeps growing after.
  const mid = Math.floor(load.length / 2 - tenth / 2);
  const middle = median(load.slice(mid, mid + tenth).map((s) => s.kb));
  return {
    rss_start_mb: mb(start),
    rss_end_mb: mb(end),
    rss_max_mb: mb(Math.max(...load.map((s) => s.kb))),
    rss_growth_mb: mb(end - start),
    rss_second_half_growth_mb: mb(end - middle),
    restarts: p.restarts,
  };
}

function stats(xs: readonly number[]): { n: number; p50_ms: number; p99_ms: number } {
  return { n: xs.length, p50_ms: round(percentile(xs, 50)), p99_ms: round(percentile(xs, 99)) };
}

/** What the worker measuring normal calls needs to know. */
interface NormalSetup {
  readonly paperUrl: string;
  readonly hostUrl: string;
  readonly token: string;
  readonly tokens: number[];
}

/**
 * Normal traffic runs on its own thread, so what it measures is the servers' answer time, not
 * this process's own event loop busy generating bad input.
 */
async function normalWorker(setup: NormalSetup): Promise<void> {
  paper.url = setup.paperUrl;
  host.url = setup.hostUrl;
  token = setup.token;
  instrumentTokens = setup.tokens;
  parentPort?.on('message', (m: { phase?: Phase; stop?: boolean }) => {
    if (m.phase) phase = m.phase;
    if (m.stop) running = false;
  });
  await Promise.all([normalRest(), normalBridge()]);
  parentPort?.postMessage({ latency, errors: counts.normalErrors, orders: counts.ordersPlaced });
}

async function main(): Promise<void> {
  paperDir = mkdtempSync(join(tmpdir(), 'soak-paper-'));
  hostDir = mkdtempSync(join(tmpdir(), 'soak-host-'));
  paper.url = await launch(paper);
  paperPort = Number(new URL(paper.url).port);
  host.url = await launch(host);
  hostPort = Number(new URL(host.url).port);
  token = await login();
  const list = await fetch(`${paper.url}/instruments`, { headers: { authorization: `Bearer ${token}` } });
  instrumentTokens = ((await list.json()) as { instruments: Array<{ instrument_token: number }> }).instruments.map(
    (x) => x.instrument_token,
  );
  console.log(
    `soak: paper ${paper.url} (pid ${paper.child?.pid}), host ${host.url.split('?')[0]} (pid ${host.child?.pid}); ` +
      `${idleSeconds} s idle, then ${seconds} s with ${slowCount}+${slowCount} slow readers and bad input`,
  );

  const sampler = setInterval(sample, 1_000);
  const normal = new Worker(fileURLToPath(import.meta.url), {
    workerData: { paperUrl: paper.url, hostUrl: host.url, token, tokens: instrumentTokens } satisfies NormalSetup,
  });
  const measured = new Promise<{ latency: typeof latency; errors: number; orders: number }>((resolve) =>
    normal.once('message', resolve),
  );
  const setPhase = (p: Phase): void => {
    phase = p;
    normal.postMessage({ phase: p });
  };
  const workers = [slowReaders(), badTraffic()];
  const t0 = performance.now();
  await sleep(WARMUP_MS);
  setPhase('idle');
  await sleep(idleSeconds * 1_000);
  setPhase('load');
  const loadStart = performance.now();
  for (let s = 10; s <= seconds; s += 10) {
    await sleep(10_000);
    const last = (p: Proc) => mb(p.rss.at(-1)?.kb ?? 0);
    console.log(
      `  ${Math.round((performance.now() - t0) / 1000)} s: RSS paper ${last(paper)} MB, host ${last(host)} MB; ` +
        `bad inputs ${counts.badInput}, slow readers opened ${counts.slowOpened}, dropped by the server ` +
        `${counts.slowClosed}, kept ${counts.slowKept}; ` +
        `restarts ${paper.restarts + host.restarts}`,
    );
  }
  await sleep((seconds % 10) * 1_000);
  running = false;
  normal.postMessage({ stop: true });
  const result = await measured;
  await normal.terminate();
  await Promise.allSettled(workers);
  clearInterval(sampler);
  Object.assign(latency, result.latency);
  counts.normalErrors = result.errors;
  counts.ordersPlaced = result.orders;

  paper.stopping = true;
  host.stopping = true;
  const exits = await Promise.all(
    [host, paper].map(
      (p) =>
        new Promise<number | null>((resolve) => {
          if (!p.child || p.child.exitCode !== null) return resolve(p.child?.exitCode ?? null);
          p.child.once('exit', (code) => resolve(code));
          p.child.kill('SIGTERM');
        }),
    ),
  );
  rmSync(paperDir, { recursive: true, force: true });
  rmSync(hostDir, { recursive: true, force: true });

  const idle = { rest: stats(latency.idle.rest), bridge: stats(latency.idle.bridge) };
  const load = { rest: stats(latency.load.rest), bridge: stats(latency.load.bridge) };
  const summary = {
    seconds,
    idle_seconds: idleSeconds,
    slow_readers: slowCount * 2,
    paper: rssSummary(paper, loadStart),
    host: rssSummary(host, loadStart),
    normal: {
      idle,
      load,
      rest_p99_ratio: round(load.rest.p99_ms / Math.max(idle.rest.p99_ms, 0.01)),
      bridge_p99_ratio: round(load.bridge.p99_ms / Math.max(idle.bridge.p99_ms, 0.01)),
      errors: counts.normalErrors,
      orders_placed: counts.ordersPlaced,
    },
    bad_inputs: counts.badInput,
    slow_readers_dropped: counts.slowClosed,
    slow_readers_kept: counts.slowKept,
    restarts: paper.restarts + host.restarts,
    clean_exit: exits.every((c) => c === 0),
  };
  console.log(
    `paper RSS ${summary.paper.rss_start_mb} → ${summary.paper.rss_end_mb} MB (max ${summary.paper.rss_max_mb}, ` +
      `second half ${summary.paper.rss_second_half_growth_mb >= 0 ? '+' : ''}${summary.paper.rss_second_half_growth_mb}), ` +
      `host RSS ${summary.host.rss_start_mb} → ${summary.host.rss_end_mb} MB (max ${summary.host.rss_max_mb}, ` +
      `second half ${summary.host.rss_second_half_growth_mb >= 0 ? '+' : ''}${summary.host.rss_second_half_growth_mb})`,
  );
  console.log(
    `normal p99: REST ${idle.rest.p99_ms} → ${load.rest.p99_ms} ms (×${summary.normal.rest_p99_ratio}), ` +
      `bridge ${idle.bridge.p99_ms} → ${load.bridge.p99_ms} ms (×${summary.normal.bridge_p99_ratio}); ` +
      `restarts ${summary.restarts}; bad inputs ${summary.bad_inputs}`,
  );
  console.log(JSON.stringify(summary));
}

if (isMainThread) await main();
else await normalWorker(workerData as NormalSetup);

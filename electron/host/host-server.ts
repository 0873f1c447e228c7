import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { readFile } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import { BRIDGE_NO_SUCH_WINDOW, BRIDGE_REPLACED } from '@shared/domain/workstation';
import type { EventHub } from '../app/event-hub';
import type { PageClaim } from '../app/workstation/workstation';
import type { Dispatch } from '../app/dispatcher';
import { resolveAppAsset } from '../app/security/app-origin';
import { SECURITY_HEADERS } from '../app/security/content-security-policy';
import { BridgeSender, bridgeFanOut, type BridgeFanOut, type BridgeLimits } from './bridge-sender';
import { MAX_BRIDGE_MESSAGE_BYTES } from '@shared/ipc/limits';

/**
 * The browser host's server: the built renderer over HTTP on 127.0.0.1, and the bridge over a
 * WebSocket at `/bridge?key=SECRET`.
 *
 * It is a second transport, never a second code path: every message goes to the same
 * `dispatch` the Electron IPC binding calls, and every event comes from the same hub. The
 * per-launch secret stands in for Electron's sender check: without it (or from another
 * origin) the upgrade is refused, so another page or process on the machine cannot drive it.
 */
export interface HostOptions {
  readonly port: number;
  readonly rendererDir: string;
  readonly dispatch: Dispatch;
  readonly events: EventHub;
  /** Defaults to 32 random bytes, hex. */
  readonly secret?: string;
  /** Bounds of each bridge socket's unsent bytes, slow and dead pages (defaults in bridge-sender.ts). */
  readonly bridgeLimits?: Partial<BridgeLimits>;
  /**
   * Told when a page's bridge opens (with the desk window its URL names, `/bridge?window=w2`) and
   * closes: the workstation's view of which windows are open (docs/workstation.md §Windows).
   */
  readonly pages?: {
    /** Refused: the socket is closed; `replaced`: those pages' sockets are closed. */
    opened(caller: string, window: string | null): PageClaim;
    closed(caller: string): void;
  };
}

export interface RunningHost {
  readonly url: string;
  readonly port: number;
  readonly secret: string;
  /** Each open bridge's unsent bytes (tests and the soak watch them stay bounded). */
  bridgeStats(): Array<{ bufferedBytes: number }>;
  close(): Promise<void>;
}

const MIME: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.wav': 'audio/wav',
  '.woff2': 'font/woff2',
};

/** Largest bridge message accepted, in bytes: the bridge's one limit, which the page also keeps. */
const MAX_MESSAGE_BYTES = MAX_BRIDGE_MESSAGE_BYTES;

/**
 * The request target as a URL, or null when `new URL()` rejects it: `GET //[` (which an undici
 * `fetch` of that URL sends) would otherwise throw inside a server callback and end the process.
 */
function parseTarget(target: string | undefined, origin: string): URL | null {
  try {
    return new URL(target ?? '/', origin);
  } catch {
    return null;
  }
}

function sameSecret(given: string | null, secret: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Reads the renderer's files, the build's `assets/` each once (docs/live-data.md §The first screen
 * first): those scripts and styles never change under a running host (their names carry their
 * content's hash), and on a busy machine each read's trips through the thread pool and back to a
 * busy event loop held the page's scripts back. index.html and the other files without a hash
 * (the icon, the sounds) are read at every request; a file that cannot be read is not kept.
 */
function assetReader(rendererDir: string): (file: string) => Promise<Buffer> {
  const assets = join(resolve(rendererDir), 'assets') + sep;
  const held = new Map<string, Promise<Buffer>>();
  return (file) => {
    if (!file.startsWith(assets)) return readFile(file);
    let body = held.get(file);
    if (!body) {
      body = readFile(file);
      held.set(file, body);
      body.catch(() => held.delete(file));
    }
    return body;
  };
}

/** Starts the host; resolves once it listens. */
export async function startHost(options: HostOptions): Promise<RunningHost> {
  /** Each live bridge by its caller id: a page's claim of the main window closes the one it replaces. */
  const live = new Map<string, WebSocket>();
  const readAsset = assetReader(options.rendererDir);
  const secret = options.secret ?? randomBytes(32).toString('hex');
  let origin = '';

  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const url = parseTarget(req.url, origin);
    if (!url) {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad request target');
      return;
    }
    const file = resolveAppAsset(url.toString(), options.rendererDir, origin);
    if (!file) {
      res.writeHead(404).end('Not found');
      return;
    }
    readAsset(file).then(
      (body) => {
        const isHtml = extname(file) === '.html';
        res.writeHead(200, {
          ...SECURITY_HEADERS,
          'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
          'Cache-Control': isHtml ? 'no-store' : 'public, max-age=31536000, immutable',
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => res.writeHead(404).end('Not found'),
    );
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const fan = bridgeFanOut(options.bridgeLimits);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // The socket is ours from here: a peer that resets it mid-refusal must not crash the host.
    socket.on('error', () => socket.destroy());
    const url = parseTarget(req.url, origin);
    if (!url) {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const fromPage = req.headers.origin === origin;
    if (url.pathname !== '/bridge' || !fromPage || !sameSecret(url.searchParams.get('key'), secret)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const window = url.searchParams.get('window');
    wss.handleUpgrade(req, socket, head, (ws) => serveBridge(ws, fan, options, window, live));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/?key=${secret}`,
    port,
    secret,
    bridgeStats: () => fan.buffered().map((bufferedBytes) => ({ bufferedBytes })),
    close: async () => {
      fan.close();
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * One page's bridge: `{id, channel, payload}` in, `{id, result}` out; events as `{event, payload}`.
 * A message that is not such an object gets a typed `bad_request`, never a dropped socket.
 * Everything outbound goes through a `BridgeSender`, which bounds what may wait unsent.
 */
let bridgeSeq = 0;

function serveBridge(
  ws: WebSocket,
  fan: BridgeFanOut,
  { dispatch, events, pages }: HostOptions,
  window: string | null,
  live: Map<string, WebSocket>,
): BridgeSender | null {
  const caller = `bridge-${++bridgeSeq}`;
  const claim = pages?.opened(caller, window) ?? { ok: true, replaced: [] };
  if (!claim.ok) {
    ws.on('error', () => undefined);
    ws.close(BRIDGE_NO_SUCH_WINDOW, claim.reason.slice(0, 120));
    return null;
  }
  const sender = new BridgeSender(fan, ws);
  for (const other of claim.replaced) live.get(other)?.close(BRIDGE_REPLACED, 'another page draws the main window');
  live.set(caller, ws);
  const off = events.onAny((event, payload) => sender.event(event, payload));
  ws.on('close', () => {
    live.delete(caller);
    off();
    sender.close();
    pages?.closed(caller);
  });
  // An oversized frame (1009) or invalid UTF-8 (1007): ws closes the socket itself; without a
  // listener the 'error' event would end the process.
  ws.on('error', () => undefined);
  ws.on('message', (data, isBinary) => {
    let msg: unknown;
    try {
      msg = isBinary ? undefined : JSON.parse(data.toString());
    } catch {
      msg = undefined;
    }
    const m = (typeof msg === 'object' && msg !== null ? msg : {}) as {
      id?: unknown;
      channel?: unknown;
      payload?: unknown;
    };
    const id = typeof m.id === 'number' || typeof m.id === 'string' ? m.id : null;
    const reply = (result: unknown): void => sender.reply(id, result);
    if (id === null) {
      reply({
        ok: false,
        error: { kind: 'bad_request', message: 'A bridge message is {id, channel, payload}', field: 'id' },
      });
      return;
    }
    // The dispatcher answers every outcome itself; this catch only keeps a bug in it from
    // leaving a caller unanswered and the process with an unhandled rejection.
    void dispatch(m.channel, m.payload, caller).then(reply, () =>
      reply({ ok: false, error: { kind: 'internal', message: 'Tradedesk hit an internal error on the bridge' } }),
    );
  });
  return sender;
}

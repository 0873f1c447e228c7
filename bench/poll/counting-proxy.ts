import {
  createServer,
  request as httpRequest,
  Agent,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * A byte-counting HTTP proxy for the `poll` benchmark: the browser host talks to the paper
 * broker through it, so every request the desk sends is counted where the broker would count
 * it (docs/benchmarks.md, poll).
 *
 * Requests are counted by method and path (the query dropped); bytes are the bytes on the wire
 * between the host and the proxy, read from the client sockets themselves, so headers, ETags and
 * 304s count exactly as sent. A socket that was upgraded to the stream's WebSocket counts as
 * stream bytes from the upgrade on. `refuseStream(true)` kills every stream socket and answers
 * further upgrades with 503, which the desk sees as a broker whose stream is down.
 */

/** Everything counted so far (cumulative; subtract two to get a window). */
export interface ProxyCounts {
  /** Requests by "METHOD /path", stream upgrades included (a refused one as "GET /v1/stream (refused)"). */
  readonly requests: ReadonlyMap<string, number>;
  /** Bytes of plain HTTP exchanges, both directions. */
  readonly httpBytes: number;
  /** Bytes of stream WebSockets after their upgrade, both directions. */
  readonly streamBytes: number;
}

/** What happened between two snapshots. */
export function countsBetween(before: ProxyCounts, after: ProxyCounts): ProxyCounts {
  const requests = new Map<string, number>();
  for (const [k, n] of after.requests) {
    const d = n - (before.requests.get(k) ?? 0);
    if (d > 0) requests.set(k, d);
  }
  return {
    requests,
    httpBytes: after.httpBytes - before.httpBytes,
    streamBytes: after.streamBytes - before.streamBytes,
  };
}

/** The sum of every request counted. */
export function totalRequests(c: ProxyCounts): number {
  let n = 0;
  for (const v of c.requests.values()) n += v;
  return n;
}

interface Tracked {
  readonly socket: Socket;
  /** Bytes the socket had moved when it became a stream socket; null while plain HTTP. */
  upgradedAt: number | null;
  upstream: Socket | null;
}

const wire = (s: Socket): number => s.bytesRead + s.bytesWritten;

/** A running proxy in front of one upstream origin. */
export class CountingProxy {
  readonly #server: Server;
  readonly #upstream: URL;
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 32 });
  readonly #live = new Set<Tracked>();
  readonly #requests = new Map<string, number>();
  #closedHttp = 0;
  #closedStream = 0;
  #refuse = false;

  private constructor(server: Server, upstream: URL) {
    this.#server = server;
    this.#upstream = upstream;
  }

  /** Starts a proxy on a free loopback port in front of `upstreamOrigin` (`http://127.0.0.1:P`). */
  public static async start(upstreamOrigin: string): Promise<CountingProxy> {
    const server = createServer();
    const proxy = new CountingProxy(server, new URL(upstreamOrigin));
    server.on('connection', (socket: Socket) => proxy.#track(socket));
    server.on('request', (req, res) => proxy.#forward(req, res));
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => proxy.#upgrade(req, socket, head));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** The proxy's origin, `http://127.0.0.1:Q`. */
  public get origin(): string {
    const addr = this.#server.address();
    if (addr === null || typeof addr === 'string') throw new Error('proxy is not listening');
    return `http://127.0.0.1:${addr.port}`;
  }

  /** While on: every stream socket is cut and every new upgrade is refused with 503. */
  public refuseStream(on: boolean): void {
    this.#refuse = on;
    if (!on) return;
    for (const t of this.#live) {
      if (t.upgradedAt === null) continue;
      t.socket.destroy();
      t.upstream?.destroy();
    }
  }

  /** Cumulative counts now. */
  public snapshot(): ProxyCounts {
    let httpBytes = this.#closedHttp;
    let streamBytes = this.#closedStream;
    for (const t of this.#live) {
      const total = wire(t.socket);
      if (t.upgradedAt === null) httpBytes += total;
      else {
        httpBytes += t.upgradedAt;
        streamBytes += total - t.upgradedAt;
      }
    }
    return { requests: new Map(this.#requests), httpBytes, streamBytes };
  }

  public async close(): Promise<void> {
    for (const t of this.#live) {
      t.socket.destroy();
      t.upstream?.destroy();
    }
    this.#agent.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #track(socket: Socket): void {
    const t: Tracked = { socket, upgradedAt: null, upstream: null };
    this.#live.add(t);
    (socket as Socket & { __tracked?: Tracked }).__tracked = t;
    socket.once('close', () => {
      this.#live.delete(t);
      const total = wire(socket);
      if (t.upgradedAt === null) this.#closedHttp += total;
      else {
        this.#closedHttp += t.upgradedAt;
        this.#closedStream += total - t.upgradedAt;
      }
    });
  }

  #count(key: string): void {
    this.#requests.set(key, (this.#requests.get(key) ?? 0) + 1);
  }

  #forward(req: IncomingMessage, res: ServerResponse): void {
    const path = req.url ?? '/';
    this.#count(`${req.method ?? 'GET'} ${path.split('?')[0]}`);
    const headers = { ...req.headers, host: this.#upstream.host };
    const up = httpRequest(
      {
        host: this.#upstream.hostname,
        port: this.#upstream.port,
        method: req.method,
        path,
        headers,
        agent: this.#agent,
      },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-length': '0' });
      res.end();
    });
    req.pipe(up);
  }

  #upgrade(req: IncomingMessage, client: Duplex, head: Buffer): void {
    const path = req.url ?? '/';
    const socket = client as Socket;
    socket.on('error', () => socket.destroy());
    if (this.#refuse) {
      this.#count(`${req.method ?? 'GET'} ${path.split('?')[0]} (refused)`);
      socket.end('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    this.#count(`${req.method ?? 'GET'} ${path.split('?')[0]}`);
    const t = (socket as Socket & { __tracked?: Tracked }).__tracked;
    const upstream = connect(Number(this.#upstream.port), this.#upstream.hostname);
    if (t) {
      // The upgrade request itself was plain HTTP; everything after it is the stream.
      t.upgradedAt = wire(socket);
      t.upstream = upstream;
    }
    upstream.on('error', () => socket.destroy());
    upstream.on('close', () => socket.destroy());
    socket.on('close', () => upstream.destroy());
    upstream.on('connect', () => {
      const lines = [`${req.method} ${path} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i]!;
        const value = name.toLowerCase() === 'host' ? this.#upstream.host : req.rawHeaders[i + 1]!;
        lines.push(`${name}: ${value}`);
      }
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
  }
}

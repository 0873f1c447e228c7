import { mkdtempSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnHost, type HostHandle } from './host-process';

/**
 * A browser host that can crash and come back under the same page, for the restart specs.
 *
 * Each launch of `out/host.mjs` has its own port and per-launch key, so a page could not
 * reconnect to a restarted host by itself. A **front door** gives the page one stable origin: it
 * forwards page loads to the current host, and bridge upgrades with the current host's key and
 * Origin; while no host runs it refuses them (the page's bridge keeps retrying, as it would
 * against a host that is restarting). Test code only.
 */

/** One launch of the host on a given data folder. */
export interface HostProcess {
  readonly handle: HostHandle;
  /** Ends it: SIGKILL is a crash (nothing flushed, nothing answered). */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Starts `out/host.mjs` on `dataDir` and waits for its READY line. */
export async function launchHost(dataDir: string, extraArgs: readonly string[] = []): Promise<HostProcess> {
  const { handle, child } = await spawnHost({ dataDir, args: extraArgs });
  return {
    handle,
    kill: async (signal) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      await exited;
    },
  };
}

/** A fresh data folder for a host that will be restarted on it. */
export function freshDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'tradedesk-e2e-restart-'));
}

/** The stable address a page keeps while hosts come and go behind it. */
export interface FrontDoor {
  /** The page URL (the key in it is replaced by the current host's on every bridge upgrade). */
  readonly url: string;
  /** Points the door at a host, or at none (then page loads get 503 and bridge upgrades are refused). */
  use(host: HostHandle | null): void;
  close(): Promise<void>;
}

/** Opens a front door on 127.0.0.1 (any free port). */
export async function openFrontDoor(): Promise<FrontDoor> {
  let upstream: HostHandle | null = null;
  const tunnels = new Set<Socket>();

  const server: Server = createServer((req, res) => {
    const host = upstream;
    if (!host) {
      res.writeHead(503).end('No host');
      return;
    }
    const target = new URL(req.url ?? '/', host.origin);
    const forward = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });

  server.on('upgrade', (req, page: Socket, head: Buffer) => {
    const host = upstream;
    if (!host) {
      page.destroy();
      return;
    }
    const target = new URL(host.origin);
    const path = new URL(req.url ?? '/', host.origin);
    path.searchParams.set('key', host.key);
    const lines = [`${req.method} ${path.pathname}${path.search} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!;
      const lower = name.toLowerCase();
      const value = lower === 'host' ? target.host : lower === 'origin' ? host.origin : req.rawHeaders[i + 1]!;
      lines.push(`${name}: ${value}`);
    }
    const back = connect(Number(target.port), target.hostname, () => {
      back.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) back.write(head);
      back.pipe(page);
      page.pipe(back);
    });
    for (const s of [page, back]) {
      tunnels.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        tunnels.delete(s);
        page.destroy();
        back.destroy();
      });
    }
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/?key=front-door`,
    use: (host) => {
      upstream = host;
    },
    close: async () => {
      for (const s of tunnels) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The low end of the kernel's ephemeral port range: every `listen(0)` and every outgoing
 * connection takes its local port from that range (Linux: net.ipv4.ip_local_port_range; elsewhere
 * the IANA range, 49152–65535).
 */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > 2048) return low;
  } catch {
    // Not Linux: the IANA range below.
  }
  return 49_152;
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A loopback port for a server that starts listening later (main's login redirect, whose URL the
 * paper broker must be told first). It lies below the ephemeral range, so no socket of this run
 * or of a test file running beside it can be given it meanwhile; a port from `listen(0)` could be
 * taken by any of their connections between the check and the listen, failing it EADDRINUSE.
 */
export async function portForLaterListen(): Promise<number> {
  const low = ephemeralLow();
  const span = Math.min(10_000, low - 2048);
  for (let tries = 0; tries < 50; tries++) {
    const port = low - 1 - Math.floor(Math.random() * span);
    if (await isFree(port)) return port;
  }
  throw new Error(`no free loopback port in the ${span} below ${low}`);
}

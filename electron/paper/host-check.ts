import type { IncomingMessage } from 'node:http';
import { Problem } from './problem';

/**
 * The paper broker answers only requests addressed to a loopback name (docs/paper-broker.md
 * §Loopback only). A web page the trader opens can make the browser send requests to
 * 127.0.0.1 under a name of its own (DNS rebinding): the browser then treats the broker as the
 * page's own origin. Such a request carries that name in `Host`, so a name that is not loopback
 * (or one the broker was told to accept) is refused before any route sees it.
 */
export function hostAllowed(hostHeader: string | undefined, extraNames: ReadonlySet<string>): boolean {
  if (hostHeader === undefined) return false;
  const name = hostName(hostHeader.trim().toLowerCase());
  if (name === null) return false;
  if (name === 'localhost' || name === '[::1]' || extraNames.has(name)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** The Host header without its port: `[::1]:8080` → `[::1]`, `127.0.0.1:80` → `127.0.0.1`. */
function hostName(host: string): string | null {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end < 0 ? null : host.slice(0, end + 1);
  }
  const colon = host.indexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

/** Throws the 403 a request to a name that is not loopback gets. */
export function assertLoopbackHost(req: IncomingMessage, extraNames: ReadonlySet<string>): void {
  if (hostAllowed(req.headers.host, extraNames)) return;
  throw new Problem(
    403,
    'forbidden',
    `The paper broker answers only loopback names (127.0.0.1, localhost, [::1]); Host was ${JSON.stringify(req.headers.host ?? '')}`,
    [{ field: 'Host', message: 'must be a loopback name' }],
  );
}

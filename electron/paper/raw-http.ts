import { connect } from 'node:net';

/**
 * Raw HTTP/1.1 over a socket, for tests and the soak that must send what no HTTP client
 * would: unparseable request targets, oversized headers, torn bodies, upgrade requests.
 */

/** A reply as read off the socket: status, lower-cased headers, body text. */
export interface RawHttpReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * Sends `request` (bytes as given) to 127.0.0.1:`port` and reads until the server closes the
 * connection or `timeoutMs` passes; resolves with the first reply on it, or `null` when none
 * came (the socket closed without a reply, or nothing arrived in time).
 */
export function rawHttp(port: number, request: string | Buffer, timeoutMs = 5_000): Promise<RawHttpReply | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    const done = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parseReply(Buffer.concat(chunks).toString('utf8')));
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      const parsed = parseReply(Buffer.concat(chunks).toString('utf8'));
      if (!parsed) return;
      if (
        parsed.status === 101 ||
        Buffer.byteLength(parsed.body) >= Number(parsed.headers['content-length'] ?? Infinity)
      )
        done();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(request);
  });
}

function parseReply(text: string): RawHttpReply | null {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!m) return null;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { status: Number(m[1]), headers, body: text.slice(end + 4) };
}

/** The lines of a WebSocket upgrade request for `target` (a valid key; no auth unless given). */
export function upgradeRequest(target: string, extra: Readonly<Record<string, string>> = {}): string {
  const headers = {
    Host: '127.0.0.1',
    Connection: 'Upgrade',
    Upgrade: 'websocket',
    'Sec-WebSocket-Version': '13',
    'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
    ...extra,
  };
  return `GET ${target} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
}

import { createHash } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { firstDuplicateKey } from './json-keys';
import { Problem, badField } from './problem';

/**
 * Reading requests and writing replies: JSON bodies, problem+json, ETags.
 *
 * Every way a body can be wrong (media type, size, syntax) becomes a 4xx Problem here, so no
 * bad input can reach a handler as an exception and come out as a 500.
 */

/** Largest request body accepted; orders are a few hundred bytes. */
export const MAX_BODY_BYTES = 64 * 1024;

/** A handler's answer, before faults, ETags and serialisation. */
export interface Reply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Send an ETag and honour If-None-Match (GET list endpoints). */
  readonly etag?: boolean;
}

/**
 * The request target as a URL, or a 400 naming `path` when it is not one: `//[/v1/funds` and
 * `http://[::1/v1/stream` reach a server intact (an HTTP client may even send them) and
 * `new URL()` throws on them, so nothing may parse a target without this guard.
 */
export function requestUrl(target: string | undefined): URL {
  try {
    return new URL(target ?? '/', 'http://127.0.0.1');
  } catch {
    throw new Problem(400, 'invalid_field', 'The request target is not a valid path; send /v1/…', [
      { field: 'path', message: 'is not a valid URL path' },
    ]);
  }
}

/** True for `application/json`, with any parameters (`; charset=utf-8`). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  return type === 'application/json';
}

/**
 * The client went away before its body arrived (reset, aborted upload). Nobody is left to
 * answer, and it is not the broker's fault: the server drops it without logging a bug.
 */
export class ClientGone extends Error {}

/** Reads the whole body as bytes, refusing (413) beyond MAX_BODY_BYTES. */
export function readRaw(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (e: Error): void => {
      if (settled) return;
      settled = true;
      reject(e);
    };
    req.on('data', (c: Buffer) => {
      if (settled) return;
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        fail(new Problem(413, 'payload_too_large', `The body is larger than ${MAX_BODY_BYTES} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks));
    });
    req.on('error', () => fail(new ClientGone('the client closed the connection mid-body')));
    req.on('close', () => fail(new ClientGone('the client closed the connection mid-body')));
  });
}

/**
 * The JSON body of a request that must carry one: `Content-Type: application/json` (else 400
 * unsupported_media_type, as docs/api.md asks, not 415), well-formed JSON (else 400
 * invalid_json), and no key twice in one object (else 400 naming it: `JSON.parse` would keep the
 * last, so a body saying BUY then SELL would place a SELL).
 */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  if (!isJsonMediaType(req.headers['content-type'])) {
    const got = req.headers['content-type'] ?? 'none';
    throw new Problem(
      400,
      'unsupported_media_type',
      `Send the body as JSON with Content-Type: application/json (got ${got})`,
      [{ field: 'Content-Type', message: `must be application/json, not ${got}` }],
    );
  }
  const raw = await readRaw(req);
  const text = raw.toString('utf8');
  if (text.trim() === '')
    throw new Problem(400, 'invalid_json', 'The request body is empty; send a JSON object', [
      { field: 'body', message: 'is empty' },
    ]);
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    const why = e instanceof Error ? e.message : 'malformed';
    throw new Problem(400, 'invalid_json', `The body is not valid JSON: ${why}`, [
      { field: 'body', message: 'is not valid JSON' },
    ]);
  }
  const twice = firstDuplicateKey(text);
  if (twice !== null) {
    throw badField(twice, 'appears more than once in the body; send each field once');
  }
  return value;
}

/** A strong ETag over the serialised body. */
export function etagOf(text: string): string {
  return `"${createHash('sha1').update(text).digest('base64url')}"`;
}

/** True when an If-None-Match header names `etag` (or `*`). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/** Writes a reply; problem replies get `application/problem+json`. */
export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
  problem = false,
): void {
  if (res.headersSent || res.destroyed) return;
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  if (body === undefined || status === 204 || status === 304) {
    res.writeHead(status);
    res.end();
    return;
  }
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': problem ? 'application/problem+json' : 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-cache',
  });
  res.end(text);
}

/**
 * A whole problem+json reply as raw bytes, for sockets no `ServerResponse` owns: a refused
 * WebSocket upgrade, or a request Node's HTTP parser gave up on (`clientError`).
 */
export function rawProblem(p: Problem): string {
  const body = JSON.stringify(p.body());
  const headers = Object.entries(p.headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return (
    `HTTP/1.1 ${p.status} ${STATUS_CODES[p.status] ?? 'Error'}\r\nContent-Type: application/problem+json\r\n` +
    `${headers}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** Largest request line plus headers Node's parser accepts (its default, 16 KiB). */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * The problem for a request the HTTP parser refused before any handler saw it. Node would
 * answer these with a bare status line; clients get the same problem+json as everywhere else.
 */
export function parserProblem(code: string | undefined): Problem {
  if (code === 'HPE_HEADER_OVERFLOW')
    return new Problem(
      431,
      'headers_too_large',
      `The request line and headers are larger than ${MAX_HEADER_BYTES} bytes; shorten the path or the headers`,
    );
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return new Problem(408, 'request_timeout', 'The request did not arrive in time; send it again');
  return new Problem(400, 'malformed_request', 'The request is not well-formed HTTP/1.1');
}

import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Problem } from './problem';

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

/** Reads the whole body as bytes, refusing (413) beyond MAX_BODY_BYTES. */
export function readRaw(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        failed = true;
        reject(new Problem(413, 'payload_too_large', `The body is larger than ${MAX_BODY_BYTES} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!failed) reject(e);
    });
  });
}

/**
 * The JSON body of a request that must carry one: `Content-Type: application/json` (else 400
 * unsupported_media_type, as DESIGN.md §2 asks, not 415) and well-formed JSON (else 400
 * invalid_json).
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
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    const why = e instanceof Error ? e.message : 'malformed';
    throw new Problem(400, 'invalid_json', `The body is not valid JSON: ${why}`, [
      { field: 'body', message: 'is not valid JSON' },
    ]);
  }
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

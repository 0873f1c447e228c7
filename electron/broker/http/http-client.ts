import { Pool, errors as undiciErrors } from 'undici';
import { brokerError } from '../broker-error';

/** Timeouts of one exchange with the broker, in ms. */
export interface HttpTimeouts {
  /** TCP (and TLS) connect. */
  readonly connectMs: number;
  /** From sending the request to the reply's headers: the broker's thinking time. */
  readonly headersMs: number;
  /** Between body chunks: a reply that stalls half-way. */
  readonly bodyMs: number;
}

/** Loopback and a nearby broker answer in milliseconds; these bound a hung socket, not a slow one. */
export const DEFAULT_TIMEOUTS: HttpTimeouts = { connectMs: 3_000, headersMs: 10_000, bodyMs: 10_000 };

/** One request as the REST layer builds it: the path is relative to the base URL's path. */
export interface RawRequest {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** A reply with its JSON body already read (undefined for an empty body). */
export interface RawReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: unknown;
  /** The body did not parse as JSON (a proxy's HTML page, a truncated stream). */
  readonly bodyNotJson: boolean;
}

/**
 * Keep-alive HTTP/1.1 to one broker origin over an undici `Pool`.
 *
 * It only moves bytes and turns transport failures into typed errors (`timeout`, `network`);
 * it knows no paths, no retries and no tokens (headers come in from the caller and are never
 * logged). A fixed pool of persistent connections avoids a TCP handshake per order.
 * @see https://undici.nodejs.org/#/docs/api/Pool
 */
export class HttpClient {
  readonly #pool: Pool;
  readonly #basePath: string;

  public constructor(baseUrl: string, timeouts: HttpTimeouts = DEFAULT_TIMEOUTS, connections = 16) {
    const url = new URL(baseUrl);
    this.#basePath = url.pathname.replace(/\/+$/, '');
    this.#pool = new Pool(url.origin, {
      connections,
      connectTimeout: timeouts.connectMs,
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.bodyMs,
      keepAliveTimeout: 30_000,
      pipelining: 1,
    });
  }

  /** Sends one request; resolves with any status, rejects only with a typed transport error. */
  public async send(req: RawRequest): Promise<RawReply> {
    const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
    let body: string | undefined;
    if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }
    try {
      const res = await this.#pool.request({
        origin: undefined,
        path: this.#basePath + req.path + queryString(req.query),
        method: req.method,
        headers,
        body,
      });
      const text = await res.body.text();
      let parsed: unknown;
      let bodyNotJson = false;
      if (text.length > 0) {
        try {
          parsed = JSON.parse(text);
        } catch {
          bodyNotJson = true;
        }
      }
      return { status: res.statusCode, headers: flatHeaders(res.headers), body: parsed, bodyNotJson };
    } catch (err) {
      throw transportError(err, req.method);
    }
  }

  /** Closes idle connections and waits for running requests. */
  public async close(): Promise<void> {
    await this.#pool.close();
  }
}

function queryString(query: RawRequest['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** Timeouts are `timeout`; anything else below HTTP (refused, reset, closed early) is `network`. */
function transportError(err: unknown, method: string): Error {
  if (
    err instanceof undiciErrors.ConnectTimeoutError ||
    err instanceof undiciErrors.HeadersTimeoutError ||
    err instanceof undiciErrors.BodyTimeoutError
  ) {
    return brokerError('timeout', `The broker did not answer the ${method} in time`);
  }
  const code = (err as { code?: unknown } | null)?.code;
  const why = typeof code === 'string' ? code : err instanceof Error ? err.name : 'unknown';
  return brokerError('network', `Could not reach the broker (${why})`);
}

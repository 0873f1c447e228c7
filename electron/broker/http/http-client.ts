import type { LookupFunction } from 'node:net';
import { Pool, errors as undiciErrors } from 'undici';
import { TransportFailure } from '../broker-error';

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
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  /** A list value repeats its key (`?i=1&i=2`), as GET /quotes takes its instruments. */
  readonly query?: Readonly<Record<string, string | number | readonly string[] | undefined>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /**
   * Send `body` (a flat record) as `application/x-www-form-urlencoded` instead of JSON: Kite
   * Connect takes its writes as form fields (docs/kite.md §The wire).
   */
  readonly form?: boolean;
  /**
   * Gives up on the reply after this many ms from the send (connecting included), instead of
   * the pool's long header/body timeouts: an order POST is followed at once by a lookup.
   */
  readonly timeoutMs?: number;
  /** Abandons the request (its outcome no longer matters, e.g. a lookup already settled it). */
  readonly signal?: AbortSignal;
}

/**
 * How connections are opened. `family: 4` resolves and connects over IPv4 only — the address a
 * broker that checks the caller's IP (Kite's static-IP rule) must see. `lookup` replaces the
 * system resolver (tests: a dual-stack name).
 */
export interface ConnectOptions {
  readonly family?: 4;
  readonly lookup?: LookupFunction;
}

/** A reply with its JSON body already read (undefined for an empty body). */
export interface RawReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: unknown;
  /** The body did not parse as JSON (a proxy's HTML page, a truncated stream). */
  readonly bodyNotJson: boolean;
  /** The body as text (a CSV reply such as Kite's instrument dump is read from here). */
  readonly text?: string;
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

  public constructor(
    baseUrl: string,
    timeouts: HttpTimeouts = DEFAULT_TIMEOUTS,
    connections = 16,
    connect: ConnectOptions = {},
  ) {
    const url = new URL(baseUrl);
    this.#basePath = url.pathname.replace(/\/+$/, '');
    this.#pool = new Pool(url.origin, {
      connections,
      // Only IPv4 addresses of the host are tried, none of its IPv6 ones (docs/kite.md §Static IP).
      ...(connect.family !== undefined || connect.lookup !== undefined
        ? {
            connect: {
              ...(connect.family !== undefined ? { family: connect.family } : {}),
              ...(connect.lookup !== undefined ? { lookup: connect.lookup } : {}),
            },
          }
        : {}),
      connectTimeout: timeouts.connectMs,
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.bodyMs,
      keepAliveTimeout: 30_000,
      pipelining: 1,
    });
  }

  /**
   * Sends one request; resolves with any status, rejects only with a `TransportFailure` that
   * says whether the request may have reached the broker.
   */
  public async send(req: RawRequest): Promise<RawReply> {
    const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
    let body: string | undefined;
    if (req.body !== undefined && req.form === true) {
      body = formBody(req.body);
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }
    // Our own timer, not undici's headersTimeout: that one runs on a coarse ~0.5 s clock.
    const abort = req.timeoutMs === undefined && req.signal === undefined ? null : new AbortController();
    let timedOut = false;
    const timer =
      abort === null || req.timeoutMs === undefined
        ? null
        : setTimeout(() => {
            timedOut = true;
            abort.abort();
          }, req.timeoutMs);
    const onAbandon = (): void => abort?.abort();
    if (req.signal?.aborted) onAbandon();
    req.signal?.addEventListener('abort', onAbandon, { once: true });
    try {
      const res = await this.#pool.request({
        origin: undefined,
        path: this.#basePath + req.path + queryString(req.query),
        method: req.method,
        headers,
        body,
        ...(abort ? { signal: abort.signal } : {}),
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
      return { status: res.statusCode, headers: flatHeaders(res.headers), body: parsed, bodyNotJson, text };
    } catch (err) {
      throw transportError(err, req.method, timedOut);
    } finally {
      if (timer) clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbandon);
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
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v as readonly string[]) params.append(k, item);
    else params.set(k, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** A flat record as form fields; absent (undefined/null) values are left out. */
function formBody(body: unknown): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (v === undefined || v === null) continue;
    params.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return params.toString();
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * Failures at connect time: the request was never written, so the broker cannot have acted on
 * it. Everything else (a reset or close mid-request, a reply that never came) is in doubt.
 */
const CONNECT_PHASE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  // The pool was closed before the request was dispatched.
  'UND_ERR_CLOSED',
]);

/** The error code of a transport failure (looking inside an AggregateError from happy eyeballs). */
function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  if (err instanceof AggregateError) return codeOf(err.errors[0]);
  return undefined;
}

/**
 * Timeouts are `timeout`; anything else below HTTP (refused, reset, closed early) is `network`.
 * Each says whether the request may have reached the broker (`TransportFailure.reach`).
 */
function transportError(err: unknown, method: string, timedOut: boolean): TransportFailure {
  const code = codeOf(err);
  const neverSent = !timedOut && code !== undefined && CONNECT_PHASE_CODES.has(code);
  const reach = neverSent ? 'not_sent' : 'in_doubt';
  if (timedOut) {
    return new TransportFailure({ kind: 'timeout', message: `The broker did not answer the ${method} in time` }, reach);
  }
  if (err instanceof undiciErrors.ConnectTimeoutError) {
    return new TransportFailure(
      { kind: 'timeout', message: `Could not connect to the broker in time (${method})` },
      reach,
    );
  }
  if (err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError) {
    return new TransportFailure({ kind: 'timeout', message: `The broker did not answer the ${method} in time` }, reach);
  }
  const why = code ?? (err instanceof Error ? err.name : 'unknown');
  return new TransportFailure({ kind: 'network', message: `Could not reach the broker (${why})` }, reach);
}

import type { IncomingMessage } from 'node:http';
import { toIstIso } from '@shared/lib/ist-time';
import { Problem } from '../problem';
import { readRaw } from '../http-io';
import { KiteError, inputError } from './errors';

/**
 * Kite's request and value spellings (docs/kite.md §The wire): form-encoded POST/PUT bodies,
 * query strings on GET/DELETE, and IST times written `yyyy-mm-dd hh:mm:ss`.
 */

/** `2026-11-20 09:15:00`: an instant in IST as Kite writes times. */
export function kiteTime(at: number): string {
  return toIstIso(at).slice(0, 19).replace('T', ' ');
}

/** `2026-11-20T09:15:00+0530`: a candle's time as Kite's historical API writes it. */
export function kiteCandleTime(at: number): string {
  return `${toIstIso(at).slice(0, 19)}+0530`;
}

/** Parses a Kite time (`yyyy-mm-dd hh:mm:ss` or `yyyy-mm-dd`, IST) to epoch ms; NaN when it is not one. */
export function parseKiteTime(text: string): number {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (!m) return Number.NaN;
  return Date.parse(`${m[1]}T${m[2] ?? '00'}:${m[3] ?? '00'}:${m[4] ?? '00'}+05:30`);
}

/** Request parameters by name, each sent at most once (a name sent twice is a 400 naming it). */
export class Params {
  constructor(private readonly values: URLSearchParams) {}

  /** The value of `name`, or undefined when absent (or empty, as HTML forms send unset fields). */
  get(name: string): string | undefined {
    const all = this.values.getAll(name);
    if (all.length > 1) throw inputError(name, 'is sent more than once; send each field once');
    const v = all[0];
    return v === undefined || v === '' ? undefined : v;
  }

  /** The value of `name`, or a 400 InputException naming it. */
  need(name: string): string {
    const v = this.get(name);
    if (v === undefined) throw inputError(name, 'is required');
    return v;
  }

  /** All values of a repeatable parameter (`i=NSE:INFY&i=NSE:TCS`). */
  all(name: string): string[] {
    return this.values.getAll(name);
  }

  /**
   * A positive whole number, or undefined when absent. What is not an integer at all (`65.0`,
   * `1e3`, `ten`) is refused in the words of Kite's decoder (docs/kite.md §Smaller rules).
   */
  int(name: string): number | undefined {
    const v = this.get(name);
    if (v === undefined) return undefined;
    if (!/^-?\d{1,9}$/.test(v))
      throw new KiteError(
        400,
        'InputException',
        `Invalid request (failed to decode ${name}, got: ${v.slice(0, 20)} (expected int))`,
      );
    if (Number(v) <= 0) throw inputError(name, `must be a positive whole number, not ${v.slice(0, 20)}`);
    return Number(v);
  }

  /** A price ≥ 0 in rupees, or undefined when absent. */
  price(name: string): number | undefined {
    const v = this.get(name);
    if (v === undefined) return undefined;
    const n = /^\d{1,9}(\.\d{1,4})?$/.test(v) ? Number(v) : Number.NaN;
    if (!Number.isFinite(n)) throw inputError(name, `must be a price such as 1480.05, not ${v.slice(0, 20)}`);
    return n;
  }

  /** One of `options`, or undefined when absent. */
  oneOf<T extends string>(name: string, options: readonly T[]): T | undefined {
    const v = this.get(name);
    if (v === undefined) return undefined;
    if (!(options as readonly string[]).includes(v)) throw inputError(name, `must be one of ${options.join(', ')}`);
    return v as T;
  }
}

/** True for `application/x-www-form-urlencoded` (any parameters). */
function isForm(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/**
 * The parameters of a Kite request: the query string, plus the form body of a POST or PUT
 * (which must be `application/x-www-form-urlencoded`, as Kite's clients send). A body field
 * also named in the query is refused as sent twice.
 */
export async function readParams(req: IncomingMessage, query: URLSearchParams): Promise<Params> {
  const merged = new URLSearchParams(query);
  if (req.method === 'POST' || req.method === 'PUT') {
    let raw: Buffer;
    try {
      raw = await readRaw(req);
    } catch (e) {
      if (e instanceof Problem) throw new KiteError(413, 'InputException', e.detail);
      throw e;
    }
    if (raw.length > 0) {
      if (!isForm(req.headers['content-type']))
        throw inputError(
          'Content-Type',
          `send the body form-encoded (application/x-www-form-urlencoded), not ${req.headers['content-type'] ?? 'none'}`,
        );
      for (const [k, v] of new URLSearchParams(raw.toString('utf8'))) merged.append(k, v);
    }
  }
  return new Params(merged);
}

/** The JSON body of `POST /margins/orders` (Kite sends that one as JSON). */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const raw = await readRaw(req).catch((e: unknown) => {
    if (e instanceof Problem) throw new KiteError(413, 'InputException', e.detail);
    throw e;
  });
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw inputError('body', 'is not valid JSON; send an array of orders');
  }
}

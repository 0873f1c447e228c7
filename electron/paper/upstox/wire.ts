import type { IncomingMessage } from 'node:http';
import { readRaw } from '../http-io';
import { Problem } from '../problem';
import { UPSTOX_CODES, UpstoxError, inputError } from './errors';

/**
 * Request bodies on /upstox (docs/upstox.md §The wire): order writes send JSON objects, the
 * token exchange a form. Too large is 413; not JSON, or not an object, a 400 naming `body`.
 */

async function raw(req: IncomingMessage): Promise<Buffer> {
  try {
    return await readRaw(req);
  } catch (e) {
    if (e instanceof Problem) throw new UpstoxError(413, UPSTOX_CODES.invalidInput, e.detail, 'body');
    throw e;
  }
}

/** The JSON object a request carries. */
export async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = (await raw(req)).toString('utf8');
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw inputError('body', 'is not valid JSON; send a JSON object');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw inputError('body', 'must be a JSON object');
  return v as Record<string, unknown>;
}

/** The form a request carries (`application/x-www-form-urlencoded`), merged over its query. */
export async function readForm(req: IncomingMessage, query: URLSearchParams): Promise<URLSearchParams> {
  const merged = new URLSearchParams(query);
  const body = await raw(req);
  for (const [k, v] of new URLSearchParams(body.toString('utf8'))) merged.set(k, v);
  return merged;
}

/** `yyyy-mm-dd hh:mm:ss` IST, how Upstox writes a time. */
export { kiteTime as upstoxTime } from '../kite/wire';

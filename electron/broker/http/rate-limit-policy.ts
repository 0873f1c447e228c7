import type { RateLimit } from './token-bucket';

/**
 * Reads a broker's published request limits from its `RateLimit-Policy` header (IETF
 * draft-ietf-httpapi-ratelimit-headers, structured-field form; docs/api.md §Headers, §Limits):
 * `"default";q=20;w=2, "orders";q=10;w=1` — a quota `q` per window of `w` seconds, read as a
 * token bucket of burst `q` refilling at `q / w` a second.
 */

/** The policies a reply named, by policy name ("default", "orders", …). */
export type PublishedPolicies = ReadonlyMap<string, RateLimit>;

const ITEM = /^\s*(?:"([^"]*)"|([A-Za-z*][A-Za-z0-9_.*:/%-]*))((?:\s*;\s*[a-z*][a-z0-9_.*-]*(?:=[^;,]*)?)*)\s*$/;
const PARAM = /;\s*([a-z*][a-z0-9_.*-]*)(?:=([^;,]*))?/g;

/** The policies in one header value; items that do not parse or lack a positive q and w are skipped. */
export function parseRateLimitPolicy(header: string | undefined): PublishedPolicies {
  const out = new Map<string, RateLimit>();
  if (!header) return out;
  for (const item of header.split(',')) {
    const m = ITEM.exec(item);
    if (!m) continue;
    const name = m[1] ?? m[2] ?? '';
    let q = Number.NaN;
    let w = Number.NaN;
    for (const [, key, value] of (m[3] ?? '').matchAll(PARAM)) {
      if (key === 'q') q = Number(value);
      if (key === 'w') w = Number(value);
    }
    if (!(Number.isFinite(q) && q >= 1 && Number.isFinite(w) && w > 0)) continue;
    out.set(name, { perSecond: q / w, burst: Math.floor(q) });
  }
  return out;
}

/**
 * What counts as a secret in what main writes for a support desk: its log and the problem report
 * (docs/architecture.md §Release).
 */

/** Keys whose values are secrets wherever they appear (a profile, a header, a reply). */
export const SECRET_KEYS: readonly string[] = [
  'token',
  'accessToken',
  'access_token',
  'requestToken',
  'request_token',
  'refreshToken',
  'refresh_token',
  'enctoken',
  'apiSecret',
  'api_secret',
  'secret',
  'password',
  'authorization',
  'Authorization',
  'cookie',
  'checksum',
];

export const REDACTED = '[redacted]';

/**
 * The shapes a token travels in, for text no key names: Kite's `token api_key:access_token`,
 * `Bearer …`, and `access_token=…` style parameters.
 */
const SECRET_SHAPES: readonly [RegExp, string][] = [
  [/\btoken\s+[\w-]+:[\w-]+/gi, `token ${REDACTED}`],
  [/\bBearer\s+[\w.~+/=-]+/gi, `Bearer ${REDACTED}`],
  [/\b(access_token|request_token|refresh_token|api_secret|enctoken|checksum)=[^&\s"\\]+/gi, `$1=${REDACTED}`],
];

/** Text with every token shape replaced. */
export function scrubSecrets(text: string): string {
  return SECRET_SHAPES.reduce((t, [shape, replacement]) => t.replace(shape, replacement), text);
}

const secretKeys = new Set(SECRET_KEYS.map((k) => k.toLowerCase()));

/** A JSON value with every secret-named key's value replaced and every string scrubbed, at any depth. */
export function redactSecrets(value: unknown): unknown {
  if (typeof value === 'string') return scrubSecrets(value);
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, secretKeys.has(k.toLowerCase()) ? REDACTED : redactSecrets(v)]),
    );
  }
  return value;
}

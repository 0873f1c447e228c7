import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Problem } from './problem';

/**
 * The control interface's per-launch secret (docs/api.md §Control interface): with
 * `--control` anyone on the machine could otherwise move prices, inject faults or read live
 * tokens (GET /v1/_control/sessions). Every control request carries it in this header.
 */
export const CONTROL_HEADER = 'X-Paper-Control';

/** A fresh secret for one launch (URL- and header-safe). */
export function newControlSecret(): string {
  return randomBytes(24).toString('base64url');
}

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** Throws a 401 naming the header unless `req` carries `secret` in it (compared in constant time). */
export function assertControlSecret(req: IncomingMessage, secret: string): void {
  const given = req.headers[CONTROL_HEADER.toLowerCase()];
  if (typeof given === 'string' && timingSafeEqual(digest(given), digest(secret))) return;
  throw new Problem(
    401,
    'token_invalid',
    `The control interface needs the ${CONTROL_HEADER} header with the secret printed at launch` +
      (given === undefined ? '' : '; the one sent is wrong'),
    [{ field: CONTROL_HEADER, message: given === undefined ? 'missing' : 'wrong secret' }],
  );
}

import { randomBytes } from 'node:crypto';

/**
 * A fresh idempotency key for one order intent: `td-` + 24 base64url chars (144 random bits).
 *
 * Random rather than a counter so that two installs, or a restored data folder, can never
 * reuse a key the broker has already seen; well inside the 36-char `[A-Za-z0-9_-]` limit.
 */
export function newClientOrderId(): string {
  return `td-${randomBytes(18).toString('base64url')}`;
}

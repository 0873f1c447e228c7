import { createHash } from 'node:crypto';

/** Kite's order `tag` holds at most 20 characters (docs/kite.md §POST /orders/:variety). */
export const KITE_TAG_LENGTH = 20;

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * The 20-character Kite tag that stands for one order intent (docs/brokers.md, "The Kite
 * reference"): `td` + the first 18 base-32 characters (90 bits) of the SHA-256
 * of the intent's client_order_id.
 *
 * A client_order_id is up to 36 characters, too long for the tag, so the tag is derived, not
 * copied: the same intent always gets the same tag (a lookup after a restart finds it again), and
 * two intents collide with negligible probability. Lower-case letters and digits only, so it fits
 * every alphabet Kite has documented for tags.
 */
export function kiteTag(clientOrderId: string): string {
  const digest = createHash('sha256').update(clientOrderId).digest();
  let bits = 0;
  let value = 0;
  let out = 'td';
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < KITE_TAG_LENGTH) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
    if (out.length >= KITE_TAG_LENGTH) break;
  }
  return out;
}

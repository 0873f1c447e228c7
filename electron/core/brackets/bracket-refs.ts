import { createHash, randomBytes } from 'node:crypto';
import type { BracketChildKey } from '@shared/domain/bracket';

/**
 * A bracket's id and the references of its orders (docs/brackets.md §References).
 *
 * Each order a bracket places carries a client reference derived from the bracket's id and the
 * order's role, in the form every desk reference has (`td-` and 24 base64url characters), so a
 * restart finds at the broker an order placed before the crash by looking that reference up —
 * and a placement sent again goes under the same reference (exactly once: docs/contract.md
 * §Exactly-once orders).
 */

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A fresh bracket id: `b` and 16 random letters or digits. */
export function newBracketId(): string {
  const bytes = randomBytes(16);
  return `b${Array.from(bytes, (x) => ALPHANUMERIC[x % ALPHANUMERIC.length]).join('')}`;
}

/**
 * The reference of the bracket's order in `role`: the same for the same bracket, role and
 * generation, always (the first order of a role is generation 0; a later one replaces an order
 * that ended while the position still needed it).
 */
export function bracketRef(bracketId: string, role: BracketChildKey, gen = 0): string {
  const key = gen === 0 ? `bracket:${bracketId}:${role}` : `bracket:${bracketId}:${role}:${gen}`;
  return `td-${createHash('sha256').update(key).digest('base64url').slice(0, 24)}`;
}

/** Every reference of one bracket, by role. */
export function bracketRefs(bracketId: string): Readonly<Record<BracketChildKey, string>> {
  return {
    entry: bracketRef(bracketId, 'entry'),
    stop: bracketRef(bracketId, 'stop'),
    target: bracketRef(bracketId, 'target'),
  };
}

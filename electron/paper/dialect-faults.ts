import type { IncomingMessage } from 'node:http';
import type { FaultPlan } from './faults';

/**
 * The injected faults a dialect's pipeline meets around its handler (docs/api.md §Faults
 * (`faults` / `--faults`)), in the same order on /kite and /upstox: latency, then a 429 or a 5xx
 * before anything is handled; after the handler committed, a 5xx, a dropped reply or a stalled
 * one. Each dialect words the refusals its own way.
 */

/** How a dialect words an injected refusal. */
export interface InjectedRefusals {
  /** An injected 429 (`retryAfterS`: what the plan would say, for dialects that send Retry-After). */
  rateLimited(retryAfterS: number): Error;
  /** An injected 5xx, before or after the handler ran. */
  failed(status: number, when: 'before' | 'after'): Error;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Latency, then throws the injected 429 or 5xx the plan has before the handler, if any. */
export async function faultsBefore(plan: FaultPlan, words: InjectedRefusals): Promise<void> {
  if (plan.latencyMs > 0) await sleep(plan.latencyMs);
  if (plan.rateLimit) throw words.rateLimited(plan.retryAfterS);
  if (plan.errorBefore !== null) throw words.failed(plan.errorBefore, 'before');
}

/**
 * After the handler committed: throws the injected 5xx, or drops or stalls the reply. True when
 * the reply should still be written.
 */
export function faultsAfter(plan: FaultPlan, req: IncomingMessage, words: InjectedRefusals): boolean {
  if (plan.errorAfter !== null) throw words.failed(plan.errorAfter, 'after');
  if (plan.dropReply) {
    req.socket.destroy();
    return false;
  }
  // The reply is "lost in the network": nothing is written and the socket stays open.
  return !plan.stallReply;
}

import type { AppError } from '@shared/ipc/app-error';

/**
 * The time bounds of a placement (docs/money-path.md, "Exactly-once orders"). All are
 * injectable so tests can shrink them; the defaults are the product's.
 */
export interface PlacementTimings {
  /** `orders.place` answers placed, refused or not-yet-confirmed within this (default 2 s). */
  readonly answerDeadlineMs: number;
  /**
   * An intent may be sent again only this long after it was journaled (or after the trader's
   * "Place again") (default 10 s): a MARKET order's price moves, and a trader does not expect an
   * order clicked long ago to appear on its own.
   */
  readonly resendWindowMs: number;
  /** A send that got no reply is assumed unable to land after this long (default 10 s). */
  readonly landingHorizonMs: number;
  /** Waits between lookups of one intent, in order; the last one repeats (default 0, 20, 50 … 1,000 ms). */
  readonly lookupPacingMs: readonly number[];
  /** Wait before re-sending after a send that provably never left (connect failed) (default 100 ms). */
  readonly resendAfterNotSentMs: number;
}

/** The product's time bounds. */
export const DEFAULT_TIMINGS: PlacementTimings = {
  answerDeadlineMs: 2_000,
  resendWindowMs: 10_000,
  landingHorizonMs: 10_000,
  lookupPacingMs: [0, 20, 50, 100, 200, 400, 800, 1_000],
  resendAfterNotSentMs: 100,
};

/**
 * How one send of an intent ended, as far as the broker could have acted on it.
 *
 * - `not_sent`: provably never reached the broker (connect-phase failure, or refused by us).
 * - `refused`: a definitive refusal (4xx, 429): the broker created nothing for this send.
 * - `closed`: a definitive HTTP reply that leaves the outcome open (5xx; a 409 without an
 *   order id): whatever it did is done, so one lookup after it tells.
 * - `in_doubt`: no reply (timeout, connection lost) or a 2xx we could not read: it may land
 *   later, so only lookups settle it, until the landing horizon has passed.
 */
export type SendResult = 'not_sent' | 'refused' | 'closed' | 'in_doubt';

/** One send of an intent. */
export interface SendFact {
  readonly startedAt: number;
  /** When its failure was known (for `in_doubt`, the landing horizon counts from here). */
  readonly endedAt: number;
  readonly result: SendResult;
  /** For `refused`: may the same intent be sent again (429), or is the refusal final (400…)? */
  readonly retryable: boolean;
  /** For `refused` and `not_sent`: the error the trader is told if nothing else follows. */
  readonly error: AppError | null;
  /** For a 429: not before this time. */
  readonly notBefore: number | null;
}

/** What the policy needs to know about one open intent. */
export interface IntentFacts {
  /** Start of the re-send window: when it was journaled, or when the trader chose "Place again". */
  readonly windowStart: number;
  /** Every send of it in this process, oldest first (a restored intent's unknown past is one `in_doubt`). */
  readonly sends: readonly SendFact[];
  /** When the most recent lookup that found nothing was *sent* (null if none since the last reset). */
  readonly lastAbsentLookupAt: number | null;
  /** When the most recent lookup was sent, whatever it found (for pacing). */
  readonly lastLookupAt: number | null;
  /** Lookups since the last send (for pacing). */
  readonly lookupsSinceSend: number;
  /** A failed lookup asked us to wait (429 Retry-After, or a dead session). */
  readonly lookupNotBefore: number | null;
  /** What the trader is told when it ends absent: after a restart it waits for their decision. */
  readonly whenAbsent: AbsentOutcome;
  /**
   * The broker refuses a reused reference, naming the order it has (`PlacementTraits`): inside
   * the window a re-send is then its own lookup and can never make a second order.
   */
  readonly uniqueReferences: boolean;
}

/** The next thing to do for an open intent. */
export type Step =
  | { readonly kind: 'send' }
  | { readonly kind: 'lookup' }
  | { readonly kind: 'wait'; readonly until: number }
  /** Nothing was created: every send was refused or never left. */
  | { readonly kind: 'refuse'; readonly error: AppError | null }
  /** A lookup made late enough found nothing, and nothing may be sent: it ends absent. */
  | { readonly kind: 'absent'; readonly outcome: AbsentOutcome };

/**
 * How an intent that a lookup late enough did not find ends: `not_placed` (certain), or after a
 * restart the trader's decision — `unverifiable` when it was journaled before the earliest order
 * the broker's list still shows, so not finding it proves nothing.
 */
export type AbsentOutcome = 'not_placed' | 'needs_decision' | 'unverifiable';

/**
 * Decides the next step for one open intent — the whole exactly-once policy, as a pure function
 * of what happened so far and the time (docs/money-path.md, "Exactly-once orders").
 *
 * An intent may be sent again only when every earlier send is closed — it got a definitive
 * reply, or it never left, or (no reply) its landing horizon has passed — and a lookup sent
 * after all of that found nothing, and the re-send window is still open. A send with no reply
 * is settled only by lookups. An intent ends absent only by a lookup sent after the window's
 * end and after every send's horizon, so nothing it was told "not placed" about can still land.
 *
 * On a broker that refuses a reused reference (naming its order), a send that ended without an
 * answer may be sent again inside the window as soon as a lookup after it found nothing (paced),
 * without waiting for its landing horizon: if it lands after all, the broker refuses the re-send
 * naming it. Ending absent still waits for the horizon.
 */
export function nextStep(f: IntentFacts, now: number, t: PlacementTimings): Step {
  const windowEnd = f.windowStart + t.resendWindowMs;

  // Until when can an earlier send still land, and when did the last reply leave doubt?
  let doubtUntil = Number.NEGATIVE_INFINITY;
  let lastDoubtEnded = Number.NEGATIVE_INFINITY; // ∞ while a POST still waits for its reply
  let lastClosedAt = Number.NEGATIVE_INFINITY;
  let lastRetryAfter = Number.NEGATIVE_INFINITY;
  let finalRefusal: SendFact | null = null;
  let lastNothing: SendFact | null = null; // the latest send that created nothing (refused / not_sent)
  for (const s of f.sends) {
    if (s.result === 'in_doubt') {
      doubtUntil = Math.max(doubtUntil, s.endedAt + t.landingHorizonMs);
      lastDoubtEnded = Math.max(lastDoubtEnded, s.endedAt);
    } else if (s.result === 'closed') lastClosedAt = Math.max(lastClosedAt, s.endedAt);
    else {
      lastNothing = s;
      if (s.result === 'refused' && !s.retryable) finalRefusal = s;
      if (s.notBefore !== null) lastRetryAfter = Math.max(lastRetryAfter, s.notBefore);
    }
  }
  const everOpen = doubtUntil > Number.NEGATIVE_INFINITY || lastClosedAt > Number.NEGATIVE_INFINITY;

  // Every send created nothing, by its own definitive answer or by never leaving.
  if (!everOpen) {
    if (f.sends.length === 0) return { kind: 'send' };
    if (finalRefusal) return { kind: 'refuse', error: finalRefusal.error };
    if (now >= windowEnd) return { kind: 'refuse', error: lastNothing?.error ?? null };
    const last = f.sends[f.sends.length - 1] as SendFact;
    const resendAt = Math.max(lastRetryAfter, last.result === 'not_sent' ? last.endedAt + t.resendAfterNotSentMs : 0);
    if (resendAt > windowEnd) return { kind: 'refuse', error: last.error };
    return now >= resendAt ? { kind: 'send' } : { kind: 'wait', until: resendAt };
  }

  // Some send may have created the order. A lookup must be sent after every such send has
  // closed (replied, or passed its horizon) before anything else may be concluded.
  const closedBy = Math.max(lastClosedAt, doubtUntil);
  const confirmedAbsent = f.lastAbsentLookupAt !== null && f.lastAbsentLookupAt >= closedBy;
  // Sends after the confirming lookup were refused or never left: nothing exists.
  if (confirmedAbsent && finalRefusal && finalRefusal.startedAt >= (f.lastAbsentLookupAt as number)) {
    return { kind: 'refuse', error: finalRefusal.error };
  }
  // A broker that refuses a reused reference names the order an earlier send made, so a re-send
  // needs only a lookup made after every send ended, not the landing horizon: if an earlier send
  // lands after all, the re-send is refused naming it (it is never a second order).
  const endedBy = Math.max(lastClosedAt, lastDoubtEnded);
  const resendable =
    confirmedAbsent ||
    (f.uniqueReferences && !finalRefusal && f.lastAbsentLookupAt !== null && f.lastAbsentLookupAt >= endedBy);
  if (resendable && now < windowEnd) {
    const paced = confirmedAbsent ? 0 : endedBy + resendPace(f.sends.length, t);
    const resendAt = Math.max(lastRetryAfter, lastNothingWait(f, lastNothing, t), paced);
    if (resendAt < windowEnd) return now >= resendAt ? { kind: 'send' } : { kind: 'wait', until: resendAt };
  }
  // No more sends. It ends absent once a lookup sent after the window's end has said so.
  if (confirmedAbsent && (f.lastAbsentLookupAt as number) >= windowEnd) {
    return { kind: 'absent', outcome: f.whenAbsent };
  }
  // The earliest lookup that can move things on: one after every send closed (which may allow
  // a re-send inside the window; on a broker keeping references unique, once every send ended),
  // or, once confirmed absent, one after the window's end.
  const resendLookupAt = f.uniqueReferences && now < windowEnd ? endedBy : closedBy;
  return lookupOrWait(f, now, t, confirmedAbsent ? Math.max(closedBy, windowEnd) : resendLookupAt);
}

/**
 * True when the broker provably holds nothing for this intent right now: every send was
 * refused or never left, or was followed by a lookup that found nothing after it closed. Only
 * then may the trader be told it was refused — at the answer deadline, with nothing running.
 */
export function nothingCreated(f: IntentFacts, t: PlacementTimings): boolean {
  if (f.sends.length === 0) return false;
  for (const s of f.sends) {
    if (s.result === 'refused' || s.result === 'not_sent') continue;
    const closedAt = s.result === 'closed' ? s.endedAt : s.endedAt + t.landingHorizonMs;
    if (f.lastAbsentLookupAt === null || f.lastAbsentLookupAt < closedAt) return false;
  }
  return true;
}

/**
 * Whether the caller may be told "refused" at the answer deadline: nothing was created and the
 * latest send never reached the broker (it is unreachable now). An intent waiting out a 429
 * inside its window is still going to be sent, so it is answered as not yet confirmed.
 */
export function refuseAtDeadline(f: IntentFacts, t: PlacementTimings): boolean {
  const last = f.sends[f.sends.length - 1];
  return last?.result === 'not_sent' && nothingCreated(f, t);
}

/** The error of the latest send that created nothing, if any: what a refusal tells the trader. */
export function lastRefusal(f: IntentFacts): AppError | null {
  for (let i = f.sends.length - 1; i >= 0; i -= 1) {
    const s = f.sends[i] as SendFact;
    if ((s.result === 'refused' || s.result === 'not_sent') && s.error) return s.error;
  }
  return null;
}

/**
 * The pause before re-sending, after n sends, to a broker that keeps references unique when the
 * last send got no answer: the not-sent pace, doubling, at most a second (100, 200 … 1,000 ms).
 */
function resendPace(sendsSoFar: number, t: PlacementTimings): number {
  return Math.min(1_000, t.resendAfterNotSentMs * 2 ** Math.max(0, sendsSoFar - 1));
}

/** When a send that never left (after the confirming lookup) may be tried again. */
function lastNothingWait(f: IntentFacts, lastNothing: SendFact | null, t: PlacementTimings): number {
  if (!lastNothing || f.lastAbsentLookupAt === null || lastNothing.startedAt < f.lastAbsentLookupAt) return 0;
  return lastNothing.result === 'not_sent' ? lastNothing.endedAt + t.resendAfterNotSentMs : 0;
}

/**
 * The next lookup, paced (quick at first, then up to the last pacing step), and never later
 * than the moment a lookup could settle the intent (`settleAt`).
 */
function lookupOrWait(f: IntentFacts, now: number, t: PlacementTimings, settleAt: number): Step {
  const pacing = t.lookupPacingMs;
  const gap = pacing[Math.min(f.lookupsSinceSend, pacing.length - 1)] ?? 0;
  let at = f.lastLookupAt === null ? now : f.lastLookupAt + gap;
  // A lookup exactly when it can settle the intent: no need to wait out a long pacing step.
  if (settleAt > now && settleAt < at) at = settleAt;
  if (f.lookupNotBefore !== null) at = Math.max(at, f.lookupNotBefore);
  return at <= now ? { kind: 'lookup' } : { kind: 'wait', until: at };
}

import { describe, expect, it } from 'vitest';
import { brokerError } from '../../broker/broker-error';
import {
  DEFAULT_TIMINGS,
  nextStep,
  refuseAtDeadline,
  type IntentFacts,
  type SendFact,
  type SendResult,
} from './placement-policy';
import { INFY_MARKET_BUY } from '@shared/testing/order-fixtures';
import { PlacementRecord } from './placement-record';

const T = DEFAULT_TIMINGS; // window 10 s, horizon 10 s
const J = 1_000_000; // journaled at

function send(result: SendResult, at: number, extra: Partial<SendFact> = {}): SendFact {
  return { startedAt: at, endedAt: at + 5, result, retryable: false, error: null, notBefore: null, ...extra };
}

function facts(extra: Partial<IntentFacts> = {}): IntentFacts {
  return {
    windowStart: J,
    sends: [],
    lastAbsentLookupAt: null,
    lastLookupAt: null,
    lookupsSinceSend: 0,
    lookupNotBefore: null,
    whenAbsent: 'not_placed',
    uniqueReferences: false,
    ...extra,
  };
}

describe('placement policy (nextStep)', () => {
  it('sends a fresh intent at once', () => {
    expect(nextStep(facts(), J, T)).toEqual({ kind: 'send' });
  });

  it('a send without a reply is never followed by a send: only lookups, even with the window open', () => {
    const f = facts({ sends: [send('in_doubt', J)], lastAbsentLookupAt: J + 100, lastLookupAt: J + 100 });
    for (const at of [J + 100, J + 2_000, J + 9_000]) expect(nextStep(f, at, T).kind).not.toBe('send');
    expect(nextStep(f, J + 9_000, T)).toEqual({ kind: 'lookup' });
  });

  it('it ends "not placed" only by a lookup sent after its landing horizon (send end + 10 s)', () => {
    const doubt = send('in_doubt', J);
    const horizon = doubt.endedAt + T.landingHorizonMs;
    const early = facts({
      sends: [doubt],
      lastAbsentLookupAt: horizon - 1,
      lastLookupAt: horizon - 1,
      lookupsSinceSend: 9,
    });
    // The next lookup is scheduled exactly at the horizon, not a pacing step later.
    expect(nextStep(early, horizon - 1, T)).toEqual({ kind: 'wait', until: horizon });
    const late = facts({ sends: [doubt], lastAbsentLookupAt: horizon, lastLookupAt: horizon });
    expect(nextStep(late, horizon + 1, T)).toEqual({ kind: 'absent', outcome: 'not_placed' });
  });

  it('a POST still waiting for its reply keeps the intent open however long it takes', () => {
    const pending = { ...send('in_doubt', J), endedAt: Number.POSITIVE_INFINITY };
    const f = facts({
      sends: [pending],
      lastAbsentLookupAt: J + 60_000,
      lastLookupAt: J + 60_000,
      lookupsSinceSend: 50,
    });
    expect(nextStep(f, J + 61_000, T)).toEqual({ kind: 'lookup' });
  });

  it('after a 5xx it looks up first; absent → sends again inside the window, never without that lookup', () => {
    const five = send('closed', J);
    expect(nextStep(facts({ sends: [five] }), J + 10, T)).toEqual({ kind: 'lookup' });
    const before = facts({ sends: [five], lastAbsentLookupAt: five.endedAt - 1, lastLookupAt: five.endedAt - 1 });
    expect(nextStep(before, J + 10, T).kind).not.toBe('send');
    const after = facts({ sends: [five], lastAbsentLookupAt: five.endedAt + 1, lastLookupAt: five.endedAt + 1 });
    expect(nextStep(after, J + 10, T)).toEqual({ kind: 'send' });
  });

  it('after a 5xx outside the window it ends "not placed" once a lookup after the window says absent', () => {
    const five = send('closed', J + 9_990);
    const f = facts({ sends: [five], lastAbsentLookupAt: J + 10_001, lastLookupAt: J + 10_001 });
    expect(nextStep(f, J + 10_002, T)).toEqual({ kind: 'absent', outcome: 'not_placed' });
  });

  it('never reached the broker → sends again shortly inside the window, refuses after it', () => {
    const refused = brokerError('network', 'Not sent');
    const f = facts({ sends: [send('not_sent', J, { error: refused })] });
    expect(nextStep(f, J + 10, T)).toEqual({ kind: 'wait', until: J + 5 + T.resendAfterNotSentMs });
    expect(nextStep(f, J + 200, T)).toEqual({ kind: 'send' });
    expect(nextStep(f, J + T.resendWindowMs, T)).toEqual({ kind: 'refuse', error: refused });
  });

  it('a 429 waits for its Retry-After and sends again; a Retry-After beyond the window is a refusal', () => {
    const wait = send('refused', J, { retryable: true, notBefore: J + 1_000 });
    expect(nextStep(facts({ sends: [wait] }), J + 10, T)).toEqual({ kind: 'wait', until: J + 1_000 });
    expect(nextStep(facts({ sends: [wait] }), J + 1_000, T)).toEqual({ kind: 'send' });
    const tooLate = send('refused', J, { retryable: true, notBefore: J + 30_000 });
    expect(nextStep(facts({ sends: [tooLate] }), J + 10, T).kind).toBe('refuse');
  });

  it('a definitive refusal (400) ends it refused at once', () => {
    const bad = brokerError('bad_request', 'no', { field: 'price' });
    expect(nextStep(facts({ sends: [send('refused', J, { error: bad })] }), J + 10, T)).toEqual({
      kind: 'refuse',
      error: bad,
    });
  });

  it('an intent found open after a restart is never sent; absent past the horizon → waits for the trader', () => {
    const restoredAt = J + 60_000;
    const unknown = { ...send('in_doubt', restoredAt), endedAt: restoredAt };
    const f = facts({ sends: [unknown], whenAbsent: 'needs_decision' });
    expect(nextStep(f, restoredAt, T)).toEqual({ kind: 'lookup' });
    const past = {
      ...f,
      lastAbsentLookupAt: restoredAt + T.landingHorizonMs,
      lastLookupAt: restoredAt + T.landingHorizonMs,
    };
    expect(nextStep(past, restoredAt + T.landingHorizonMs + 1, T)).toEqual({
      kind: 'absent',
      outcome: 'needs_decision',
    });
  });

  it('an intent restored at a restart is never sent, even when the restart came inside its window or the clock stepped back', () => {
    // Restarted 2 s after it was journaled, and restarted on a clock set back 5 s (NTP, a VM
    // restored): the journal's time is no promise about the new process's clock.
    for (const restoredAt of [J + 2_000, J - 5_000]) {
      const record = new PlacementRecord({
        clientOrderId: 'td-restored',
        requestId: null,
        order: INFY_MARKET_BUY,
        journaledAt: J,
        origin: 'restored',
        answerBy: restoredAt,
        now: restoredAt,
      });
      // Lookups found nothing at every moment after the unknown send's landing horizon.
      for (let at = restoredAt + T.landingHorizonMs; at <= J + 3 * T.resendWindowMs; at += 1_000) {
        record.lastAbsentLookupAt = at;
        record.lastLookupAt = at;
        expect(nextStep(record.facts(), at + 1, T)).toEqual({ kind: 'absent', outcome: 'needs_decision' });
      }
    }
  });

  it('"Place again" (a fresh window after the horizon) sends only after a new lookup confirms absence', () => {
    const restoredAt = J;
    const unknown = { ...send('in_doubt', restoredAt), endedAt: restoredAt };
    const again = restoredAt + 60_000;
    const f = facts({ windowStart: again, sends: [unknown] });
    expect(nextStep(f, again, T)).toEqual({ kind: 'lookup' });
    expect(nextStep({ ...f, lastAbsentLookupAt: again, lastLookupAt: again }, again + 1, T)).toEqual({ kind: 'send' });
  });
});

describe('refusing at the answer deadline', () => {
  it('only when the latest send never reached the broker and nothing else can exist', () => {
    const notSent = send('not_sent', J);
    expect(refuseAtDeadline(facts({ sends: [notSent] }), T)).toBe(true);
    expect(refuseAtDeadline(facts({ sends: [send('in_doubt', J), notSent] }), T)).toBe(false);
    // Waiting out a 429 inside the window: it will still be sent, so not a refusal.
    expect(refuseAtDeadline(facts({ sends: [send('refused', J, { retryable: true })] }), T)).toBe(false);
    expect(refuseAtDeadline(facts(), T)).toBe(false);
  });
});

import { randomBytes } from 'node:crypto';
import type { Gtt, GttAck, GttChanges, GttPlaceOutcome, GttRequest } from '@shared/domain/gtt';
import type { Instrument } from '@shared/domain/instrument';
import { AppError } from '@shared/ipc/app-error';
import { type GttViolation, validateGtt } from '@shared/trading/gtt-rules';
import type { Broker, PlaceGttCommand } from '../../broker/broker';
import { AMBIGUOUS_KINDS, TransportFailure, brokerError } from '../../broker/broker-error';
import type { IntentsLedger } from '../ledger/intents-ledger';
import { type GttIntentRecord, type GttResolutionRecord, LEDGER_FORMAT } from '../ledger/ledger-record';
import type { RiskGuard, RiskMode } from '../risk/risk-guard';
import type { KillBarrier } from '../safety/kill-barrier';

/**
 * GTTs in main (docs/gtt.md): the rules are applied here before anything is sent, a create or a
 * change is journaled in the intents ledger and sent once (a create under a client reference main
 * chose), and an answer is one of the three honest ones — placed (its id), refused (a failed
 * call: nothing was created), or not yet confirmed (settled by reading the broker's GTT list,
 * never reported as failed). Nothing in doubt is sent again before it is looked up.
 */

/** A fresh client reference for one GTT creation: `gtt-` and 24 random characters. */
export function newClientGttId(): string {
  return `gtt-${randomBytes(18).toString('base64url')}`;
}

/** What the GTT service needs. */
export interface GttServiceDeps {
  readonly broker: Broker;
  /** The journal every creation and change is written to before it is sent (the intents ledger). */
  readonly ledger: IntentsLedger;
  /** The instrument a GTT names, from the catalog. */
  readonly find: (exchange: Instrument['exchange'], tradingsymbol: string) => Promise<Instrument | undefined>;
  /** The last price now (a recent tick, else a quote); 0 when the broker has none. */
  readonly lastPrice: (instrumentToken: number) => Promise<number>;
  readonly newId?: () => string;
  /** The trader's risk limits, as far as they can be known when a GTT is made (docs/contract.md §Risk guard). */
  readonly guard?: Pick<RiskGuard, 'checkGtt'>;
  /**
   * The kill switch's barrier (docs/contract.md §Kill switch): while it is up, a GTT is made only
   * when every order it would place only reduces what is held.
   */
  readonly barrier?: Pick<KillBarrier, 'blocks'>;
  /** Epoch ms (default Date.now). */
  readonly now?: () => number;
}

/** The rules' refusal as the bridge's error: every field named, in the app's spelling. */
function refusal(violations: readonly GttViolation[]): AppError {
  const fields = violations.map((v) => ({ field: v.field, message: v.message }));
  return brokerError('bad_request', fields.map((f) => `${f.field}: ${f.message}`).join('; '), {
    field: fields[0]?.field ?? 'body',
    fields,
  });
}

/** Whether two GTT requests ask the same thing (a repeated request id must not change it). */
function sameGtt(a: GttRequest, b: GttRequest): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const REUSED = (): AppError =>
  brokerError('conflict', 'This request id was already used for a different GTT', { field: 'requestId' });

const NOT_CONFIRMED =
  'The broker did not confirm this GTT. It may still have been created: check the GTT list before creating it again';
const NOT_FOUND =
  'The broker did not confirm this GTT and it is not in its GTT list: most likely it was not created. It is not sent again for this click: create it again if you still want it';

/** Whether a GTT holds (or a journaled change asked) exactly these trigger values and orders. */
function sameChanges(a: GttChanges | undefined, b: GttChanges): boolean {
  if (!a) return false;
  const legs = (x: GttChanges): string =>
    JSON.stringify(x.legs.map((l) => [l.transactionType, l.quantity, l.product, l.price]));
  return JSON.stringify(a.triggerValues) === JSON.stringify(b.triggerValues) && legs(a) === legs(b);
}

/** What a creation resolved before (this run or an earlier one) answers its request id again. */
function answerOf(intent: GttIntentRecord, resolution: GttResolutionRecord): GttPlaceOutcome {
  if (resolution.outcome === 'done' && resolution.gttId !== null)
    return { state: 'placed', gttId: resolution.gttId, clientGttId: intent.ref };
  return { state: 'unconfirmed', clientGttId: intent.ref, detail: NOT_FOUND };
}

/** Ambiguous: the request may have reached the broker, and its answer says nothing sure. */
function ambiguous(e: AppError): boolean {
  if (e instanceof TransportFailure && e.reach === 'not_sent') return false;
  return AMBIGUOUS_KINDS.has(e.info.kind) || e.info.kind === 'unexpected_shape';
}

export class GttService {
  readonly #deps: GttServiceDeps;
  readonly #now: () => number;
  /** Request ids whose call is running in this process → its answer (two at once make one). */
  readonly #running = new Map<string, Promise<GttPlaceOutcome>>();
  /** Open intents being looked up (by reference): a retry and the recovery share one lookup. */
  readonly #checking = new Map<string, Promise<GttPlaceOutcome>>();

  public constructor(deps: GttServiceDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
  }

  /** Every GTT the broker holds, newest first. */
  public async list(): Promise<readonly Gtt[]> {
    const all = await this.#deps.broker.listGtts();
    return [...all].reverse();
  }

  /**
   * Creates a GTT once. `requestId` (the renderer's, per click) makes a repeated call answer
   * the first call's outcome instead of sending again — while it runs, after it ended, and
   * across a restart (the intents ledger keeps it: docs/gtt.md §When the broker fails).
   */
  public place(request: GttRequest, requestId?: string, risk: RiskMode = 'check'): Promise<GttPlaceOutcome> {
    if (requestId === undefined) return this.#placeNew(request, undefined, risk);
    const running = this.#running.get(requestId);
    if (running) return running;
    const run = this.#placeOnce(request, requestId, risk);
    this.#running.set(requestId, run);
    const forget = (): void => void this.#running.delete(requestId);
    run.then(forget, forget);
    return run;
  }

  async #placeOnce(request: GttRequest, requestId: string, risk: RiskMode): Promise<GttPlaceOutcome> {
    const earlier = this.#deps.ledger.resolvedGttRequest(requestId);
    // A refusal may be corrected and clicked again under the same id: only a creation is final.
    if (earlier && earlier.intent.action === 'create' && earlier.resolution.outcome !== 'failed') {
      if (!sameGtt(earlier.intent.gtt, request)) throw REUSED();
      return answerOf(earlier.intent, earlier.resolution);
    }
    const open = this.#deps.ledger.openGttRequest(requestId);
    if (open && open.action === 'create') {
      if (!sameGtt(open.gtt, request)) throw REUSED();
      // In doubt (a lost reply, a 5xx, a crash): looked up before anything is sent again.
      return this.#check(open, 'retry');
    }
    return this.#placeNew(request, requestId, risk);
  }

  /**
   * GTT creations a crash or a quit left in doubt: each is looked up once; found → created,
   * absent → not found (never sent again on its own: docs/decisions/2026-11-26-restored-intents-are-never-re-sent-on-their-own.md).
   * A lookup that fails leaves the intent open for the next start or a retry.
   */
  public async recover(): Promise<void> {
    const open = this.#deps.ledger.unresolvedGtts();
    // Nothing here may fail the login's background recovery: what is not settled stays open.
    await Promise.all(
      open.map((intent) =>
        (intent.action === 'create' ? this.#check(intent, 'recovery') : this.#checkModify(intent)).catch(
          () => undefined,
        ),
      ),
    );
  }

  /** The instrument, its last price, and the rules — or the refusal naming every field. */
  async #judge(
    what: Pick<GttRequest, 'type' | 'exchange' | 'tradingsymbol'> & GttChanges,
    risk: RiskMode,
  ): Promise<{ readonly instrument: Instrument; readonly lastPrice: number }> {
    const instrument = await this.#deps.find(what.exchange, what.tradingsymbol);
    if (!instrument) {
      throw brokerError('bad_request', `No instrument ${what.tradingsymbol} on ${what.exchange}`, {
        field: 'tradingsymbol',
      });
    }
    const lastPrice = await this.#deps.lastPrice(instrument.instrumentToken);
    const violations = validateGtt(what, instrument, lastPrice);
    if (violations.length > 0) throw refusal(violations);
    await this.#deps.guard?.checkGtt(what, instrument, risk);
    if (lastPrice <= 0) {
      throw brokerError(
        'bad_request',
        `No last price for ${what.tradingsymbol} yet: a trigger needs one to be judged`,
        {
          field: 'triggerValues',
        },
      );
    }
    return { instrument, lastPrice };
  }

  async #placeNew(request: GttRequest, requestId: string | undefined, risk: RiskMode): Promise<GttPlaceOutcome> {
    const { lastPrice } = await this.#judge(request, risk);
    for (const leg of request.legs) {
      const barred = this.#deps.barrier?.blocks({
        ...leg,
        exchange: request.exchange,
        tradingsymbol: request.tradingsymbol,
      });
      if (barred) throw brokerError('forbidden', barred);
    }
    const ref = (this.#deps.newId ?? newClientGttId)();
    const command: PlaceGttCommand = { ...request, clientGttId: ref, lastPrice };
    // Journaled before it is sent: a crash from here on leaves an intent the next start looks up.
    await this.#deps.ledger.appendGttIntent({
      ref,
      at: this.#now(),
      action: 'create',
      gtt: request,
      ...(requestId !== undefined ? { requestId } : {}),
    });
    return this.#send(command, true);
  }

  /**
   * Sends a journaled creation and settles it. A 5xx is in doubt like a lost reply unless the
   * broker refuses a reused reference (docs/decisions/2026-11-26-a-5xx-is-in-doubt-without-unique-references.md):
   * there a re-send under the same reference is its own lookup, so one more is allowed.
   */
  async #send(command: PlaceGttCommand, mayResend: boolean): Promise<GttPlaceOutcome> {
    const ref = command.clientGttId;
    try {
      const ack = await this.#deps.broker.placeGtt(command);
      await this.#deps.ledger.resolveGtt({ ref, at: this.#now(), outcome: 'done', gttId: ack.gttId });
      return { state: 'placed', gttId: ack.gttId, clientGttId: ref };
    } catch (e) {
      if (!(e instanceof AppError)) return this.#unconfirmed(ref, NOT_CONFIRMED);
      const inDoubt = ambiguous(e) || e.info.kind === 'conflict';
      if (!inDoubt) {
        // Refused, or provably never sent: nothing was created, so it is an honest refusal.
        await this.#deps.ledger.resolveGtt({
          ref,
          at: this.#now(),
          outcome: 'failed',
          gttId: null,
          kind: e.info.kind,
          message: e.message.slice(0, 2_000),
        });
        throw e;
      }
      const found = await this.#lookup(command);
      if (found) return this.#found(ref, found);
      const resend =
        mayResend && e.info.kind === 'server_error' && this.#deps.broker.placementTraits().uniqueReferences;
      if (resend) return this.#send(command, false);
      return this.#unconfirmed(ref, NOT_CONFIRMED);
    }
  }

  /** The GTTs that may be this creation (null: none, or the lookup itself failed). */
  async #lookup(command: PlaceGttCommand): Promise<Gtt | null> {
    const found = await this.#deps.broker.findGtts(command).catch(() => [] as readonly Gtt[]);
    return found[0] ?? null;
  }

  async #found(ref: string, gtt: Gtt): Promise<GttPlaceOutcome> {
    await this.#deps.ledger.resolveGtt({ ref, at: this.#now(), outcome: 'done', gttId: gtt.gttId });
    return { state: 'placed', gttId: gtt.gttId, clientGttId: ref };
  }

  /** Not confirmed: the intent stays open (in doubt) until a lookup settles it. */
  #unconfirmed(ref: string, detail: string): GttPlaceOutcome {
    return { state: 'unconfirmed', clientGttId: ref, detail };
  }

  /**
   * An open creation looked up (a retry under its request id, or the recovery at start): found →
   * created. Absent: a retry re-sends it under the same reference only where the broker refuses a
   * reused one (a 409 then names it); elsewhere, and at recovery, it is not found and never sent
   * again.
   */
  #check(intent: GttIntentRecord, why: 'retry' | 'recovery'): Promise<GttPlaceOutcome> {
    const running = this.#checking.get(intent.ref);
    if (running) return running;
    const run = (async (): Promise<GttPlaceOutcome> => {
      // A lookup matches by reference, or by what was asked (Kite); the price plays no part.
      const command: PlaceGttCommand = { ...intent.gtt, clientGttId: intent.ref, lastPrice: 0 };
      let found: readonly Gtt[];
      try {
        found = await this.#deps.broker.findGtts(command);
      } catch {
        return this.#unconfirmed(intent.ref, NOT_CONFIRMED);
      }
      const first = found[0];
      if (first) return this.#found(intent.ref, first);
      if (why === 'retry' && this.#deps.broker.placementTraits().uniqueReferences) {
        // Judged again at today's price; a refusal now means nothing exists and nothing is sent.
        let lastPrice: number;
        try {
          ({ lastPrice } = await this.#judge(intent.gtt, 'check'));
        } catch (e) {
          await this.#deps.ledger.resolveGtt({ ref: intent.ref, at: this.#now(), outcome: 'failed', gttId: null });
          throw e;
        }
        return this.#send({ ...command, lastPrice }, false);
      }
      await this.#deps.ledger.resolveGtt({ ref: intent.ref, at: this.#now(), outcome: 'not_found', gttId: null });
      return this.#unconfirmed(intent.ref, NOT_FOUND);
    })();
    this.#checking.set(intent.ref, run);
    const forget = (): void => void this.#checking.delete(intent.ref);
    run.then(forget, forget);
    return run;
  }

  /**
   * New trigger values and orders for an active GTT, judged like a creation, journaled, sent
   * once. A change whose answer is in doubt is read back: applied → its answer; not applied → an
   * error that says it is not yet confirmed (never "failed"), the intent left open. The same
   * `requestId` again reads back before anything is sent again.
   */
  public async modify(
    gttId: string,
    changes: GttChanges,
    risk: RiskMode = 'check',
    requestId?: string,
  ): Promise<GttAck> {
    if (requestId !== undefined) {
      const earlier = this.#deps.ledger.resolvedGttRequest(requestId);
      if (earlier?.intent.action === 'modify' && earlier.resolution.outcome === 'done') {
        if (earlier.intent.gttId !== gttId || !sameChanges(earlier.intent.changes, changes)) throw REUSED();
        return { gttId, status: 'active' };
      }
      const open = this.#deps.ledger.openGttRequest(requestId);
      if (open?.action === 'modify') {
        if (open.gttId !== gttId || !sameChanges(open.changes, changes)) throw REUSED();
        const applied = await this.#readBack(open);
        if (applied) return applied;
        // Not applied: it is settled as such, and this click sends it afresh below.
        await this.#deps.ledger.resolveGtt({ ref: open.ref, at: this.#now(), outcome: 'not_found', gttId });
      }
    }
    const gtt = (await this.#deps.broker.listGtts()).find((g) => g.gttId === gttId);
    if (!gtt) throw brokerError('not_found', `GTT ${gttId} is not at the broker`, { field: 'gttId' });
    if (gtt.status !== 'active') {
      throw brokerError('conflict', `GTT ${gttId} is ${gtt.status}; only an active GTT can change`, { field: 'gttId' });
    }
    const { lastPrice } = await this.#judge({ ...gtt, ...changes }, risk);
    const intent = {
      ref: (this.#deps.newId ?? newClientGttId)(),
      at: this.#now(),
      action: 'modify' as const,
      gtt: { type: gtt.type, exchange: gtt.exchange, tradingsymbol: gtt.tradingsymbol, ...changes },
      gttId,
      changes,
      ...(requestId !== undefined ? { requestId } : {}),
    };
    await this.#deps.ledger.appendGttIntent(intent);
    try {
      const ack = await this.#deps.broker.modifyGtt(gtt, changes, lastPrice);
      await this.#deps.ledger.resolveGtt({ ref: intent.ref, at: this.#now(), outcome: 'done', gttId });
      return ack;
    } catch (e) {
      if (e instanceof AppError && !ambiguous(e)) {
        await this.#deps.ledger.resolveGtt({
          ref: intent.ref,
          at: this.#now(),
          outcome: 'failed',
          gttId,
          kind: e.info.kind,
          message: e.message.slice(0, 2_000),
        });
        throw e;
      }
      const applied = await this.#readBack({ ...intent, v: LEDGER_FORMAT, t: 'gtt' });
      if (applied) return applied;
      throw brokerError(
        e instanceof AppError ? e.info.kind : 'network',
        `Not yet confirmed: the broker did not confirm the change to GTT ${gttId}. Check the GTT list before changing it again`,
        { field: 'gttId' },
      );
    }
  }

  /** A change in doubt read back: applied → settled and answered; not (or unreadable) → null. */
  async #readBack(intent: GttIntentRecord): Promise<GttAck | null> {
    const gttId = intent.gttId ?? '';
    const now = await this.#deps.broker.listGtts().catch(() => null);
    const g = now?.find((x) => x.gttId === gttId);
    if (!g || !intent.changes || !sameChanges(g, intent.changes)) return null;
    await this.#deps.ledger.resolveGtt({ ref: intent.ref, at: this.#now(), outcome: 'done', gttId });
    return { gttId, status: g.status };
  }

  /** A change left in doubt by a crash: applied → done; the GTT read without it → not applied. */
  async #checkModify(intent: GttIntentRecord): Promise<void> {
    const now = await this.#deps.broker.listGtts().catch(() => null);
    if (now === null) return;
    if (await this.#readBack(intent)) return;
    await this.#deps.ledger.resolveGtt({
      ref: intent.ref,
      at: this.#now(),
      outcome: 'not_found',
      gttId: intent.gttId ?? null,
    });
  }

  /** Deletes a GTT (an idempotent write: a lost reply is safely repeated). */
  public delete(gttId: string): Promise<GttAck> {
    return this.#deps.broker.deleteGtt(gttId);
  }
}

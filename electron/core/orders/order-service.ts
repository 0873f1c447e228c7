import type { Instrument } from '@shared/domain/instrument';
import type { Order, OrderAck, OrderRequest, OrderStatus } from '@shared/domain/order';
import { DECISION_STATES, type PlaceOutcome, type Placement, type PlacementState } from '@shared/domain/placement';
import { AppError } from '@shared/ipc/app-error';
import type { Broker } from '../../broker/broker';
import { brokerError, SendTimePassed, TransportFailure } from '../../broker/broker-error';
import { systemClock, type Clock } from '../clock';
import type { InstrumentCatalog } from '../instruments/instrument-catalog';
import type { IntentsLedger, ResolvedRequest, UnreadableRecords } from '../ledger/intents-ledger';
import { newClientOrderId } from './client-order-id';
import { orderRefusal } from './order-rules';
import { ORDER_FIELDS } from '@shared/trading/rules';
import type { LifecycleTimeline } from './lifecycle-timeline';
import type { RiskGuard, RiskMode } from '../risk/risk-guard';
import type { KillBarrier } from '../safety/kill-barrier';
import { PlacementBook } from './placement-book';
import {
  DEFAULT_TIMINGS,
  lastRefusal,
  nextStep,
  refuseAtDeadline,
  type PlacementTimings,
  type SendFact,
} from './placement-policy';
import { notFoundText, PlacementRecord, type RecordState } from './placement-record';
import { istDayStart } from '@shared/lib/ist-time';

const DAY_MS = 86_400_000;

/** Dependencies and knobs of the order service. */
export interface OrderServiceDeps {
  readonly broker: Broker;
  readonly ledger: IntentsLedger;
  readonly catalog: InstrumentCatalog;
  readonly timeline: LifecycleTimeline;
  readonly clock?: Clock;
  readonly newId?: () => string;
  /** The answer deadline, re-send window, landing horizon and lookup pacing (tests shrink them). */
  readonly timings?: Partial<PlacementTimings>;
  /** Told the whole unconfirmed-placements list whenever it changes (`placements.changed`). */
  readonly onPlacements?: (placements: Placement[]) => void;
  /** Told each order this service placed, once the broker's id is known (the drift alarm's view, docs/contract.md §Drift alarm). */
  readonly onPlaced?: (placed: { clientOrderId: string; orderId: string; order: OrderRequest; at: number }) => void;
  /** Told when an intent settles with the trader told nothing was created (refused, not placed, discarded). */
  readonly onAbsent?: (clientOrderId: string) => void;
  /** Told each intent's reference before it is journaled (the drift alarm's own references). */
  readonly onReference?: (clientOrderId: string) => void;
  /** Lookups in flight at once for intents found open at start (default 8). */
  readonly recoveryConcurrency?: number;
  /** The trader's risk limits, applied after the trading rules and before journaling (docs/contract.md §Risk guard). */
  readonly guard?: Pick<RiskGuard, 'check' | 'journaled' | 'enter'>;
  /**
   * The kill switch's barrier (docs/contract.md §Kill switch): asked before journaling and before
   * every send; while it is up, an intent waiting for the client's pacing that adds risk is
   * stopped where it waits.
   */
  readonly barrier?: Pick<KillBarrier, 'blocks' | 'onChange'>;
}

/** Options of one placement. */
export interface PlaceOptions {
  /** The renderer's id for this click: the same id again returns this intent's answer. */
  readonly requestId?: string;
  /** When the trader clicked, for the lifecycle timeline (epoch ms). */
  readonly clickedAt?: number;
  /**
   * How the risk guard judges it: `check` (default), `override` (the trader's "Place anyway":
   * soft limits waived), `exempt` (a safety run's exit of a position; docs/contract.md §Kill switch;
   * a bracket's exits, judged when the bracket was made: docs/brackets.md §Risk).
   */
  readonly risk?: RiskMode;
  /**
   * The intent's reference, chosen by the caller instead of a fresh one: a bracket's orders carry
   * one derived from the bracket (docs/brackets.md §References), so a restart finds them. The same
   * reference again while main still knows its intent returns that intent's answer, never a second
   * intent.
   */
  readonly clientOrderId?: string;
  /**
   * `exit`: the kill switch's own exit, sized from the position it just read or knows, so it
   * only reduces: its barrier lets it through (docs/contract.md §Kill switch).
   */
  readonly barrier?: 'exit';
}

/** Where an intent main knows stands (`OrderService.placement`). */
export interface PlacementView {
  readonly state: RecordState;
  readonly orderId: string | null;
  readonly detail: string;
}

/**
 * Exactly-once order creation that tells the trader the truth (docs/money-path.md,
 * "Exactly-once orders").
 *
 * 1. The shared trading rules; a violation is a `bad_request` naming the field, and nothing is
 *    journaled or sent.
 * 2. A fresh client reference, fsynced to the intents ledger — only then the POST.
 * 3. A driver per intent follows `nextStep` (placement-policy.ts): it sends, looks the
 *    reference up, waits, and settles the intent as placed, refused (nothing created), or —
 *    after its re-send window and landing horizon — not placed.
 * 4. `place` answers within the answer deadline: placed, refused (a thrown `AppError`: nothing
 *    was created), or `unconfirmed` while the driver keeps checking in the background; the
 *    intent is then on the unconfirmed-placements list until it settles.
 *
 * At start, `recover()` looks up every intent the ledger still holds open, in the background:
 * found → placed; absent after the horizon → `needs_decision`. It never sends one of them
 * again until the trader chooses "Place again".
 */
export class OrderService {
  readonly #broker: Broker;
  readonly #ledger: IntentsLedger;
  readonly #catalog: InstrumentCatalog;
  readonly #timeline: LifecycleTimeline;
  readonly #guard: Pick<RiskGuard, 'check' | 'journaled' | 'enter'> | null;
  /** Orders past the guard and not yet journaled: they count as on their way (`pending`). */
  readonly #passing = new Map<symbol, OrderRequest>();
  readonly #clock: Clock;
  readonly #newId: () => string;
  readonly #t: PlacementTimings;
  readonly #book: PlacementBook;
  readonly #requests = new Map<string, { readonly order: OrderRequest; readonly run: Promise<PlaceOutcome> }>();
  readonly #drivers = new Set<Promise<void>>();
  readonly #recoverySlots: Semaphore;
  readonly #onPlaced: NonNullable<OrderServiceDeps['onPlaced']>;
  readonly #onAbsent: NonNullable<OrderServiceDeps['onAbsent']>;
  readonly #onReference: NonNullable<OrderServiceDeps['onReference']>;
  /**
   * Intents that ended "not placed" after their landing horizon, watched until the end of their
   * IST day: an order carrying the reference that appears after all is adopted, loudly
   * (docs/money-path.md §After the landing horizon).
   */
  readonly #watching = new Map<string, { readonly rec: PlacementRecord; readonly until: number }>();
  readonly #barrier: Pick<KillBarrier, 'blocks' | 'onChange'> | null;
  /** Each intent's send in progress, aborted (never sent) when the barrier goes up and it adds risk. */
  readonly #sendBys = new Map<PlacementRecord, AbortController>();
  /** The kill switch's own exits: they only reduce, so its barrier lets them through. */
  readonly #safetyExits = new Set<string>();
  /** "Place again (may duplicate)" under way, by the intent it replaces (`#placeInstead`). */
  readonly #placingInstead = new Map<string, Promise<PlaceOutcome>>();
  #closed = false;
  #onClose: () => void = () => undefined;
  readonly #closing = new Promise<void>((resolve) => (this.#onClose = resolve));

  public constructor(deps: OrderServiceDeps) {
    this.#broker = deps.broker;
    this.#ledger = deps.ledger;
    this.#catalog = deps.catalog;
    this.#timeline = deps.timeline;
    this.#guard = deps.guard ?? null;
    this.#barrier = deps.barrier ?? null;
    // The kill switch started: sends still waiting for the client's pacing that add risk never leave.
    this.#barrier?.onChange((state) => {
      if (!state) return;
      for (const [rec, sendBy] of this.#sendBys)
        if (!this.#safetyExits.has(rec.clientOrderId) && this.#barrier?.blocks(rec.order, rec.clientOrderId))
          sendBy.abort();
    });
    this.#clock = deps.clock ?? systemClock;
    this.#newId = deps.newId ?? newClientOrderId;
    this.#t = { ...DEFAULT_TIMINGS, ...deps.timings };
    const onPlacements = deps.onPlacements ?? (() => undefined);
    this.#book = new PlacementBook(
      () => this.#clock.now(),
      (list) => (this.#closed ? undefined : onPlacements(list)),
    );
    this.#recoverySlots = new Semaphore(deps.recoveryConcurrency ?? 8);
    this.#onPlaced = deps.onPlaced ?? (() => undefined);
    this.#onAbsent = deps.onAbsent ?? (() => undefined);
    this.#onReference = deps.onReference ?? (() => undefined);
  }

  /** The time bounds in force. */
  public get timings(): PlacementTimings {
    return this.#t;
  }

  /**
   * Places one order exactly once. Resolves `placed` or `unconfirmed` within the answer
   * deadline; rejects with an `AppError` only when nothing was created (rules, a definitive
   * refusal of every send, or never reaching the broker).
   */
  public place(order: OrderRequest, options: PlaceOptions = {}): Promise<PlaceOutcome> {
    // The click as main saw it: the answer deadline and the re-send window both run from here,
    // so the rules and the risk guard's checks are inside them (docs/contract.md §Three honest answers).
    const receivedAt = this.#clock.now();
    const requestId = options.requestId ?? null;
    if (requestId !== null) {
      const running = this.#requests.get(requestId);
      if (running) return sameOrder(running.order, order).then(() => running.run);
      const known = this.#book.byRequest(requestId);
      if (known) return sameOrder(known.order, order).then(() => this.#answer(known));
      // Resolved before a restart: the ledger keeps what the trader was told.
      const earlier = this.#ledger.resolvedRequest(requestId);
      if (earlier) return sameOrder(earlier.intent.order, order).then(() => answerOf(earlier));
    }
    const given = options.clientOrderId;
    if (given !== undefined) {
      const known = this.#book.get(given);
      if (known) return sameOrder(known.order, order).then(() => this.#answer(known));
    }
    const run = this.#placeNew(
      order,
      requestId,
      options.clickedAt,
      options.risk ?? 'check',
      receivedAt,
      given,
      options.barrier === 'exit',
    );
    if (requestId !== null) {
      this.#requests.set(requestId, { order, run });
      const forget = (): void => void this.#requests.delete(requestId);
      run.then(forget, forget);
    }
    return run;
  }

  /**
   * An order the broker reported on its own (the stream): if it carries the reference of an
   * intent still open, the order exists, so the intent is placed — sooner than the next lookup,
   * and even when every read is failing. An intent waiting for the trader's decision is settled
   * too: the broker has it after all, and "Place again" would make a second one.
   */
  public noticeOrder(order: Order): void {
    const ref = order.clientOrderId;
    if (ref === null || ref === undefined) return;
    const rec = this.#book.get(ref) ?? this.#watched(ref);
    if (!rec) return;
    if (rec.state === 'not_placed' && this.#watching.has(ref)) {
      this.#adoptLate(rec, order);
      return;
    }
    if (DECISION_STATES.has(rec.state as PlacementState)) rec.moveTo('checking', this.#clock.now());
    if (rec.state !== 'checking') return;
    if (rec.busy) {
      // Its POST's own reply (or a lookup) is on its way: let that settle it, so a normal
      // placement reads "acknowledged" and is not cut off; the driver uses this if it fails.
      rec.pushed = { orderId: order.orderId, status: order.status };
      return;
    }
    this.#settlePlaced(rec, order.orderId, order.status, true);
  }

  /** Where the intent of this reference stands, while main remembers it (this run, or open at start). */
  public placement(clientOrderId: string): PlacementView | undefined {
    const rec = this.#book.get(clientOrderId);
    return rec ? { state: rec.state, orderId: rec.orderId, detail: rec.detail() } : undefined;
  }

  /**
   * Resolves when the intent of this reference is no longer being checked: placed, not placed,
   * refused, discarded, or waiting for a decision. Undefined for a reference main does not know.
   */
  public async settled(clientOrderId: string): Promise<PlacementView | undefined> {
    const rec = this.#book.get(clientOrderId);
    if (!rec) return undefined;
    while (rec.state === 'checking' && !this.#closed) await Promise.race([rec.nextChange(), this.#closing]);
    return this.placement(clientOrderId);
  }

  /** True when one of the intents main remembers was placed as this order (the broker's reads may not show it yet). */
  public knowsOrder(orderId: string): boolean {
    return this.#book.recent(0).some((r) => r.orderId === orderId);
  }

  /** The unconfirmed placements (and those settled recently), newest first. */
  public placements(): Placement[] {
    return this.#book.list();
  }

  /**
   * The trader's "Place again" for an intent waiting for their decision: same reference, fresh
   * window. One that cannot be verified (an earlier day than the broker's list shows) may be a
   * second order: it is sent only with `mayDuplicate`, the trader having been told so.
   */
  public async placeAgain(
    clientOrderId: string,
    options: { readonly mayDuplicate?: boolean; readonly risk?: RiskMode } = {},
  ): Promise<PlaceOutcome> {
    const rec = this.#waitingForDecision(clientOrderId);
    if (rec.state === 'unverifiable' && options.mayDuplicate !== true) {
      throw brokerError('bad_request', `${rec.detail()}. Place it again only if you accept that risk.`, {
        field: 'mayDuplicate',
      });
    }
    if (rec.state === 'unverifiable') {
      // One decision per intent: a second click (another window) joins the first's order.
      const running = this.#placingInstead.get(rec.clientOrderId);
      if (running) return running;
      const run = this.#placeInstead(rec, options.risk ?? 'check').finally(() =>
        this.#placingInstead.delete(rec.clientOrderId),
      );
      this.#placingInstead.set(rec.clientOrderId, run);
      return run;
    }
    // A new decision, judged by the limits in force now (docs/contract.md §Risk guard).
    const receivedAt = this.#clock.now();
    const instrument = await this.#checkRules(rec.order);
    const passed = await this.#pass(
      rec.order,
      instrument,
      options.risk ?? 'check',
      receivedAt + this.#t.answerDeadlineMs / 2,
    );
    const now = this.#clock.now();
    // Decided meanwhile (discarded, or the broker reported it): nothing to send.
    if (!DECISION_STATES.has(rec.state as PlacementState)) {
      passed.undo();
      return this.#answer(rec);
    }
    rec.reopen(now, Math.max(receivedAt + this.#t.answerDeadlineMs, now + this.#t.answerDeadlineMs / 4));
    this.#book.changed(rec);
    passed.done();
    this.#startDriver(rec);
    return this.#answer(rec);
  }

  /**
   * "Place again (may duplicate)" for an intent that cannot be verified: the order goes as a new
   * intent under a fresh reference, and this one is set aside (discarded). Its reference may
   * already name an order the broker no longer lists; a second order under it would make every
   * lookup by that reference ambiguous (docs/money-path.md §After a restart nothing is re-sent
   * automatically). A refusal leaves this intent as it was.
   */
  async #placeInstead(rec: PlacementRecord, risk: RiskMode): Promise<PlaceOutcome> {
    const outcome = await this.place(rec.order, { risk });
    if (DECISION_STATES.has(rec.state as PlacementState)) {
      rec.moveTo('discarded', this.#clock.now());
      rec.durable = this.#resolveInLedger(rec, 'discarded', null);
      await rec.durable;
      this.#book.changed(rec);
    }
    return outcome;
  }

  /** The trader's "Discard" for an intent waiting for their decision: nothing is sent, it is forgotten. */
  public async discard(clientOrderId: string): Promise<Placement> {
    const rec = this.#waitingForDecision(clientOrderId);
    rec.moveTo('discarded', this.#clock.now());
    rec.durable = this.#resolveInLedger(rec, 'discarded', null);
    this.#onAbsent(rec.clientOrderId);
    await rec.durable;
    this.#book.changed(rec);
    return rec.toPlacement();
  }

  /**
   * Looks up, in the background, every intent the ledger holds open (a crash or a quit left
   * them): found → placed; absent after the landing horizon → waiting for the trader's
   * decision. Nothing is sent. Resolves when every one of them is settled or waiting.
   */
  public recover(): Promise<void> {
    const now = this.#clock.now();
    const traits = this.#broker.placementTraits();
    const visibleFrom = traits.ordersVisibleFrom(now);
    const found: PlacementRecord[] = [];
    for (const intent of this.#ledger.unresolved()) {
      if (this.#book.get(intent.clientOrderId)) continue;
      const rec = new PlacementRecord({
        clientOrderId: intent.clientOrderId,
        requestId: intent.requestId ?? null,
        order: intent.order,
        journaledAt: intent.at,
        origin: 'restored',
        answerBy: now,
        now,
        uniqueReferences: traits.uniqueReferences,
        // A lookup proves nothing about an order older than the broker's list, and the list's
        // day is the broker's, which may have moved on from this computer's (the paper market's
        // runs ahead; a clock skewed around midnight): on a broker that lists only its today,
        // not found is "cannot be verified", never "has no order" (docs/money-path.md §After a
        // restart nothing is re-sent automatically).
        unverifiableWhy:
          visibleFrom === null
            ? null
            : intent.at < visibleFrom
              ? (traits.ordersVisibleNote ?? 'the broker no longer lists orders that old')
              : `${traits.ordersVisibleNote ?? 'the broker lists only today’s orders'}, by its own day, which may have moved on from this computer’s`,
      });
      this.#book.add(rec);
      found.push(rec);
    }
    if (found.length === 0) return Promise.resolve();
    this.#book.changed(found[0] as PlacementRecord);
    return Promise.all(found.map((rec) => this.#startDriver(rec))).then(() => undefined);
  }

  /**
   * Takes charge of an intent a caller decided on before a restart and may have sent, which main
   * does not know (a bracket's order whose placement the brackets journal holds, with no intent
   * open in the ledger: docs/brackets.md §After a restart). It is journaled and driven as an intent
   * found open at start — one send in doubt, settled only by lookups: found → placed; absent after
   * the landing horizon → waiting for a decision. Nothing is sent.
   */
  public async adopt(clientOrderId: string, order: OrderRequest): Promise<void> {
    if (this.#book.get(clientOrderId) || this.#closed) return;
    const now = this.#clock.now();
    this.#onReference(clientOrderId);
    await this.#ledger.appendIntent({ clientOrderId, at: now, order });
    if (this.#book.get(clientOrderId)) return;
    const rec = new PlacementRecord({
      clientOrderId,
      requestId: null,
      order,
      journaledAt: now,
      origin: 'restored',
      answerBy: now,
      now,
      uniqueReferences: this.#broker.placementTraits().uniqueReferences,
    });
    this.#book.add(rec);
    this.#book.changed(rec);
    void this.#startDriver(rec);
  }

  /** Ledger lines that could not be read (kept in a side file), or null. */
  public unreadableRecords(): UnreadableRecords | null {
    return this.#ledger.unreadable();
  }

  /** Intents still open in the ledger. */
  public openIntents(): number {
    return this.#ledger.unresolved().length;
  }

  /** Resolves when no intent is being driven (every one settled or waiting for the trader). */
  public async idle(): Promise<void> {
    while (this.#drivers.size > 0) await Promise.all([...this.#drivers]);
  }

  /** Stops every driver (the core is closing): nothing more is sent or looked up. */
  public close(): void {
    this.#closed = true;
    this.#onClose();
  }

  // ---------------------------------------------------------------- placing

  async #placeNew(
    order: OrderRequest,
    requestId: string | null,
    clickedAt: number | undefined,
    risk: RiskMode,
    receivedAt: number,
    given: string | undefined,
    safetyExit: boolean,
  ): Promise<PlaceOutcome> {
    const instrument = await this.#checkRules(order);
    // The risk guard refuses before anything is journaled: a refusal, never an intent. Its reads
    // get half the answer deadline, so the send keeps the other half. What it lets through counts
    // before the next check begins (its gate), so parallel clicks cannot all pass one limit.
    const passed = await this.#pass(order, instrument, risk, receivedAt + this.#t.answerDeadlineMs / 2);
    if (this.#closed) {
      passed.undo();
      throw brokerError('unauthorized', 'Not logged in to a broker; nothing was sent');
    }
    // Checked again after the awaits: two calls with one reference make one intent.
    const twin = given !== undefined ? this.#book.get(given) : undefined;
    if (twin) {
      passed.undo();
      return this.#answer(twin);
    }
    // The kill switch's barrier, after every await: nothing that adds risk is journaled while it is up.
    const barred = safetyExit ? null : (this.#barrier?.blocks(order) ?? null);
    if (barred !== null) {
      passed.undo();
      throw brokerError('forbidden', barred);
    }
    const clientOrderId = given ?? this.#newId();
    if (safetyExit) this.#safetyExits.add(clientOrderId);
    this.#onReference(clientOrderId);
    if (clickedAt !== undefined) this.#timeline.record(clientOrderId, 'clicked', clickedAt);
    const at = this.#clock.now();
    try {
      await this.#ledger.appendIntent({ clientOrderId, at, order, ...(requestId !== null ? { requestId } : {}) });
    } catch {
      passed.undo();
      throw brokerError('internal', 'Tradedesk could not record the order on disk, so it was not sent');
    }
    this.#timeline.record(clientOrderId, 'journaled', this.#clock.now());
    // Answered by the deadline from the click; only if main itself was held up past it (a
    // starved machine: the guard's reads stop at half of it) does the send keep a quarter of it.
    const answerBy = Math.max(receivedAt + this.#t.answerDeadlineMs, at + this.#t.answerDeadlineMs / 4);
    const rec = new PlacementRecord({
      clientOrderId,
      requestId,
      order,
      journaledAt: at,
      origin: 'clicked',
      answerBy,
      now: at,
      windowStart: receivedAt,
      uniqueReferences: this.#broker.placementTraits().uniqueReferences,
    });
    this.#book.add(rec);
    passed.done(); // the record counts from here (checking, then placed)
    this.#startDriver(rec);
    return this.#answer(rec);
  }

  /**
   * The risk guard's check inside its gate; what passes counts as on its way (and toward the
   * order rate) before the gate opens for the next check. `undo` when it is not sent after all,
   * `done` once the journaled record counts it instead.
   */
  async #pass(
    order: OrderRequest,
    instrument: Instrument,
    risk: RiskMode,
    readsBy: number,
  ): Promise<{ undo(): void; done(): void }> {
    if (!this.#guard || risk === 'exempt') return { undo: () => undefined, done: () => undefined };
    const release = await this.#guard.enter();
    try {
      await this.#guard.check(order, instrument, risk, { readsBy });
      const uncount = this.#guard.journaled();
      const key = Symbol('passing');
      this.#passing.set(key, order);
      return {
        undo: () => {
          uncount();
          this.#passing.delete(key);
        },
        done: () => void this.#passing.delete(key),
      };
    } finally {
      release();
    }
  }

  /**
   * Orders on their way that the broker's book may not show yet (the risk guard counts them as
   * working): past the guard, not yet confirmed, or placed in the last minute.
   */
  public pendingOrders(): Array<{ readonly orderId: string | null; readonly order: OrderRequest }> {
    const since = this.#clock.now() - PENDING_PLACED_MS;
    const out: Array<{ orderId: string | null; order: OrderRequest }> = [...this.#passing.values()].map((order) => ({
      orderId: null,
      order,
    }));
    for (const rec of this.#book.recent(since)) {
      if (rec.state === 'checking') out.push({ orderId: null, order: rec.order });
      else if (rec.state === 'placed' && rec.orderId !== null) out.push({ orderId: rec.orderId, order: rec.order });
    }
    return out;
  }

  async #checkRules(order: OrderRequest): Promise<Instrument> {
    let instrument;
    try {
      instrument = await this.#catalog.find(order.exchange, order.tradingsymbol);
    } catch (err) {
      const info = err instanceof AppError ? err.info : { kind: 'internal' as const, message: 'unknown error' };
      throw new AppError({ ...info, message: `Not sent: the instrument list could not be read (${info.message})` });
    }
    const refusal = orderRefusal(order, instrument);
    if (refusal) throw refusal;
    if (!instrument)
      throw brokerError('bad_request', `${order.tradingsymbol} is not traded`, { field: 'tradingsymbol' });
    return instrument;
  }

  /**
   * The caller's answer, at the latest by the record's answer deadline. After the intent is
   * journaled nothing unexpected may turn into a failure: only a settled refusal is thrown.
   */
  async #answer(rec: PlacementRecord): Promise<PlaceOutcome> {
    rec.answerStarted();
    try {
      return await this.#decideAnswer(rec);
    } finally {
      rec.answerGiven();
    }
  }

  async #decideAnswer(rec: PlacementRecord): Promise<PlaceOutcome> {
    let refusal: AppError | null = null;
    try {
      const wait = rec.answerBy - this.#clock.now();
      if (rec.state === 'checking' && wait > 0) {
        await Promise.race([rec.nextChange(), this.#clock.sleep(wait), this.#closing]);
      }
      if (rec.state === 'checking' && !rec.busy && !rec.pushed && refuseAtDeadline(rec.facts(), this.#t)) {
        this.#settleRefused(rec, lastRefusal(rec.facts()));
      }
      if (rec.state === 'placed') {
        return {
          state: 'placed',
          orderId: rec.orderId ?? '',
          clientOrderId: rec.clientOrderId,
          status: rec.status,
          recovered: rec.recovered,
        };
      }
      if (rec.state === 'refused' || rec.state === 'not_placed') {
        await rec.durable;
        refusal = this.#refusalError(rec);
        throw refusal;
      }
    } catch (err) {
      if (err === refusal) throw err;
      // Anything else after journaling: the intent is on disk and being driven, so "not yet
      // confirmed" is the only honest answer.
    }
    if (!rec.listed) {
      rec.listed = true;
      this.#book.changed(rec);
    }
    return { state: 'unconfirmed', clientOrderId: rec.clientOrderId, detail: rec.detail() };
  }

  /** The error a refused or not-placed intent is answered with. */
  #refusalError(rec: PlacementRecord): AppError {
    if (rec.state === 'refused' && rec.refusal) {
      const info = rec.refusal.info;
      return new AppError({ ...info, message: `Not placed: ${info.message}` });
    }
    return brokerError('timeout', rec.detail());
  }

  #waitingForDecision(clientOrderId: string): PlacementRecord {
    const rec = this.#book.get(clientOrderId);
    if (!rec) throw brokerError('not_found', `No placement ${clientOrderId} is waiting for a decision`);
    if (!DECISION_STATES.has(rec.state as PlacementState)) {
      throw brokerError(
        'conflict',
        `Placement ${clientOrderId} is ${rec.state.replace('_', ' ')}, not waiting for a decision`,
      );
    }
    return rec;
  }

  // ---------------------------------------------------------------- driving

  #startDriver(rec: PlacementRecord): Promise<void> {
    if (rec.driving) return Promise.resolve();
    rec.driving = true;
    const run = this.#drive(rec).finally(() => {
      rec.driving = false;
      this.#drivers.delete(run);
    });
    this.#drivers.add(run);
    return run;
  }

  /** Follows the policy until the intent is settled or waits for the trader. Never throws. */
  async #drive(rec: PlacementRecord): Promise<void> {
    while (!this.#closed && rec.state === 'checking') {
      if (rec.pushed) {
        this.#settlePlaced(rec, rec.pushed.orderId, rec.pushed.status, true);
        break;
      }
      const now = this.#clock.now();
      const step = nextStep(rec.facts(), now, this.#t);
      try {
        switch (step.kind) {
          case 'send': {
            // The policy sends only when nothing of this intent can exist at the broker, so a
            // send the kill switch's barrier stops is a refusal: nothing was created.
            const barred = this.#safetyExits.has(rec.clientOrderId)
              ? null
              : (this.#barrier?.blocks(rec.order, rec.clientOrderId) ?? null);
            if (barred !== null) {
              this.#settleRefused(rec, brokerError('forbidden', barred));
              break;
            }
            if (this.#holdForAnswer(rec, now)) {
              await Promise.race([rec.answered(), this.#closing]);
              break;
            }
            await this.#send(rec);
            break;
          }
          case 'lookup':
            await this.#lookup(rec);
            break;
          case 'wait':
            await Promise.race([this.#clock.sleep(Math.max(1, step.until - now)), this.#closing]);
            break;
          case 'refuse':
            this.#settleRefused(rec, step.error);
            break;
          case 'absent':
            if (step.outcome === 'not_placed') this.#settleNotPlaced(rec);
            else {
              rec.moveTo(step.outcome, now);
              this.#book.changed(rec);
            }
            break;
        }
      } catch {
        // A bug in a step must not stop the intent being driven; pace the next try.
        await Promise.race([this.#clock.sleep(this.#t.resendAfterNotSentMs), this.#closing]);
      }
    }
  }

  /**
   * One POST of the intent. If no reply comes within the adaptive timeout, the send is
   * recorded as in doubt and the driver starts looking the order up at once, while the POST
   * goes on waiting: a late reply still settles the intent, and it is abandoned only once the
   * intent is settled (so a slow broker is never cut off mid-request by our own impatience).
   */
  async #send(rec: PlacementRecord): Promise<void> {
    rec.busy = true;
    const startedAt = this.#clock.now();
    this.#timeline.record(rec.clientOrderId, 'sent', startedAt);
    const abandon = new AbortController();
    rec.pendingPosts.add(abandon);
    let onSlow: () => void = () => undefined;
    const slow = new Promise<'slow'>((resolve) => (onSlow = () => resolve('slow')));
    const sendBy = this.#windowEnds(rec);
    this.#sendBys.set(rec, sendBy);
    const post: Promise<PostResult> = this.#broker
      .placeOrder(
        { ...rec.order, clientOrderId: rec.clientOrderId },
        { onSlow, signal: abandon.signal, sendBy: sendBy.signal },
      )
      .then(
        (ack) => ({ ok: true as const, ack }),
        (err: unknown) => ({ ok: false as const, err }),
      );
    try {
      const first = await Promise.race([post, slow]);
      if (first !== 'slow') {
        this.#sendEnded(rec, null, first, startedAt, abandon);
        return;
      }
      // No reply yet: in doubt until it ends, and looked up meanwhile.
      const pending: SendFact = {
        startedAt,
        endedAt: Number.POSITIVE_INFINITY,
        result: 'in_doubt',
        retryable: false,
        error: null,
        notBefore: null,
      };
      rec.sends.push(pending);
      rec.lookupsSinceSend = 0;
      void post.then((late) => this.#sendEnded(rec, pending, late, startedAt, abandon));
    } finally {
      rec.busy = false;
    }
  }

  /** A POST ended (at once, or late after the driver started looking it up). */
  #sendEnded(
    rec: PlacementRecord,
    pending: SendFact | null,
    r: PostResult,
    startedAt: number,
    abandon: AbortController,
  ): void {
    const endedAt = this.#clock.now();
    rec.sendsEnded += 1;
    this.#sendBys.delete(rec);
    rec.pendingPosts.delete(abandon);
    if (r.ok) {
      this.#settlePlaced(rec, r.ack.orderId, r.ack.status, false);
      return;
    }
    const named = r.err instanceof AppError && r.err.info.kind === 'conflict' ? r.err.info.orderId : undefined;
    if (named !== undefined) {
      // The broker deduplicated: the order it names is this intent's, whatever reading it says.
      this.#settlePlaced(rec, named, null, true);
      void this.#fillStatus(rec, named);
      return;
    }
    const fact = classifySend(r.err, startedAt, endedAt, rec.uniqueReferences);
    const at = pending ? rec.sends.indexOf(pending) : -1;
    if (at >= 0) rec.sends[at] = fact;
    else {
      rec.sends.push(fact);
      rec.lookupsSinceSend = 0;
    }
  }

  /**
   * Aborts when the intent's re-send window ends: a POST still waiting for the client's rate
   * limit then never leaves, so no order reaches the broker long after the click
   * (docs/money-path.md §One policy for every broker, rule 2).
   */
  #windowEnds(rec: PlacementRecord): AbortController {
    const ends = new AbortController();
    const left = rec.windowStart + this.#t.resendWindowMs - this.#clock.now();
    if (left <= 0) ends.abort();
    else void Promise.race([this.#clock.sleep(left), this.#closing]).then(() => ends.abort());
    return ends;
  }

  /**
   * Every send so far failed at connect, a caller is waiting and its answer is due within a
   * couple of re-send intervals (or overdue): wait until the caller has its answer instead of
   * starting another connect attempt, so the answer can say "not sent" rather than find an
   * attempt still in flight. Held until the caller is answered, not until the deadline's
   * moment: two timers due at one instant fire in whichever order the machine likes.
   */
  #holdForAnswer(rec: PlacementRecord, now: number): boolean {
    // An attempt that will not end before the answer is due would make it "not yet confirmed":
    // allow for the last attempt's own duration too (on a loaded machine a refused connect can
    // take hundreds of ms).
    const last = rec.sends[rec.sends.length - 1];
    const lastTook = last && Number.isFinite(last.endedAt) ? last.endedAt - last.startedAt : 0;
    const guard = Math.max(2 * this.#t.resendAfterNotSentMs, 3 * lastTook);
    return (
      rec.answering &&
      now >= rec.answerBy - guard &&
      rec.sends.length > 0 &&
      rec.sends.every((s) => s.result === 'not_sent')
    );
  }

  /** One lookup of the intent's reference; records what it found. */
  async #lookup(rec: PlacementRecord): Promise<void> {
    rec.busy = true;
    const release = rec.origin === 'restored' ? await this.#recoverySlots.acquire() : () => undefined;
    const startedAt = this.#clock.now();
    const sendsEnded = rec.sendsEnded;
    rec.lastLookupAt = startedAt;
    rec.lookupsSinceSend += 1;
    try {
      const found = await this.#broker.findOrders(rec.clientOrderId);
      const order = found[0];
      if (order) this.#settlePlaced(rec, order.orderId, order.status, true);
      // Nothing found says nothing about a send that ended while the lookup was on its way (a
      // slow POST can land after the lookup was served), even if the clock shows one instant
      // for both: only a lookup started after every send ended may confirm absence.
      else if (rec.sendsEnded === sendsEnded) rec.lastAbsentLookupAt = startedAt;
    } catch (err) {
      const info = err instanceof AppError ? err.info : null;
      // A dead session: check again once a re-login may have happened; never a failure.
      if (info?.kind === 'unauthorized') rec.lookupNotBefore = this.#clock.now() + 1_000;
      else if (info?.kind === 'rate_limited') rec.lookupNotBefore = this.#clock.now() + (info.retryAfterMs ?? 1_000);
    } finally {
      release();
      rec.busy = false;
    }
  }

  /** After a 409 named the order: its status for the list, best effort. */
  async #fillStatus(rec: PlacementRecord, orderId: string): Promise<void> {
    try {
      const order = await this.#broker.getOrder(orderId, { urgent: true });
      if (rec.orderId === orderId && rec.status === null) {
        rec.status = order.status;
        this.#book.changed(rec);
      }
    } catch {
      // The order exists; the blotter shows its status once the broker answers.
    }
  }

  // ---------------------------------------------------------------- settling

  #settlePlaced(rec: PlacementRecord, orderId: string, status: OrderStatus | null, recovered: boolean): void {
    if (rec.state !== 'checking') return; // settled already (a late reply and a lookup can race)
    const now = this.#clock.now();
    rec.orderId = orderId;
    rec.status = status;
    rec.recovered = recovered;
    rec.moveTo('placed', now);
    this.#onPlaced({ clientOrderId: rec.clientOrderId, orderId, order: rec.order, at: now });
    this.#timeline.record(rec.clientOrderId, recovered ? 'recovered' : 'acknowledged', now);
    this.#timeline.link(rec.clientOrderId, orderId);
    // Not awaited: a resolution lost to a crash costs one lookup at the next start, not an order.
    rec.durable = this.#resolveInLedger(rec, recovered ? 'recovered' : 'acknowledged', orderId);
    this.#book.changed(rec);
  }

  #settleRefused(rec: PlacementRecord, error: AppError | null): void {
    if (rec.state !== 'checking') return;
    rec.refusal = error ?? brokerError('network', 'Not sent: the broker could not be reached');
    rec.moveTo('refused', this.#clock.now());
    rec.durable = this.#resolveInLedger(rec, 'failed', null);
    this.#onAbsent(rec.clientOrderId);
    this.#book.changed(rec);
  }

  #settleNotPlaced(rec: PlacementRecord): void {
    if (rec.state !== 'checking') return;
    const now = this.#clock.now();
    rec.moveTo('not_placed', now);
    rec.durable = this.#resolveInLedger(rec, 'not_placed', null);
    this.#onAbsent(rec.clientOrderId);
    // Not found is what is known, not that it cannot land: watched for the rest of the day.
    this.#watching.set(rec.clientOrderId, { rec, until: istDayStart(now) + DAY_MS });
    this.#book.changed(rec);
  }

  /** The watched intent of this reference, while its day lasts. */
  #watched(clientOrderId: string): PlacementRecord | undefined {
    const now = this.#clock.now();
    for (const [cid, w] of this.#watching) if (w.until <= now) this.#watching.delete(cid);
    return this.#watching.get(clientOrderId)?.rec;
  }

  /**
   * An order reported not found has appeared: it is this intent's order after all. It is
   * adopted — placed, counted by the risk guard as an order placed moments ago, linked for the
   * drift alarm and the timeline, listed with `appearedLate` so the desk raises a loud alert —
   * and never sent again (docs/money-path.md §After the landing horizon).
   */
  #adoptLate(rec: PlacementRecord, order: Order): void {
    this.#watching.delete(rec.clientOrderId);
    const now = this.#clock.now();
    rec.orderId = order.orderId;
    rec.status = order.status;
    rec.recovered = true;
    rec.appearedLate = true;
    rec.listed = true;
    rec.moveTo('placed', now);
    if (!this.#book.get(rec.clientOrderId)) this.#book.add(rec);
    this.#onPlaced({ clientOrderId: rec.clientOrderId, orderId: order.orderId, order: rec.order, at: now });
    this.#timeline.record(rec.clientOrderId, 'recovered', now);
    this.#timeline.link(rec.clientOrderId, order.orderId);
    this.#book.changed(rec);
    // The ledger answered this intent "not placed": from now on its request id answers the order.
    void this.#ledger
      .adoptLate({ clientOrderId: rec.clientOrderId, at: now, orderId: order.orderId, status: order.status })
      .catch(() => undefined);
  }

  #resolveInLedger(
    rec: PlacementRecord,
    outcome: 'acknowledged' | 'recovered' | 'failed' | 'not_placed' | 'discarded',
    orderId: string | null,
  ): Promise<void> {
    const refusal = rec.refusal?.info;
    return this.#ledger
      .resolve({
        clientOrderId: rec.clientOrderId,
        at: this.#clock.now(),
        outcome,
        orderId,
        ...(refusal !== undefined ? { kind: refusal.kind, message: refusal.message.slice(0, 2_000) } : {}),
        ...(orderId !== null ? { status: rec.status } : {}),
      })
      .catch(() => undefined);
  }
}

/** How an order POST ended: the broker's acknowledgement, or what it threw. */
type PostResult = { readonly ok: true; readonly ack: OrderAck } | { readonly ok: false; readonly err: unknown };

/**
 * The answer a request id got before a restart, from its ledger records: placed, or the
 * refusal it was told (the money rule: only an intent that created nothing is a failure).
 */
function answerOf({ intent, resolution: r }: ResolvedRequest): Promise<PlaceOutcome> {
  const cid = intent.clientOrderId;
  switch (r.outcome) {
    case 'acknowledged':
    case 'recovered':
      if (r.orderId === null) break;
      return Promise.resolve({
        state: 'placed',
        orderId: r.orderId,
        clientOrderId: cid,
        status: r.status ?? null,
        recovered: r.outcome === 'recovered',
      });
    case 'failed':
      return Promise.reject(
        new AppError({ kind: r.kind ?? 'bad_request', message: `Not placed: ${r.message ?? 'the broker refused it'}` }),
      );
    case 'not_placed':
      return Promise.reject(brokerError('timeout', notFoundText(cid, intent.at, r.at)));
    case 'discarded':
      return Promise.reject(brokerError('timeout', `Discarded: the broker has no order ${cid}, and it was not sent`));
    case 'unknown':
      break;
  }
  return Promise.resolve({
    state: 'unconfirmed',
    clientOrderId: cid,
    detail: `Order ${cid} was sent before a restart and its outcome was not recorded: check the order book`,
  });
}

/**
 * How one failed POST ended, as far as the broker could have acted on it (placement-policy.ts).
 * A 5xx closes the send only on a broker that refuses a reused reference: elsewhere a gateway's
 * 502/504 may hide an upstream that placed the order, and an order book that trails the order
 * system can still show nothing, so it is in doubt like a send without a reply.
 */
export function classifySend(err: unknown, startedAt: number, endedAt: number, uniqueReferences: boolean): SendFact {
  const base = { startedAt, endedAt, retryable: false, error: null, notBefore: null };
  if (err instanceof TransportFailure) {
    if (err.reach === 'in_doubt') return { ...base, result: 'in_doubt' };
    const why =
      err instanceof SendTimePassed
        ? 'Not sent: its time ran out while the broker had asked us to wait, so it never left'
        : `Not sent: could not reach the broker (${err.info.message})`;
    return { ...base, result: 'not_sent', error: brokerError(err.info.kind, why) };
  }
  if (!(err instanceof AppError)) return { ...base, result: 'in_doubt' };
  switch (err.info.kind) {
    case 'rate_limited':
      return {
        ...base,
        result: 'refused',
        retryable: true,
        error: err,
        notBefore: endedAt + (err.info.retryAfterMs ?? 1_000),
      };
    case 'bad_request':
    case 'forbidden':
    case 'not_found':
    case 'unauthorized':
      return { ...base, result: 'refused', error: err };
    case 'server_error':
      return { ...base, result: uniqueReferences ? 'closed' : 'in_doubt' };
    default:
      // conflict without an order id, unexpected_shape (a 2xx we could not read), timeout,
      // network, internal: the broker may hold the order.
      return { ...base, result: 'in_doubt' };
  }
}

/**
 * Refuses a repeated request id that carries a different order (absent and null prices are
 * alike; an absent variety is `regular`).
 */
async function sameOrder(first: OrderRequest, again: OrderRequest): Promise<void> {
  const differs =
    ORDER_FIELDS.some((k) => (first[k] ?? null) !== (again[k] ?? null)) ||
    (first.variety ?? 'regular') !== (again.variety ?? 'regular');
  if (differs) {
    throw brokerError('bad_request', 'This request id was already used for a different order', {
      field: 'requestId',
    });
  }
}

/** A placed order counts as on its way this long, in case main's book does not show it yet. */
const PENDING_PLACED_MS = 60_000;

/** At most `n` holders at once; the rest queue in arrival order. */
class Semaphore {
  #free: number;
  readonly #queue: Array<() => void> = [];

  public constructor(n: number) {
    this.#free = Math.max(1, n);
  }

  public async acquire(): Promise<() => void> {
    if (this.#free > 0) this.#free -= 1;
    else await new Promise<void>((resolve) => this.#queue.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#queue.shift();
      if (next) next();
      else this.#free += 1;
    };
  }
}

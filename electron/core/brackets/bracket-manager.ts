import type { Bracket, BracketChildKey, BracketPlaced, BracketRequest } from '@shared/domain/bracket';
import type { Instrument } from '@shared/domain/instrument';
import type { Order, OrderRequest } from '@shared/domain/order';
import type { Tick } from '@shared/domain/market';
import { AppError } from '@shared/ipc/app-error';
import { bracketProblems, exitSide, protectedQuantity, type BracketField } from '@shared/trading/bracket-rules';
import type { Broker } from '../../broker/broker';
import { brokerError } from '../../broker/broker-error';
import { systemClock, type Clock } from '../clock';
import type { OrderModifier } from '../orders/order-modifier';
import type { OrderService } from '../orders/order-service';
import type { RiskGuard, RiskMode } from '../risk/risk-guard';
import type { BracketJournal } from './bracket-journal';
import { createBracket, step, type BracketAction, type BracketEvent, type KnownNow } from './bracket-machine';
import { bracketRefs, newBracketId } from './bracket-refs';

/** Where a bracket's driver is, for the crash tests (docs/brackets.md §Crash tests). */
export type BracketPoint = 'decided' | 'journaled';

/** What the manager works with: the one order path, the modifier, the cancel lane, the journal. */
export interface BracketManagerDeps {
  readonly orders: Pick<OrderService, 'place' | 'placeAgain' | 'placement' | 'settled' | 'adopt'>;
  readonly modifier: Pick<OrderModifier, 'modify'>;
  readonly broker: Pick<Broker, 'cancelOrder' | 'getOrder'>;
  readonly find: (exchange: Instrument['exchange'], symbol: string) => Promise<Instrument | undefined>;
  /** The exits are judged when the bracket is made (docs/brackets.md §Risk). */
  readonly guard?: Pick<RiskGuard, 'checkGtt'>;
  /** The instrument's last price (a tick, else a quote), for a MARKET entry's or a position's exits. */
  readonly lastPrice: (instrumentToken: number) => Promise<number | null>;
  readonly journal: BracketJournal;
  /** Main's order book: read again while the stream is down, so fills are seen without it. */
  readonly syncBook: () => Promise<void>;
  /**
   * The net position (signed, + long) of an instrument and product as main knows it now; null:
   * not known (docs/brackets.md §The controller). Absent: never known (the exits follow their own fills).
   */
  readonly held?: (key: PositionKey) => number | null;
  /** Main's working orders, when its book is fresh; null otherwise. */
  readonly workingOrders?: () => readonly Order[] | null;
  /** Reads the positions from the broker into main's view (when `held` says unknown). */
  readonly readPositions?: () => Promise<unknown>;
  /** An order read outside the book (after a failed action): to the book, so the view counts its fills. */
  readonly noteOrder?: (order: Order) => void;
  readonly streamOpen: () => boolean;
  readonly clock?: Clock;
  /** Retries and the book's reads while the stream is down, this often (default 1 s). */
  readonly everyMs?: number;
  /** Told the whole list when a bracket changes (not on every tick). */
  readonly onChange?: (brackets: Bracket[]) => void;
  /** Told the instruments whose ticks the trailing stops need. */
  readonly watch?: (tokens: ReadonlySet<number>) => void;
  /** Crash tests: told each step's decision before it is journaled, and after. */
  readonly onPoint?: (point: BracketPoint, bracket: Bracket, actions: readonly BracketAction[]) => void;
}

/** Which position: an instrument and product of the account. */
export interface PositionKey {
  readonly exchange: Instrument['exchange'];
  readonly tradingsymbol: string;
  readonly product: OrderRequest['product'];
}

/** Words for an order the broker no longer lists (docs/brackets.md §After a restart). */
export const NOT_LISTED = 'No longer listed by the broker (cancelled at the close, or an earlier day’s): not working';

/** What a placement of a bracket's order said, as the machine takes it. */
type Placed = { state: 'placed'; orderId: string } | { state: 'unconfirmed' } | { state: 'refused'; message: string };

/**
 * Brackets and trailing stops, kept by main (docs/brackets.md): drives each bracket's state
 * machine (`bracket-machine.ts`) with main's order reports (the order book's, pushed or read),
 * the stream's ticks and the answers of its own actions; journals each step durably before it
 * acts; sends every order through the order service (exactly once, three honest answers, the
 * risk guard), every modification through the modifier and every cancel through the cancel lane.
 * After a restart a bracket is read back from the broker before it acts again.
 */
export class BracketManager {
  readonly #d: BracketManagerDeps;
  readonly #clock: Clock;
  readonly #brackets = new Map<string, Bracket>();
  #queue: Promise<void> = Promise.resolve();
  /** `brackets.place` calls under way by request id: a second call with the same id gets the first's answer. */
  readonly #requests = new Map<string, Promise<BracketPlaced>>();
  #reading = false;
  #timer: ReturnType<typeof setInterval> | null = null;
  #closed = false;
  #watching = '';

  public constructor(deps: BracketManagerDeps) {
    this.#d = deps;
    this.#clock = deps.clock ?? systemClock;
  }

  /** Every bracket of the day, newest first. */
  public list(): Bracket[] {
    return [...this.#brackets.values()].sort((a, b) => b.createdAt - a.createdAt);
  }

  public get(id: string): Bracket | undefined {
    return this.#brackets.get(id);
  }

  /**
   * A new bracket: its exits are checked by the rules and the risk guard, it is journaled, and
   * then its entry is placed through the order service (its honest answer is this call's), or a
   * position's exits at once. A refusal means nothing was created, and the bracket is forgotten.
   */
  public create(
    request: BracketRequest,
    options: { readonly requestId?: string; readonly risk?: RiskMode; readonly clickedAt?: number } = {},
  ): Promise<BracketPlaced> {
    const id = options.requestId;
    if (id === undefined) return this.#create(request, options);
    // Claimed before the first await: two calls at once make one bracket, and both get its answer.
    const running = this.#requests.get(id);
    if (running) return running;
    const run = this.#create(request, options);
    this.#requests.set(id, run);
    const forget = (): void => void this.#requests.delete(id);
    run.then(forget, forget);
    return run;
  }

  async #create(
    request: BracketRequest,
    options: { readonly requestId?: string; readonly risk?: RiskMode; readonly clickedAt?: number },
  ): Promise<BracketPlaced> {
    const requestId = options.requestId ?? null;
    const risk = options.risk ?? 'check';
    if (requestId !== null) {
      const same = [...this.#brackets.values()].find((b) => b.requestId === requestId);
      if (same && !same.entry) return { bracket: same, entry: null };
      if (same?.entry) {
        // The same click again: the order service answers its entry as the first time.
        const entry = await this.#d.orders.place(same.entry.order, { requestId, clientOrderId: same.entry.ref, risk });
        return { bracket: this.#brackets.get(same.id) ?? same, entry };
      }
    }
    const basis = request.kind === 'entry' ? request.entry : request;
    const instrument = await this.#d.find(basis.exchange, basis.tradingsymbol);
    if (!instrument)
      throw brokerError('bad_request', `${basis.tradingsymbol} is not traded`, { field: 'tradingsymbol' });
    const side = request.kind === 'entry' ? request.entry.transactionType : request.side;
    const quantity = request.kind === 'entry' ? request.entry.quantity : request.quantity;
    const reference = await this.#reference(request, instrument);
    const problems = bracketProblems(
      {
        side,
        reference,
        stop: request.stop?.triggerPrice ?? null,
        target: request.target?.price ?? null,
        trail: request.trail,
      },
      instrument,
    );
    const first = Object.entries(problems)[0] as [BracketField, string] | undefined;
    if (first) throw brokerError('bad_request', first[1], { field: first[0] });
    const held = request.kind === 'protect' ? await this.#protectable(request) : null;
    await this.#judgeExits(request, instrument, side, quantity, risk);

    const id = newBracketId();
    const made = createBracket({ id, request, requestId, instrument, refs: bracketRefs(id), held }, this.#clock.now());
    await this.#d.journal.write(made.bracket);
    this.#brackets.set(id, made.bracket);
    this.#changed();
    this.#ensureTimer();

    if (request.kind === 'protect') {
      for (const a of made.actions) void this.#act(id, a);
      await Promise.all(
        made.actions.map((a) => (a.t === 'place' ? this.#d.orders.settled(a.ref).catch(() => undefined) : undefined)),
      );
      await this.#queue;
      const b = this.#brackets.get(id) ?? made.bracket;
      const sent = made.actions.flatMap((a) => (a.t === 'place' ? [b[a.child]] : []));
      if (sent.length > 0 && sent.every((c) => c === null || c.status === 'not_placed')) {
        const why = b.stop?.message ?? b.target?.message ?? 'nothing was created';
        await this.#forget(id);
        throw brokerError('bad_request', `Not placed: ${why.replace(/^Not placed: /, '')}`);
      }
      return { bracket: b, entry: null };
    }

    const entry = made.bracket.entry;
    if (!entry) throw brokerError('internal', 'A bracket with an entry has none');
    let outcome;
    try {
      outcome = await this.#d.orders.place(entry.order, {
        clientOrderId: entry.ref,
        ...(requestId !== null ? { requestId } : {}),
        ...(options.clickedAt !== undefined ? { clickedAt: options.clickedAt } : {}),
        risk,
      });
    } catch (err) {
      // Nothing was created: the bracket never was, for the trader.
      await this.#forget(id);
      throw err;
    }
    await this.#placed(id, 'entry', entry.ref, outcome.state === 'placed' ? outcome : { state: 'unconfirmed' });
    return { bracket: this.#brackets.get(id) ?? made.bracket, entry: outcome };
  }

  /** The trader cancels a bracket: its working orders are cancelled, nothing more is placed. */
  public async cancel(id: string): Promise<Bracket> {
    const b = this.#brackets.get(id);
    if (!b) throw brokerError('not_found', `No bracket ${id}`, { field: 'id' });
    if (b.phase === 'done') throw brokerError('conflict', `The bracket is already done: ${b.outcome ?? ''}`);
    await this.#feed(id, { t: 'cancel' });
    return this.#brackets.get(id) ?? b;
  }

  /**
   * The running brackets `which` picks are cancelled as by the trader (a safety run cancelling
   * their orders): they place nothing more.
   */
  public standDown(which: (b: Bracket) => boolean): void {
    for (const b of this.#brackets.values())
      if (b.phase !== 'done' && !b.cancelRequested && which(b)) void this.#feed(b.id, { t: 'cancel' });
  }

  /** A report of an order from main's book (pushed or read): to the bracket it belongs to. */
  public onOrder(order: Order): void {
    for (const b of this.#brackets.values()) {
      const mine = [b.entry, b.stop, b.target].some(
        (c) => c !== null && (c.ref === order.clientOrderId || (c.orderId !== null && c.orderId === order.orderId)),
      );
      if (mine) void this.#feed(b.id, { t: 'order', order });
    }
  }

  /** A tick: to the trailing stops of its instrument. */
  public onTick(tick: Tick): void {
    for (const b of this.#brackets.values()) {
      if (b.trail && b.phase === 'protecting' && b.instrumentToken === tick.instrumentToken)
        void this.#feed(b.id, { t: 'tick', price: tick.lastPrice });
    }
  }

  /**
   * At start, after the order service listed the intents its ledger holds open: every bracket the
   * journal holds still running is read back from the broker before it acts — each order it knows
   * by id is read; each placement it had decided and may have sent is settled by the order
   * service's lookups under its reference (docs/brackets.md §After a restart). Resolves once every
   * bracket may act again.
   */
  public async recover(): Promise<void> {
    const restored: Bracket[] = [];
    for (const b of this.#d.journal.brackets()) {
      // The position it knew is yesterday's news: known again from main's reads.
      const r = b.phase === 'done' ? b : { ...b, restoring: true, held: null };
      this.#brackets.set(b.id, r);
      if (b.phase !== 'done') restored.push(r);
    }
    this.#changed();
    if (restored.length === 0) return;
    this.#ensureTimer();
    await Promise.all(restored.map((b) => this.#readBack(b)));
  }

  /** Stops the timer and every loop; nothing more is sent. */
  public close(): void {
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Resolves once every event fed so far has been journaled and its actions started. */
  public idle(): Promise<void> {
    return this.#queue;
  }

  // ---------------------------------------------------------------- the machine's driver

  /** One event through the machine: journal the step durably, then act on it. Serial. */
  #feed(id: string, event: BracketEvent): Promise<void> {
    const run = this.#queue.then(async () => {
      const before = this.#brackets.get(id);
      if (!before || this.#closed) return;
      // Each step sized against the position main knows at that moment (docs/brackets.md §The controller).
      const s = step(before, event, this.#clock.now(), this.#position(before));
      const durable = visible(before) !== visible(s.bracket);
      this.#d.onPoint?.('decided', s.bracket, s.actions);
      if (durable || s.actions.length > 0) {
        try {
          await this.#d.journal.write(s.bracket);
        } catch {
          // Not on disk, so not acted on: the step is taken again at the next event.
          this.#brackets.set(id, { ...before, problem: 'Tradedesk could not record this bracket on disk; retrying' });
          this.#changed();
          return;
        }
      }
      this.#brackets.set(id, s.bracket);
      this.#d.onPoint?.('journaled', s.bracket, s.actions);
      for (const a of s.actions) void this.#act(id, a);
      if (durable) this.#changed();
      if (s.bracket.phase === 'done') this.#watch();
    });
    this.#queue = run.catch(() => undefined);
    return this.#queue;
  }

  async #act(id: string, a: BracketAction): Promise<void> {
    if (this.#closed) return;
    switch (a.t) {
      case 'place': {
        let outcome: Placed;
        try {
          // Exempt from the guard only while it only reduces what is held (docs/brackets.md §Risk).
          const o = await this.#d.orders.place(a.order, {
            clientOrderId: a.ref,
            risk: a.reduceOnly ? 'exempt' : 'check',
          });
          outcome = o.state === 'placed' ? { state: 'placed', orderId: o.orderId } : { state: 'unconfirmed' };
        } catch (err) {
          outcome = { state: 'refused', message: messageOf(err) };
        }
        await this.#placed(id, a.child, a.ref, outcome);
        return;
      }
      case 'modify': {
        try {
          await this.#d.modifier.modify(a.orderId, a.changes, 'exempt');
          await this.#feed(id, { t: 'modified', child: a.child, changes: a.changes, trail: a.trail });
        } catch (err) {
          const info = err instanceof AppError ? err.info : null;
          // Already so (a retry after a lost reply that had applied): done.
          if (info?.field === 'changes') {
            await this.#feed(id, { t: 'modified', child: a.child, changes: a.changes, trail: a.trail });
            return;
          }
          const final = info?.kind === 'bad_request' || info?.kind === 'conflict' || info?.kind === 'not_found';
          await this.#feed(id, { t: 'modify-failed', child: a.child, message: messageOf(err), final });
          await this.#reread(id, a.orderId);
        }
        return;
      }
      case 'cancel': {
        try {
          const ack = await this.#d.broker.cancelOrder(a.orderId);
          await this.#feed(id, { t: 'cancel-sent', child: a.child, status: ack.status });
        } catch (err) {
          await this.#feed(id, { t: 'cancel-failed', child: a.child, message: messageOf(err) });
          await this.#reread(id, a.orderId);
        }
        return;
      }
    }
  }

  /** After a failed action: the order as the broker has it now (it may have filled meanwhile). */
  async #reread(id: string, orderId: string): Promise<void> {
    try {
      const o = await this.#d.broker.getOrder(orderId, { urgent: true });
      this.#d.noteOrder?.(o);
      await this.#feed(id, { t: 'order', order: o });
    } catch (err) {
      // Not listed: not working (the controller places it again while the position needs it).
      if (err instanceof AppError && err.info.kind === 'not_found') {
        const child = (['stop', 'target'] as const).find((k) => this.#brackets.get(id)?.[k]?.orderId === orderId);
        if (child) await this.#feed(id, { t: 'gone', child, message: NOT_LISTED });
      }
      // Otherwise the next report, or the next retry, tells.
    }
  }

  /**
   * A placement's answer to the machine; one not yet confirmed is followed until the order
   * service settles it (docs/contract.md §Three honest answers: never "failed" while it may exist).
   */
  async #placed(id: string, child: BracketChildKey, ref: string, outcome: Placed): Promise<void> {
    if (outcome.state === 'placed') {
      await this.#feed(id, { t: 'placed', child, orderId: outcome.orderId, status: null });
      return;
    }
    if (outcome.state === 'refused') {
      await this.#feed(id, { t: 'refused', child, message: outcome.message });
      return;
    }
    await this.#feed(id, { t: 'unconfirmed', child });
    void this.#follow(id, child, ref);
  }

  /**
   * Follows a placement main decided on until it is placed or certainly not: the order service's
   * own intent if it knows one (after a restart, its lookups), else one it adopts to look up. A
   * bracket's exit found absent after a restart is placed again under the same reference — the
   * bracket is the trader's standing instruction; its entry waits for the trader's decision
   * (docs/brackets.md §After a restart).
   */
  async #follow(id: string, child: BracketChildKey, ref: string): Promise<void> {
    while (!this.#closed) {
      const b = this.#brackets.get(id);
      const c = b?.[child];
      if (!b || !c || (c.status !== 'placing' && c.status !== 'unconfirmed')) return;
      let v = this.#d.orders.placement(ref);
      if (!v) {
        try {
          await this.#d.orders.adopt(ref, c.order);
        } catch {
          await this.#clock.sleep(this.#d.everyMs ?? 1_000);
        }
        continue;
      }
      if (v.state === 'checking') v = (await this.#d.orders.settled(ref)) ?? v;
      if (v.state === 'placed' && v.orderId !== null) {
        await this.#feed(id, { t: 'placed', child, orderId: v.orderId, status: null });
        return;
      }
      if (v.state === 'refused' || v.state === 'not_placed' || v.state === 'discarded') {
        await this.#feed(id, { t: 'refused', child, message: v.detail });
        return;
      }
      if (v.state === 'needs_decision' && child !== 'entry') {
        try {
          const again = await this.#d.orders.placeAgain(ref, { risk: 'exempt' });
          if (again.state === 'placed') {
            await this.#feed(id, { t: 'placed', child, orderId: again.orderId, status: null });
            return;
          }
        } catch (err) {
          await this.#feed(id, { t: 'refused', child, message: messageOf(err) });
          return;
        }
        continue;
      }
      // The trader decides (an entry; one that cannot be verified): look again later.
      await this.#clock.sleep(this.#d.everyMs ?? 1_000);
    }
  }

  /** A restored bracket: its known orders read, its undecided placements followed; then it acts. */
  async #readBack(b: Bracket): Promise<void> {
    const keys = (['entry', 'stop', 'target'] as const).filter((k) => b[k] !== null);
    for (const k of keys) {
      const c = b[k];
      if (!c) continue;
      if (c.orderId !== null && (c.status === 'working' || c.status === 'placing' || c.status === 'unconfirmed')) {
        const o = await this.#readOrder(c.orderId);
        if (o) await this.#feed(b.id, { t: 'order', order: o });
        // "Couldn't find that order_id" is news: an exit the broker no longer lists is not working.
        else if (k !== 'entry') await this.#feed(b.id, { t: 'gone', child: k, message: NOT_LISTED });
      } else if (c.status === 'placing' || c.status === 'unconfirmed') {
        await this.#feed(b.id, { t: 'unconfirmed', child: k });
        void this.#follow(b.id, k, c.ref);
      }
    }
    await this.#feed(b.id, { t: 'restored' });
  }

  /** Reads one order, trying until the broker answers (a restored bracket does not act before). */
  async #readOrder(orderId: string): Promise<Order | null> {
    for (let attempt = 0; !this.#closed; attempt += 1) {
      try {
        return await this.#d.broker.getOrder(orderId, { urgent: true });
      } catch (err) {
        if (err instanceof AppError && err.info.kind === 'not_found') return null;
        await this.#clock.sleep(Math.min(5_000, 250 * 2 ** attempt));
      }
    }
    return null;
  }

  async #forget(id: string): Promise<void> {
    this.#brackets.delete(id);
    await this.#d.journal.drop(id).catch(() => undefined);
    this.#changed();
  }

  /** The price the exits are judged against: the entry's, else the last traded price. */
  async #reference(request: BracketRequest, instrument: Instrument): Promise<number | null> {
    if (request.kind === 'entry') {
      const e = request.entry;
      if (e.orderType === 'LIMIT' || e.orderType === 'SL') return e.price ?? null;
      if (e.orderType === 'SL-M') return e.triggerPrice ?? null;
    }
    const last = await this.#d.lastPrice(instrument.instrumentToken);
    return last !== null && last > 0 ? last : null;
  }

  /** The exits, judged by the risk guard as the orders they will be (docs/brackets.md §Risk). */
  async #judgeExits(
    request: BracketRequest,
    instrument: Instrument,
    side: OrderRequest['transactionType'],
    quantity: number,
    risk: RiskMode,
  ): Promise<void> {
    if (!this.#d.guard) return;
    const product = request.kind === 'entry' ? request.entry.product : request.product;
    const legs = [
      ...(request.stop ? [{ name: 'Stop-loss', price: request.stop.triggerPrice }] : []),
      ...(request.target ? [{ name: 'Target', price: request.target.price }] : []),
    ];
    await this.#d.guard.checkGtt(
      {
        exchange: instrument.exchange,
        tradingsymbol: instrument.tradingsymbol,
        legs: legs.map((l) => ({ transactionType: exitSide(side), quantity, product, price: l.price })),
      },
      instrument,
      risk,
      { legs: legs.map((l) => l.name), verdict: 'Not placed' },
    );
  }

  #ensureTimer(): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setInterval(() => this.#everyTick(), this.#d.everyMs ?? 1_000);
    this.#timer.unref?.();
    this.#watch();
  }

  /** Retries fall due; and without the stream, main's book is read so fills are seen. */
  #everyTick(): void {
    const running = [...this.#brackets.values()].filter((b) => b.phase !== 'done');
    if (running.length === 0) {
      if (this.#timer) clearInterval(this.#timer);
      this.#timer = null;
      return;
    }
    for (const b of running) void this.#feed(b.id, { t: 'timer' });
    if (!this.#d.streamOpen()) this.#d.syncBook().catch(() => undefined);
    // A protected position not known now: read it, one read at a time.
    const unknown = running.some((b) => b.phase === 'protecting' && this.#d.held?.(b) === null);
    if (unknown && this.#d.readPositions && !this.#reading) {
      this.#reading = true;
      void this.#d
        .readPositions()
        .catch(() => undefined)
        .finally(() => (this.#reading = false));
    }
  }

  /**
   * The bracket with the position main knows now (docs/brackets.md §The controller): the net
   * quantity held, and the working orders reducing it that are not this bracket's — any order
   * of the trader's, and what brackets made earlier on the same position protect.
   */
  #position(b: Bracket): KnownNow | undefined {
    if (b.phase === 'done' || !this.#d.held) return undefined;
    const held = this.#d.held(b);
    const working = this.#d.workingOrders?.() ?? null;
    const same = (o: { exchange: string; tradingsymbol: string; product: string }): boolean =>
      o.exchange === b.exchange && o.tradingsymbol === b.tradingsymbol && o.product === b.product;
    const mine = new Set<string>();
    for (const x of this.#brackets.values())
      for (const c of [x.entry, x.stop, x.target]) if (c) mine.add(c.orderId ?? c.ref).add(c.ref);
    let otherReducing: number | null = null;
    if (working !== null) {
      otherReducing = 0;
      for (const o of working)
        if (
          same(o) &&
          o.transactionType === exitSide(b.side) &&
          !mine.has(o.orderId) &&
          !mine.has(o.clientOrderId ?? '')
        )
          otherReducing += o.quantity - o.filledQuantity;
      for (const x of this.#brackets.values())
        if (x.id !== b.id && x.phase !== 'done' && x.createdAt < b.createdAt && x.side === b.side && same(x))
          otherReducing += protectedQuantity(x);
    }
    return { held, otherReducing };
  }

  /**
   * A protect is for at most what is held (docs/brackets.md §Risk): refused, naming `quantity`,
   * when it exceeds the position or nothing is held; the position read first if main does not know it.
   */
  async #protectable(r: Extract<BracketRequest, { kind: 'protect' }>): Promise<number | null> {
    if (!this.#d.held) return null;
    let held = this.#d.held(r);
    if (held === null && this.#d.readPositions) {
      await this.#d.readPositions().catch(() => undefined);
      held = this.#d.held(r);
    }
    if (held === null)
      throw brokerError('conflict', 'The position is not known now (the broker did not answer): try again', {
        field: 'quantity',
      });
    const onSide = Math.max(0, r.side === 'BUY' ? held : -held);
    const what = `${r.tradingsymbol} (${r.product})`;
    if (onSide === 0)
      throw brokerError('bad_request', `Nothing ${r.side === 'BUY' ? 'long' : 'short'} is held in ${what} to protect`, {
        field: 'quantity',
      });
    if (r.quantity > onSide)
      throw brokerError(
        'bad_request',
        `Only ${onSide} ${r.side === 'BUY' ? 'long' : 'short'} is held in ${what}: protect at most ${onSide}`,
        {
          field: 'quantity',
        },
      );
    return held;
  }

  #watch(): void {
    const tokens = new Set(
      [...this.#brackets.values()].filter((b) => b.trail && b.phase !== 'done').map((b) => b.instrumentToken),
    );
    const key = [...tokens].sort().join(',');
    if (key === this.#watching) return;
    this.#watching = key;
    this.#d.watch?.(tokens);
  }

  #changed(): void {
    this.#watch();
    this.#d.onChange?.(this.list());
  }
}

/**
 * A bracket as the trader sees it: everything but the best price, which moves with every tick,
 * and the position it was last sized against (read again at every step).
 */
function visible(b: Bracket): string {
  return JSON.stringify({ ...b, best: null, held: null, otherReducing: null });
}

function messageOf(err: unknown): string {
  return err instanceof AppError ? err.info.message : err instanceof Error ? err.message : String(err);
}

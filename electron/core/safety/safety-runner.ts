import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { Instrument } from '@shared/domain/instrument';
import type { MarketQuote } from '@shared/domain/market';
import { isWorking, type Order, type OrderRequest } from '@shared/domain/order';
import type { Placement } from '@shared/domain/placement';
import type { Position } from '@shared/domain/portfolio';
import type { SafetyAction, SafetyRun, SafetyStep, StillOpen } from '@shared/domain/safety-run';
import { AppError } from '@shared/ipc/app-error';
import { freezeSlices } from '@shared/trading/freeze-slices';
import { fromUnits, toUnits } from '@shared/trading/money';
import type { Broker, ReadOptions } from '../../broker/broker';
import { brokerError, LimitReached, SendTimePassed } from '../../broker/broker-error';
import { systemClock, type Clock } from '../clock';
import { FRESH_PRICE_MS, type DeskView } from '../desk-view';
import type { KnownPositions, PositionKey } from '../known-positions';
import type { KillBarrier } from './kill-barrier';
import type { OrderService } from '../orders/order-service';

/** Knobs of a safety run (tests shrink the waits). */
export interface SafetyTimings {
  /**
   * Tries per order (a cancel, an exit) that fail, before it is reported still open. A 429 is
   * not a failed try: it is waited out, as often as the broker asks (docs/contract.md §Kill switch).
   */
  readonly attempts: number;
  /** Pause before each retry, by retry number (the last one repeats). */
  readonly retryDelaysMs: readonly number[];
  /** How long an unconfirmed placement or exit is waited for before it is reported unconfirmed. */
  readonly settleWaitMs: number;
  /** How often the unconfirmed list is looked at while waiting. */
  readonly settlePollMs: number;
  /**
   * Cancels (and exits) in flight at once. More than the client's limiter admits in one go (its
   * burst: 16 on the paper broker, 8 on Kite), so that what it refilled during a Retry-After
   * pause all goes out when the pause ends: the limiter, not this number, sets the pace.
   */
  readonly concurrency: number;
  /** Tries of a read of the order book or positions (each already retried by the transport for up to 5 s). */
  readonly readAttempts: number;
  /** How long a 429 that names no Retry-After is waited out. */
  readonly rateLimitWaitMs: number;
  /** The longest Retry-After honoured in one wait (a longer one is waited out in waits this long). */
  readonly maxRetryAfterMs: number;
}

/**
 * The defaults: 4 failed tries over about 3.5 s (429s not counted); an unconfirmed order is
 * waited for up to 25 s (its re-send window and landing horizon).
 */
export const DEFAULT_SAFETY_TIMINGS: SafetyTimings = {
  attempts: 4,
  retryDelaysMs: [250, 1_000, 2_000],
  settleWaitMs: 25_000,
  settlePollMs: 100,
  concurrency: 32,
  readAttempts: 2,
  rateLimitWaitMs: 1_000,
  maxRetryAfterMs: 30_000,
};

/** How far from the last price an exit's LIMIT may be, in % (market protection; docs/contract.md §Kill switch). */
export const EXIT_PROTECTION_PCT = 3;

/** What a run needs. */
export interface SafetyRunnerDeps {
  readonly broker: Pick<Broker, 'listOrders' | 'cancelOrder' | 'getOrder' | 'getQuotes'>;
  /** Reads the positions from the broker (main's view learns from every read). */
  readonly readPositions: (options?: ReadOptions) => Promise<readonly Position[]>;
  /**
   * Main's own book, positions and ticks, used where fresh instead of asking the broker
   * (docs/live-data.md §Main's own view of the account). Absent: every figure is read.
   */
  readonly view?: Pick<
    DeskView,
    'orders' | 'workingOrders' | 'lastPrice' | 'knownAccount' | 'noteOrder' | 'streamOpen'
  > & {
    readonly known: Pick<KnownPositions, 'lastRead' | 'readFailingSince' | 'onChange' | 'lastFill'>;
  };
  /**
   * The kill switch's barrier: raised the moment a kill switch starts, down only when the trader
   * re-arms (docs/contract.md §Kill switch).
   */
  readonly barrier?: Pick<KillBarrier, 'engage' | 'rearm' | 'state'>;
  readonly orders: Pick<OrderService, 'place' | 'placements'>;
  readonly findInstrument: (exchange: Instrument['exchange'], tradingsymbol: string) => Promise<Instrument | undefined>;
  /** Told the whole run at every change (`safety.progress`). */
  readonly onProgress?: (run: SafetyRun) => void;
  readonly clock?: Clock;
  readonly timings?: Partial<SafetyTimings>;
  readonly newId?: () => string;
  /**
   * True on an account without market data whose broker protects MARKET orders itself (Kite's
   * personal plan: docs/kite.md §The plan): there is no last price to price a LIMIT exit from, so
   * exits go as MARKET orders, which Kite turns into LIMITs within the profile's protection.
   */
  readonly exitAtMarket?: () => boolean;
}

/** Kinds after which a retry cannot help: the broker refused the request itself. */
const DEFINITIVE = new Set(['bad_request', 'forbidden', 'unauthorized']);

/**
 * The broker's "not now" (a 429 it answered): nothing was done, and it says when to come back.
 * Not the client's own count of a day's cap (`LimitReached`), which no wait within the day helps.
 */
function throttled(err: unknown): err is AppError {
  return err instanceof AppError && err.info.kind === 'rate_limited' && !(err instanceof LimitReached);
}

/**
 * The kill switch and its smaller siblings (docs/contract.md §Kill switch): cancels working
 * orders (AMO REQ RECEIVED and TRIGGER PENDING included) and, when asked, exits open positions
 * with market-protected LIMIT orders placed through the exactly-once order service. Each order
 * is tried a few times; a failure never stops the others; at the end the broker is read back and
 * whatever is still open is listed. An exit whose answer is "not yet confirmed" is waited for and
 * never sent again while it may exist.
 *
 * Under throttling it uses every request the broker allows: many cancels are handed to the
 * client's limiter at once (it paces them at the broker's published rate, cancels first), and
 * a 429 is waited out for as long as the broker asks — never counted as a failed try, as often
 * as it comes — until every order is settled or the trader stops the run. What it waits for is
 * in the run's headline (docs/contract.md §Kill switch).
 *
 * It never waits for the panels' reads: the order book, positions and prices come from main's
 * own view where that is fresh, and a read it must make goes in the order-action lane, so a 429
 * pause on the polls cannot hold a kill switch back (docs/contract.md §Kill switch).
 */
export class SafetyRunner {
  readonly #deps: SafetyRunnerDeps;
  readonly #clock: Clock;
  readonly #t: SafetyTimings;
  readonly #newId: () => string;
  #run: SafetyRun | null = null;
  #active: Promise<void> | null = null;
  /** A kill switch asked for while another run held the runner: it runs when that one ends. */
  #queued: SafetyRun | null = null;
  /** The last few runs started, each resolving to how it ended. */
  readonly #endings = new Map<string, Promise<SafetyRun>>();
  /** Aborted by the trader's Stop: nothing more is sent, waits end. */
  #stop = new AbortController();
  /** The cancels' progress, told in the headline while they run (null outside that phase). */
  #cancelling: { total: number; throttledUntil: number | null; retryAfterMs: number } | null = null;

  public constructor(deps: SafetyRunnerDeps) {
    this.#deps = deps;
    this.#clock = deps.clock ?? systemClock;
    this.#t = { ...DEFAULT_SAFETY_TIMINGS, ...deps.timings };
    this.#newId = deps.newId ?? (() => `sr${randomBytes(6).toString('hex')}`);
  }

  /** The current or last run; a queued kill switch while it waits (what the trader asked for). */
  public current(): SafetyRun | null {
    const run = this.#queued ?? this.#run;
    return run ? structuredClone(run) : null;
  }

  /**
   * Starts a run and answers with its first state. A kill switch asked for while another kind of
   * run holds the runner (the square-off's, an exit) raises its barrier at once and is queued: it
   * runs as soon as that run ends (docs/contract.md §Kill switch). Anything else while a run is in
   * progress or a kill switch is queued is a `conflict`: never two runs at once.
   */
  public start(action: SafetyAction): SafetyRun {
    const busy = this.#active !== null;
    if (busy && (action.kind !== 'killSwitch' || this.#queued || this.#run?.action.kind === 'killSwitch'))
      throw brokerError('conflict', 'A safety run is already in progress: wait for it to finish');
    const run: SafetyRun = {
      id: this.#newId(),
      action,
      startedAt: this.#clock.now(),
      finishedAt: null,
      state: 'running',
      steps: [],
      stillOpen: null,
      detail: 'Reading the order book…',
      positionsUnreadableSince: null,
      barrierUp: false,
    };
    // The barrier first, before anything is awaited: from this moment nothing that adds risk
    // leaves the desk, and what was on its way becomes one of the run's steps.
    if (action.kind === 'killSwitch' && this.#deps.barrier) {
      this.#deps.barrier.engage(run.id);
      run.barrierUp = true;
    }
    if (busy) {
      this.#queued = run;
      run.detail = this.#queuedWords();
      this.#emit();
      return structuredClone(run);
    }
    this.#launch(run);
    return structuredClone(run);
  }

  /** Runs `run` now (nothing else is running). */
  #launch(run: SafetyRun): void {
    this.#run = run;
    this.#stop = new AbortController();
    // Every cancel waiting for the limiter and every wait listens to the Stop: no leak, many at once.
    setMaxListeners(0, this.#stop.signal);
    this.#cancelling = null;
    run.detail = 'Reading the order book…';
    const active = this.#execute(run)
      .catch(() => this.#finish(run, null, 'The run stopped on an unexpected error: check the order book'))
      .finally(() => {
        this.#active = null;
        const next = this.#queued;
        this.#queued = null;
        // The queued kill switch goes the moment the run before it has ended, before anything else
        // can start; the ended run is told first (its pushes showed the queued one meanwhile).
        if (next) {
          this.#deps.onProgress?.(structuredClone(run));
          this.#launch(next);
        }
      });
    this.#active = active;
    this.#endings.set(
      run.id,
      active.then(() => structuredClone(run)),
    );
    // Only the last few are kept: a caller asks about a run it has just started.
    for (const id of [...this.#endings.keys()].slice(0, -4)) this.#endings.delete(id);
    this.#emit();
  }

  /** The queued kill switch's headline: what it waits for, and that the barrier is already up. */
  #queuedWords(): string {
    const before = this.#run;
    const what = before?.action.kind === 'squareOff' ? 'the square-off running now' : 'the run in progress';
    const now = before?.detail ? ` (${before.detail})` : '';
    return `Queued: the kill switch runs as soon as ${what} ends${now}. The barrier is already up: nothing that adds risk is sent`;
  }

  /**
   * Run `runId` as it ended (resolves once it has), or null when it is not one of the last few
   * started. A queued kill switch may start the moment it ends, so `current()` is no longer it.
   */
  public async ended(runId: string): Promise<SafetyRun | null> {
    return (await this.#endings.get(runId)) ?? null;
  }

  /**
   * The trader's Stop: from now on nothing more is sent (a cancel still waiting for the client's
   * limits stays unsent), every wait ends, no exit is placed; requests already sent are answered
   * as usual, and the run ends with its read-back of what is still open. Answers the run as it
   * stands (null when there has been none); a run already over is left as it was.
   */
  public stop(): SafetyRun | null {
    const queued = this.#queued;
    if (queued) {
      // The kill switch waiting its turn is what the trader sees and stops: it never runs (it has
      // sent nothing); its barrier stays up until the re-arm. The run before it goes on.
      this.#queued = null;
      queued.state = 'incomplete';
      queued.finishedAt = this.#clock.now();
      queued.detail = 'Stopped before it began: the kill switch sent nothing. The barrier stays up until you re-arm';
      this.#deps.onProgress?.(structuredClone(queued));
      return structuredClone(queued);
    }
    const run = this.#run;
    if (run && this.#active && !this.#stop.signal.aborted) {
      this.#stop.abort();
      run.detail = 'Stopping: nothing more is sent; waiting for the answers to requests already sent…';
      this.#emit();
    }
    return this.current();
  }

  /**
   * The trader's re-arm after a kill switch: orders that add risk may leave the desk again. Not
   * while a run is in progress (a `conflict`). Answers the last run, its barrier down.
   */
  public rearm(): SafetyRun | null {
    if (this.#active)
      throw brokerError(
        'conflict',
        'The kill switch is still running: wait for it to end, or stop it, before re-arming',
      );
    this.#deps.barrier?.rearm();
    if (this.#run) {
      this.#run.barrierUp = false;
      this.#emit();
    }
    return this.current();
  }

  /** Resolves when no run is in progress and none is queued. */
  public async idle(): Promise<void> {
    while (this.#active) await this.#active;
  }

  // ---------------------------------------------------------------- the run

  async #execute(run: SafetyRun): Promise<void> {
    const action = run.action;
    const orders = this.#deps.view?.workingOrders() ?? (await this.#bookNow(run));
    if (orders === null) {
      await this.#finish(run, null, 'The order book could not be read: nothing was cancelled');
      return;
    }
    for (const o of orders.filter((x) => isWorking(x.status) && orderInScope(action, x))) {
      run.steps.push(cancelStep(o));
    }
    // Placed moments ago, its report not in the book yet: a working order all the same.
    const listed = new Set(orders.map((o) => o.orderId));
    for (const p of this.#deps.orders.placements()) {
      if (
        p.state === 'placed' &&
        p.orderId !== null &&
        !listed.has(p.orderId) &&
        (p.status === null || isWorking(p.status)) &&
        orderInScope(action, p.order)
      )
        run.steps.push(placedStep(p, p.orderId));
    }
    // Intents on their way (inside their answer window, or held by the client's pacing, which
    // the barrier stops): each is waited for and, if it became an order, cancelled.
    const open = this.#deps.orders.placements().filter((p) => p.state === 'checking' && orderInScope(action, p.order));
    for (const p of open) run.steps.push(unconfirmedStep(p));
    this.#cancelling = { total: run.steps.length, throttledUntil: null, retryAfterMs: 0 };
    this.#cancelProgress();
    this.#emit();

    await pool(
      run.steps.filter((s) => s.kind === 'cancel'),
      this.#t.concurrency,
      (s) => this.#cancel(s),
    );
    await pool(
      run.steps.filter((s) => s.kind === 'unconfirmed'),
      this.#t.concurrency,
      (s) => this.#settleUnconfirmed(s),
    );
    this.#cancelling = null;

    const exits =
      action.kind === 'exitPositions' ||
      action.kind === 'squareOff' ||
      (action.kind === 'killSwitch' && action.exitPositions);
    if (exits && !this.#stopped()) await this.#exitPositions(run);
    await this.#finish(run, exits, null);
  }

  /**
   * Cancels one working order. A 429 is waited out as the broker asks, not counted; any other
   * failure is followed by a read of the order (it may have ended meanwhile) and counts as a
   * try, a few at most; a definitive refusal ends the step at once.
   */
  async #cancel(step: SafetyStep): Promise<void> {
    const orderId = step.orderId ?? '';
    let last = '';
    let tries = 0;
    while (tries < this.#t.attempts) {
      if (this.#stopped()) return this.#stoppedStep(step);
      tries += 1;
      this.#update(step, {
        state: 'working',
        attempts: tries,
        detail: tries === 1 ? 'Cancelling…' : `Retrying (try ${tries})…`,
      });
      try {
        const ack = await this.#deps.broker.cancelOrder(orderId, {
          rateLimits: 'answer',
          sendBy: this.#stop.signal,
        });
        if (ack.status === 'CANCELLED')
          return this.#update(step, { state: 'done', status: ack.status, detail: 'Cancelled' });
        const now = await this.#readOrder(orderId);
        if (now && this.#ended(step, now)) return;
        last = `the broker answered ${ack.status}`;
      } catch (err) {
        if (err instanceof SendTimePassed && this.#stopped()) return this.#stoppedStep(step);
        if (throttled(err)) {
          // The broker did nothing and said when to come back: not a failed try.
          tries -= 1;
          await this.#waitOut(step, err);
          continue;
        }
        last = messageOf(err);
        const now = await this.#readOrder(orderId);
        if (now && this.#ended(step, now)) return;
        if (err instanceof LimitReached || (err instanceof AppError && DEFINITIVE.has(err.info.kind))) break;
      }
      if (tries < this.#t.attempts) await this.#sleep(this.#delay(tries));
    }
    this.#update(step, {
      state: 'failed',
      detail: `Still open after ${plural(step.attempts, 'try', 'tries')}: ${last}`,
    });
  }

  /**
   * Waits out a 429 for as long as its Retry-After says (the client's limiter holds the cancel
   * lane as long; a 429 without one waits `rateLimitWaitMs`), saying so on the step and in the
   * headline. The trader's Stop ends the wait.
   */
  async #waitOut(step: SafetyStep, err: AppError): Promise<void> {
    const ms = err.info.retryAfterMs ?? this.#t.rateLimitWaitMs;
    const c = this.#cancelling;
    if (c) {
      c.throttledUntil = Math.max(c.throttledUntil ?? 0, this.#clock.now() + ms);
      c.retryAfterMs = ms;
    }
    this.#update(step, {
      detail: `The broker asked to wait ${seconds(ms)} (429): waiting, then trying again — not counted as a try`,
    });
    await this.#sleep(ms);
  }

  /** The headline while cancels run: how many are settled, and what the run is waiting for. */
  #cancelProgress(): void {
    const run = this.#run;
    const c = this.#cancelling;
    if (!run || !c || this.#stopped()) return;
    const settled = run.steps.filter(
      (s) => s.kind !== 'exit' && (s.state === 'done' || s.state === 'skipped' || s.state === 'failed'),
    ).length;
    const cancelled = run.steps.filter((s) => s.kind !== 'exit' && s.state === 'done').length;
    const head =
      settled === 0 ? `Cancelling ${plural(c.total, 'order')}…` : `Cancelling: ${cancelled} of ${c.total} cancelled…`;
    run.detail =
      c.throttledUntil !== null && c.throttledUntil > this.#clock.now()
        ? `${head} The broker is throttling (429): waiting ${seconds(c.retryAfterMs)} as it asks, then going on until every order is settled (Stop ends it)`
        : head;
  }

  /** A step the trader's Stop ended before the broker confirmed it (the read-back says what is open). */
  #stoppedStep(step: SafetyStep): void {
    this.#update(step, {
      state: 'failed',
      detail:
        step.attempts === 0 || step.kind === 'exit'
          ? 'Not sent: the run was stopped'
          : 'Stopped before the broker confirmed a cancel',
    });
  }

  #stopped(): boolean {
    return this.#stop.signal.aborted;
  }

  /** The clock's sleep, ended early by the trader's Stop. */
  async #sleep(ms: number): Promise<void> {
    const signal = this.#stop.signal;
    if (signal.aborted) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        signal.removeEventListener('abort', done);
        resolve();
      };
      signal.addEventListener('abort', done, { once: true });
      void this.#clock.sleep(ms).then(done);
    });
  }

  /** True (and the step settled) when the order is no longer working: cancelled, filled or rejected. */
  #ended(step: SafetyStep, order: Order): boolean {
    if (isWorking(order.status)) {
      step.status = order.status;
      return false;
    }
    if (order.status === 'CANCELLED') this.#update(step, { state: 'done', status: order.status, detail: 'Cancelled' });
    else {
      const why =
        order.status === 'COMPLETE' ? 'Filled before it could be cancelled' : `${order.status}: nothing to cancel`;
      this.#update(step, { state: 'skipped', status: order.status, detail: why });
    }
    return true;
  }

  /** A placement not yet confirmed when the run began: waited for; if it became a working order, that is cancelled. */
  async #settleUnconfirmed(step: SafetyStep): Promise<void> {
    const cid = step.clientOrderId ?? '';
    this.#update(step, { state: 'working', detail: 'Waiting for the broker to confirm it…' });
    const p = await this.#waitSettled(cid);
    if (!p || p.state === 'checking') {
      this.#update(step, { state: 'failed', detail: 'Still not confirmed: it may yet become an order' });
      return;
    }
    if (p.state !== 'placed' || !p.orderId) {
      this.#update(step, { state: 'skipped', detail: 'Never placed: nothing to cancel' });
      return;
    }
    this.#update(step, { orderId: p.orderId, status: p.status });
    await this.#cancel(step);
  }

  async #exitPositions(run: SafetyRun): Promise<void> {
    const action = run.action;
    run.detail = 'Reading positions…';
    this.#emit();
    // Sized from what main knows (a complete read plus the fills since) or a fresh read: each
    // exit only brings a position to flat (docs/contract.md §Kill switch).
    const positions = await this.#positionsNow(run, run.startedAt);
    if (positions === null) {
      run.detail = 'Positions could not be read: none was exited';
      this.#emit();
      return;
    }
    const toExit = positions.filter((p) => p.quantity !== 0 && positionInScope(action, p));
    if (toExit.length === 0) return;
    const atMarket = this.#deps.exitAtMarket?.() === true;
    // Without market data there is no price to ask for: the exits go at MARKET (exitAtMarket).
    const quotes = atMarket ? new Map<number, never>() : await this.#exitQuotes(toExit);
    const plans: Array<{ step: SafetyStep; order: OrderRequest | null; why: string }> = [];
    for (const p of toExit) {
      const instrument = await this.#deps.findInstrument(p.exchange, p.tradingsymbol).catch(() => undefined);
      const quote = quotes.get(p.instrumentToken);
      const side = p.quantity > 0 ? 'SELL' : 'BUY';
      const price = instrument && quote ? protectedPrice(side, quote, instrument.tickSize) : null;
      const why = !instrument
        ? 'Instrument not found'
        : price === null && !atMarket
          ? 'No last price: exit not placed'
          : '';
      for (const quantity of instrument ? freezeSlices(Math.abs(p.quantity), instrument) : [Math.abs(p.quantity)]) {
        const step: SafetyStep = {
          id: `x${plans.length + 1}`,
          kind: 'exit',
          exchange: p.exchange,
          tradingsymbol: p.tradingsymbol,
          product: p.product,
          transactionType: side,
          quantity,
          orderId: null,
          clientOrderId: null,
          status: null,
          state: 'pending',
          attempts: 0,
          detail:
            why ||
            (price === null ? `MARKET ${side} (the broker protects it)` : `LIMIT ${side} at ${price} (protected)`),
        };
        run.steps.push(step);
        const exit = {
          exchange: p.exchange,
          tradingsymbol: p.tradingsymbol,
          transactionType: side,
          quantity,
          product: p.product,
          validity: 'DAY',
        } as const;
        const order: OrderRequest | null =
          why !== ''
            ? null
            : price === null
              ? { ...exit, orderType: 'MARKET', price: null }
              : { ...exit, orderType: 'LIMIT', price };
        plans.push({ step, order, why });
      }
    }
    run.detail = `Exiting ${plural(toExit.length, 'position')}…`;
    this.#emit();
    await pool(plans, this.#t.concurrency, async ({ step, order, why }) => {
      if (!order) this.#update(step, { state: 'failed', detail: why });
      else if (this.#stopped()) this.#stoppedStep(step);
      else await this.#exit(run, step, order);
    });
  }

  /**
   * Places one exit through the exactly-once order service. A refusal created nothing, so it may
   * be tried again (under a new request id); a 429 is waited out and not counted; a "not yet
   * confirmed" is waited for and never sent again while it may exist.
   */
  async #exit(run: SafetyRun, step: SafetyStep, order: OrderRequest): Promise<void> {
    let last = '';
    let tries = 0;
    // Every send gets its own request id, 429s included: a refused one created nothing.
    let sends = 0;
    while (tries < this.#t.attempts) {
      if (this.#stopped()) return this.#stoppedStep(step);
      tries += 1;
      sends += 1;
      this.#update(step, {
        state: 'working',
        attempts: tries,
        detail: tries === 1 ? 'Placing the exit…' : `Placing the exit (try ${tries})…`,
      });
      try {
        const outcome = await this.#deps.orders.place(order, {
          requestId: `${run.id}-${step.id}-${sends}`,
          risk: 'exempt',
          barrier: 'exit',
        });
        if (outcome.state === 'placed') {
          this.#update(step, {
            state: 'done',
            orderId: outcome.orderId,
            clientOrderId: outcome.clientOrderId,
            status: outcome.status,
            detail: `Exit order ${outcome.orderId} placed${outcome.status ? ` (${outcome.status})` : ''}`,
          });
          return;
        }
        this.#update(step, {
          clientOrderId: outcome.clientOrderId,
          detail: 'Not yet confirmed — checking with the broker…',
        });
        const p = await this.#waitSettled(outcome.clientOrderId);
        if (p?.state === 'placed' && p.orderId) {
          this.#update(step, {
            state: 'done',
            orderId: p.orderId,
            status: p.status,
            detail: `Exit order ${p.orderId} placed${p.status ? ` (${p.status})` : ''}`,
          });
          return;
        }
        if (!p || p.state === 'checking' || p.state === 'needs_decision' || p.state === 'unverifiable') {
          this.#update(step, {
            state: 'failed',
            detail: `Not yet confirmed: exit ${outcome.clientOrderId} may still be placed — check the order book`,
          });
          return;
        }
        last = 'the broker confirmed it has no such order';
      } catch (err) {
        // Only a refusal is thrown: nothing was created.
        if (throttled(err)) {
          tries -= 1;
          this.#update(step, {
            detail: `The broker asked to wait ${seconds(err.info.retryAfterMs ?? this.#t.rateLimitWaitMs)} (429): waiting, then placing it — not counted as a try`,
          });
          await this.#sleep(err.info.retryAfterMs ?? this.#t.rateLimitWaitMs);
          continue;
        }
        last = messageOf(err);
        if (err instanceof LimitReached || (err instanceof AppError && DEFINITIVE.has(err.info.kind))) break;
      }
      if (tries < this.#t.attempts) await this.#sleep(this.#delay(tries));
    }
    // The order service's refusal already begins "Not placed:"; the step says it once.
    this.#update(step, { state: 'failed', detail: `Exit not placed: ${last.replace(/^Not placed: /, '')}` });
  }

  /**
   * The price each exit is protected from: the stream's fresh tick, else a quote read in the
   * order-action lane, else the price the positions were read with (an exit placed then may rest
   * unfilled if the market moved away; the read-back lists it still open).
   */
  async #exitQuotes(
    positions: readonly Held[],
  ): Promise<Map<number, Pick<MarketQuote, 'lastPrice' | 'upperCircuit' | 'lowerCircuit'>>> {
    const out = new Map<number, Pick<MarketQuote, 'lastPrice' | 'upperCircuit' | 'lowerCircuit'>>();
    const now = this.#clock.now();
    for (const p of positions) {
      // A tick, or a read or a fill as fresh as a tick the desk would show (FRESH_PRICE_MS), is
      // the last price without a quote: Kite allows one quote request a second (docs/kite.md
      // §Limits), and a quote asked for within a second of the last one waits out the rest.
      const age = p.priceAt === null ? Number.POSITIVE_INFINITY : now - p.priceAt;
      const price =
        this.#deps.view?.lastPrice(p.instrumentToken) ??
        (p.lastPrice > 0 && age >= 0 && age <= FRESH_PRICE_MS ? p.lastPrice : null);
      if (price !== null) out.set(p.instrumentToken, { lastPrice: price, upperCircuit: 0, lowerCircuit: 0 });
    }
    const missing = [...new Set(positions.map((p) => p.instrumentToken).filter((t) => !out.has(t)))];
    const quotes =
      missing.length > 0 ? await this.#readWithRetries(() => this.#deps.broker.getQuotes(missing, URGENT)) : [];
    for (const q of quotes ?? []) out.set(q.instrumentToken, q);
    for (const p of positions) {
      if (!out.has(p.instrumentToken) && p.lastPrice > 0)
        out.set(p.instrumentToken, { lastPrice: p.lastPrice, upperCircuit: 0, lowerCircuit: 0 });
    }
    return out;
  }

  // ---------------------------------------------------------------- the end

  /**
   * Reads the broker back (in the order-action lane) and lists what is still open; main's own
   * view stands in for a read that fails where it is fresh. The run ends `done` only when
   * nothing is open.
   */
  async #finish(run: SafetyRun, exits: boolean | null, failure: string | null): Promise<void> {
    const action = run.action;
    // The exits' fills reach main's book before its knowledge can say flat.
    if (exits) await this.#waitExitsSettled(run);
    const [read, held] = await Promise.all([
      this.#readWithRetries(() => this.#deps.broker.listOrders({}, URGENT)),
      exits ? this.#positionsNow(run, this.#clock.now()) : Promise.resolve([] as readonly Held[]),
    ]);
    for (const o of read ?? []) this.#deps.view?.noteOrder(o);
    const orders = read ?? this.#deps.view?.workingOrders() ?? null;
    // Not known: what main last knew is listed, and the run says since when it cannot know.
    const positions = held ?? this.#lastKnownHeld();
    const unknownSince = held === null ? (run.positionsUnreadableSince ?? this.#clock.now()) : null;
    const unconfirmed = this.#deps.orders
      .placements()
      .filter((p) => p.state === 'checking' && orderInScope(action, p.order))
      .map((p) => p.clientOrderId);
    const verified = orders !== null && held !== null;
    const stillOpen: StillOpen = {
      orders: (orders ?? this.#failedOrders(run))
        .filter((o) => isWorking(o.status) && orderInScope(action, o))
        .map((o) => ({
          orderId: o.orderId,
          exchange: o.exchange,
          tradingsymbol: o.tradingsymbol,
          transactionType: o.transactionType,
          pendingQuantity: o.pendingQuantity,
          status: o.status,
        })),
      positions: positions
        .filter((p) => p.quantity !== 0 && positionInScope(action, p))
        .map((p) => ({
          exchange: p.exchange,
          tradingsymbol: p.tradingsymbol,
          product: p.product,
          quantity: p.quantity,
        })),
      unconfirmed,
      verified,
      positionsUnknownSince: unknownSince,
    };
    const clear =
      verified &&
      stillOpen.orders.length === 0 &&
      stillOpen.positions.length === 0 &&
      unconfirmed.length === 0 &&
      run.steps.every((s) => s.state !== 'failed');
    run.stillOpen = stillOpen;
    run.state = clear ? 'done' : 'incomplete';
    run.finishedAt = this.#clock.now();
    run.detail = failure ?? `${this.#stopped() ? 'Stopped: ' : ''}${headline(run, this.#clock.now())}`;
    if (held !== null) run.positionsUnreadableSince = null;
    this.#emit();
  }

  /**
   * The positions as they are now: main's own knowledge where it is complete and as of
   * `notBefore` or later (a complete read plus the fills since), else a read in the order-action
   * lane. A 429 is waited out as the broker asks (capped at `maxRetryAfterMs` a wait), as often
   * as it comes, until the positions are known or the trader stops the run; meanwhile the run
   * says since when they have not been readable. Null when they cannot be known (the run was
   * stopped, or reads failed otherwise `readAttempts` times).
   */
  async #positionsNow(run: SafetyRun, notBefore: number): Promise<readonly Held[] | null> {
    let tries = 0;
    for (;;) {
      const known = this.#knownHeld(notBefore);
      if (known) return known;
      try {
        const read = await this.#deps.readPositions(URGENT);
        const at = this.#clock.now();
        return read.map((p) => heldOf(p, at));
      } catch (err) {
        const now = this.#clock.now();
        const failing = this.#deps.view?.known.readFailingSince() ?? now;
        run.positionsUnreadableSince = Math.min(run.positionsUnreadableSince ?? now, failing, now);
        // Stopped: the one read-back is all; nothing is waited for.
        if (this.#stopped()) return null;
        if (throttled(err)) {
          const ms = Math.min(err.info.retryAfterMs ?? this.#t.rateLimitWaitMs, this.#t.maxRetryAfterMs);
          run.detail = `${unknownWords(run.positionsUnreadableSince, now)} The broker asked to wait ${seconds(ms)} (429): reading them again then, until they are known (Stop ends it)`;
          this.#emit();
          await this.#sleepOrKnown(ms);
          continue;
        }
        tries += 1;
        if (tries >= this.#t.readAttempts) return null;
        await this.#sleep(this.#delay(tries));
      }
    }
  }

  /**
   * The order book read in the order-action lane when main's own is not fresh: a 429 is waited
   * out as the broker asks (capped at `maxRetryAfterMs` a wait), as often as it comes, until it
   * is read, main's book is fresh again, or the trader stops the run; any other failure is tried
   * `readAttempts` times. Null when it cannot be had.
   */
  async #bookNow(run: SafetyRun): Promise<readonly Order[] | null> {
    let tries = 0;
    for (;;) {
      try {
        return await this.#deps.broker.listOrders({}, URGENT);
      } catch (err) {
        if (this.#stopped()) return null;
        if (throttled(err)) {
          const ms = Math.min(err.info.retryAfterMs ?? this.#t.rateLimitWaitMs, this.#t.maxRetryAfterMs);
          run.detail = `The order book is not readable: the broker asked to wait ${seconds(ms)} (429); reading it again then (Stop ends it)`;
          this.#emit();
          await this.#sleepOrKnown(ms);
          const fresh = this.#deps.view?.workingOrders() ?? null;
          if (fresh) return fresh;
          continue;
        }
        tries += 1;
        if (tries >= this.#t.readAttempts) return null;
        await this.#sleep(this.#delay(tries));
      }
    }
  }

  /**
   * The clock's sleep, ended early by the trader's Stop or by a change in what main knows (a
   * read, a fill, the stream coming back), so knowledge that arrives during a long Retry-After
   * is used at once.
   */
  async #sleepOrKnown(ms: number): Promise<void> {
    const known = this.#deps.view?.known;
    if (!known) return this.#sleep(ms);
    let off: () => void = () => undefined;
    const changed = new Promise<void>((resolve) => (off = known.onChange(resolve)));
    try {
      await Promise.race([this.#sleep(ms), changed]);
    } finally {
      off();
    }
  }

  /** Every position from main's knowledge, when all of it is known as of `notBefore` or later; else null. */
  #knownHeld(notBefore: number): Held[] | null {
    const view = this.#deps.view;
    if (!view) return null;
    const account = view.knownAccount();
    if (!account.known || account.asOf === null || account.asOf < notBefore) return null;
    // Each position's price is what main learned of it last, on main's own clock: the last price
    // of the last positions read (when the read began), or the price of the latest fill main saw
    // on it (when it saw it) — a real trade moments ago, so an exit can be priced while quotes are
    // throttled too. The broker's order timestamps are never used: they may run on a market clock
    // of their own (the paper broker's simulated one does), and a cancel or modify moves them
    // without a trade, so the order changed last may carry an old average.
    const read = view.known.lastRead();
    const readPrices = new Map<string, number>();
    for (const p of read?.positions ?? []) if (p.lastPrice > 0) readPrices.set(keyOf(p), p.lastPrice);
    const priceOf = (key: PositionKey): { price: number; at: number } | null => {
      const fill = view.known.lastFill(key);
      const readPrice = readPrices.get(keyOf(key));
      const fromRead = read && readPrice !== undefined ? { price: readPrice, at: read.at } : null;
      if (fill && fill.price > 0 && (!fromRead || fill.seenAt >= fromRead.at))
        return { price: fill.price, at: fill.seenAt };
      return fromRead;
    };
    const out: Held[] = [];
    for (const p of account.positions) {
      if (!p.known) return null;
      const price = priceOf(p);
      out.push({
        exchange: p.exchange,
        tradingsymbol: p.tradingsymbol,
        product: p.product,
        instrumentToken: p.instrumentToken,
        quantity: p.quantity,
        lastPrice: price?.price ?? 0,
        priceAt: price?.at ?? null,
      });
    }
    return out;
  }

  /** What main last knew of the positions, when they cannot be known now (listed, never "nothing"). */
  #lastKnownHeld(): Held[] {
    const view = this.#deps.view;
    if (!view) return [];
    const out: Held[] = [];
    for (const p of view.knownAccount().positions) {
      if (p.known && p.quantity !== 0)
        out.push({
          ...keyParts(p),
          instrumentToken: p.instrumentToken,
          quantity: p.quantity,
          lastPrice: 0,
          priceAt: null,
        });
    }
    return out;
  }

  /**
   * While the stream is open, waits up to `settleWaitMs` for the exits placed to leave the
   * working states in main's book (their fills are pushed to it), so main's knowledge of the
   * positions includes them. Without the stream the read-back alone says.
   */
  async #waitExitsSettled(run: SafetyRun): Promise<void> {
    const view = this.#deps.view;
    const ids = run.steps
      .filter((s) => s.kind === 'exit' && s.state === 'done' && s.orderId !== null)
      .map((s) => s.orderId);
    if (!view || ids.length === 0 || !view.streamOpen()) return;
    const until = this.#clock.now() + this.#t.settleWaitMs;
    for (;;) {
      const book = new Map((view.orders() ?? []).map((o) => [o.orderId, o]));
      const settled = ids.every((id) => {
        const o = book.get(id ?? '');
        return o !== undefined && !isWorking(o.status);
      });
      if (settled || this.#stopped() || this.#clock.now() >= until) return;
      await this.#sleep(this.#t.settlePollMs);
    }
  }

  /** Without a read-back: the orders main failed to cancel, as last known. */
  #failedOrders(run: SafetyRun): Order[] {
    return run.steps
      .filter((s) => s.state === 'failed' && s.orderId !== null && s.transactionType !== null)
      .map(
        (s) =>
          ({
            orderId: s.orderId,
            exchange: s.exchange,
            tradingsymbol: s.tradingsymbol,
            transactionType: s.transactionType,
            pendingQuantity: s.quantity,
            status: s.status ?? 'OPEN',
            product: s.product,
          }) as Order,
      );
  }

  // ---------------------------------------------------------------- helpers

  /** The placement once it is settled, or as it stands when the wait ends (its time, or the trader's Stop). */
  async #waitSettled(clientOrderId: string): Promise<Placement | undefined> {
    const until = this.#clock.now() + this.#t.settleWaitMs;
    for (;;) {
      const p = this.#deps.orders.placements().find((x) => x.clientOrderId === clientOrderId);
      if (!p || p.state !== 'checking' || this.#clock.now() >= until || this.#stopped()) return p;
      await this.#sleep(this.#t.settlePollMs);
    }
  }

  /** The order as the broker says now; when it cannot be read, as main's fresh book has it (the stream's pushes). */
  async #readOrder(orderId: string): Promise<Order | null> {
    try {
      return await this.#deps.broker.getOrder(orderId, { urgent: true });
    } catch {
      return this.#deps.view?.orders()?.find((o) => o.orderId === orderId) ?? null;
    }
  }

  /**
   * A read tried `readAttempts` times; null when it cannot be had. A 429 asking to wait longer
   * than the next try's pause ends it at once: trying sooner only earns another 429, and each
   * caller has main's own view, or a wait of its own, to fall back on.
   */
  async #readWithRetries<T>(read: () => Promise<T>): Promise<T | null> {
    for (let attempt = 1; attempt <= this.#t.readAttempts; attempt++) {
      try {
        return await read();
      } catch (err) {
        const pause = this.#delay(attempt);
        if (throttled(err) && (err.info.retryAfterMs ?? this.#t.rateLimitWaitMs) > pause) return null;
        if (attempt < this.#t.readAttempts) await this.#sleep(pause);
      }
    }
    return null;
  }

  #delay(attempt: number): number {
    const d = this.#t.retryDelaysMs;
    return d[Math.min(attempt - 1, d.length - 1)] ?? 0;
  }

  #update(step: SafetyStep, change: Partial<SafetyStep>): void {
    Object.assign(step, change);
    this.#cancelProgress();
    this.#emit();
  }

  /**
   * Tells the run's progress. While a kill switch is queued, the trader is shown it (what they
   * asked for), its headline following the run it waits for.
   */
  #emit(): void {
    if (this.#queued) {
      this.#queued.detail = this.#queuedWords();
      this.#deps.onProgress?.(structuredClone(this.#queued));
      return;
    }
    if (this.#run) this.#deps.onProgress?.(structuredClone(this.#run));
  }
}

const URGENT: ReadOptions = { urgent: true };

/** A position as the run exits it: from a read, or from main's knowledge (then priced by a tick or a quote). */
interface Held {
  readonly exchange: Position['exchange'];
  readonly tradingsymbol: string;
  readonly product: Position['product'];
  readonly instrumentToken: number;
  readonly quantity: number;
  /** The price it was read with (0 when unknown). */
  readonly lastPrice: number;
  /** When main read that price or saw the fill it comes from (epoch ms; null when unknown). */
  readonly priceAt: number | null;
}

function heldOf(p: Position, at: number): Held {
  return {
    ...keyParts(p),
    instrumentToken: p.instrumentToken,
    quantity: p.quantity,
    lastPrice: p.lastPrice,
    priceAt: at,
  };
}

function keyParts(
  p: Pick<Position, 'exchange' | 'tradingsymbol' | 'product'>,
): Pick<Held, 'exchange' | 'tradingsymbol' | 'product'> {
  return { exchange: p.exchange, tradingsymbol: p.tradingsymbol, product: p.product };
}

function keyOf(p: Pick<Position, 'exchange' | 'tradingsymbol' | 'product'>): string {
  return `${p.exchange}:${p.tradingsymbol}:${p.product}`;
}

/** "Positions unknown: not readable for 42 s — check with your broker" */
function unknownWords(since: number, now: number): string {
  return `Positions unknown: not readable for ${Math.max(0, Math.round((now - since) / 1000))} s — check with your broker.`;
}

// ---------------------------------------------------------------- pure parts

/** Whether an order (or a placement's order) belongs to the run. */
export function orderInScope(
  action: SafetyAction,
  o: Pick<OrderRequest, 'exchange' | 'tradingsymbol' | 'product'>,
): boolean {
  switch (action.kind) {
    case 'killSwitch':
      return true;
    case 'cancelSymbol':
      return o.exchange === action.exchange && o.tradingsymbol === action.tradingsymbol;
    case 'exitPositions':
      return action.positions.some(
        (p) => p.exchange === o.exchange && p.tradingsymbol === o.tradingsymbol && p.product === o.product,
      );
    case 'squareOff':
      return o.product === 'MIS' && action.exchanges.includes(o.exchange);
  }
}

/** Whether a position is to be exited by the run. */
export function positionInScope(
  action: SafetyAction,
  p: Pick<Position, 'exchange' | 'tradingsymbol' | 'product'>,
): boolean {
  if (action.kind === 'cancelSymbol') return false;
  return orderInScope(action, p);
}

/**
 * An exit's LIMIT price: the last price moved by the protection towards a fill (up for a BUY,
 * down for a SELL), rounded onto the tick grid towards the last price (never beyond the
 * protection) and kept inside the day's circuit band.
 */
export function protectedPrice(
  side: 'BUY' | 'SELL',
  quote: Pick<MarketQuote, 'lastPrice' | 'upperCircuit' | 'lowerCircuit'>,
  tickSize: number,
): number | null {
  if (quote.lastPrice <= 0) return null;
  const tick = toUnits(tickSize);
  const raw = toUnits(quote.lastPrice * (1 + ((side === 'BUY' ? 1 : -1) * EXIT_PROTECTION_PCT) / 100));
  let units = side === 'BUY' ? Math.floor(raw / tick) * tick : Math.ceil(raw / tick) * tick;
  if (quote.upperCircuit > 0) units = Math.min(units, Math.floor(toUnits(quote.upperCircuit) / tick) * tick);
  if (quote.lowerCircuit > 0) units = Math.max(units, Math.ceil(toUnits(quote.lowerCircuit) / tick) * tick);
  return units > 0 ? fromUnits(units) : null;
}

function cancelStep(o: Order): SafetyStep {
  return {
    id: `c-${o.orderId}`,
    kind: 'cancel',
    exchange: o.exchange,
    tradingsymbol: o.tradingsymbol,
    product: o.product,
    transactionType: o.transactionType,
    quantity: o.pendingQuantity,
    orderId: o.orderId,
    clientOrderId: o.clientOrderId && /^[A-Za-z0-9_-]{1,36}$/.test(o.clientOrderId) ? o.clientOrderId : null,
    status: o.status,
    state: 'pending',
    attempts: 0,
    detail: 'Waiting',
  };
}

function placedStep(p: Placement, orderId: string): SafetyStep {
  return { ...unconfirmedStep(p), id: `c-${orderId}`, kind: 'cancel', orderId, status: p.status, detail: 'Waiting' };
}

function unconfirmedStep(p: Placement): SafetyStep {
  return {
    id: `u-${p.clientOrderId}`,
    kind: 'unconfirmed',
    exchange: p.order.exchange,
    tradingsymbol: p.order.tradingsymbol,
    product: p.order.product,
    transactionType: p.order.transactionType,
    quantity: p.order.quantity,
    orderId: null,
    clientOrderId: p.clientOrderId,
    status: null,
    state: 'pending',
    attempts: 0,
    detail: 'Not yet confirmed when the run began',
  };
}

/** The run's result in one line. */
function headline(run: SafetyRun, now: number): string {
  const count = (kind: SafetyStep['kind'][], state: SafetyStep['state']) =>
    run.steps.filter((s) => kind.includes(s.kind) && s.state === state).length;
  const cancels = run.steps.filter((s) => s.kind !== 'exit').length;
  const exits = run.steps.filter((s) => s.kind === 'exit').length;
  const parts = [
    cancels === 0
      ? 'No working orders'
      : `${count(['cancel', 'unconfirmed'], 'done')} of ${plural(cancels, 'order')} cancelled`,
  ];
  if (exits > 0) parts.push(`${count(['exit'], 'done')} of ${plural(exits, 'exit order')} placed`);
  const open = run.stillOpen;
  const left = open ? open.orders.length + open.positions.length + open.unconfirmed.length : 0;
  const unknown = open?.positionsUnknownSince ?? null;
  const tail =
    run.state === 'done'
      ? 'nothing is left open'
      : unknown !== null
        ? unknownWords(unknown, now)
        : open && !open.verified
          ? 'the broker could not be read back: check what is still open'
          : `${plural(left, 'item')} still open`;
  return `${parts.join(', ')} — ${tail}`;
}

/** A wait in words: "30 s", "1.5 s". */
function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

function messageOf(err: unknown): string {
  return err instanceof AppError ? err.info.message : 'unexpected error';
}

/** Runs `job` over `items` with at most `n` at once. */
async function pool<T>(items: readonly T[], n: number, job: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await job(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}

import { join } from 'node:path';
import type { StreamMode, Tick } from '@shared/domain/market';
import { isWorking, type OrderRequest } from '@shared/domain/order';
import type { Placement } from '@shared/domain/placement';
import type { SafetyRun } from '@shared/domain/safety-run';
import type { ConnectionState, SessionInfo, SessionVersion } from '@shared/domain/session';
import type { DriftStatus } from '@shared/domain/drift';
import type { BrokerUsage } from '@shared/domain/usage';
import type { Position } from '@shared/domain/portfolio';
import type { BrokerAdapter } from '../broker/adapter';
import type { Broker, BrokerLimits, BrokerStream, Credentials, ReadOptions } from '../broker/broker';
import { DeskView } from './desk-view';
import { KillBarrier } from './safety/kill-barrier';
import { WindowPacer } from '../broker/http/window-pacer';
import { istDate, istDayStart } from '@shared/lib/ist-time';
import { DEFAULT_TIMEOUTS, HttpClient } from '../broker/http/http-client';
import { paceUnder, TokenBucket, type RateLimit } from '../broker/http/token-bucket';
import { RestTransport, type TransportStats } from '../broker/rest/rest-transport';
import type { CoreSeams } from './core-seams';
import { GttService } from './gtt/gtt-service';
import { InstrumentCatalog } from './instruments/instrument-catalog';
import { IntentsLedger } from './ledger/intents-ledger';
import { LifecycleTimeline } from './orders/lifecycle-timeline';
import { OrderModifier } from './orders/order-modifier';
import { OrderActions } from './orders/order-actions';
import { OrderBook, type PushedDelta } from './orders/order-book';
import { OrderService } from './orders/order-service';
import { RiskGuard } from './risk/risk-guard';
import { MtmGuard } from './risk/mtm-guard';
import type { MtmStatus, MtmTrigger } from '@shared/domain/mtm';
import { SafetyRunner } from './safety/safety-runner';
import type { SecretVault, VaultWrite } from './session/secret-vault';
import { SessionManager, type SessionTarget } from './session/session-manager';
import type { SessionVersions } from './session/session-versions';
import { UsageMeter } from './usage/usage-meter';
import { systemClock } from './clock';
import { DriftMonitor, systemTimer } from './drift/drift-monitor';
import { newClientOrderId } from './orders/client-order-id';
import type { Bracket } from '@shared/domain/bracket';
import { BracketJournal } from './brackets/bracket-journal';
import { BracketManager } from './brackets/bracket-manager';
import { VolumeProfile } from './market/volume-profile';

/** What the core tells the outside world (the app's event hub, or a bench's counters). */
export interface TradingCoreEvents {
  onSession?(info: SessionInfo): void;
  /** `version` orders the expiry among the session's other facts (docs/session.md §Session facts are ordered by main). */
  onSessionExpired?(reason: string, version: SessionVersion): void;
  onConnection?(state: ConnectionState): void;
  /** The order book changed by a push: the delta for the page (docs/live-data.md §The order book in main). */
  onOrdersChanged?(delta: PushedDelta): void;
  onTick?(tick: Tick): void;
  /** The unconfirmed placements (and recent settlements) changed: the whole list, newest first. */
  onPlacements?(placements: Placement[]): void;
  /** The request meter's figures changed (at most once a second). */
  onUsage?(usage: BrokerUsage): void;
  /** The day's loss reached the risk guard's limit on this IST date, for this profile (docs/contract.md §Risk guard). */
  onLossReached?(profileKey: string, istDate: string): void;
  /** A safety run (kill switch, cancel all, exit) moved on: the whole run (docs/contract.md §Kill switch). */
  onSafety?(run: SafetyRun): void;
  /** The drift alarm's status changed: a check began or ended, a finding was raised, resolved or acknowledged (docs/contract.md §Drift alarm). */
  onDrift?(status: DriftStatus): void;
  /** A bracket or trailing stop changed: the whole list (docs/brackets.md). */
  onBrackets?(brackets: Bracket[]): void;
  /** The instruments whose ticks main's trailing stops need (the app subscribes them as main's own). */
  onBracketWatch?(tokens: ReadonlySet<number>): void;
  /** The MTM stop and target's status changed (docs/contract.md §Risk guard). */
  onMtm?(status: MtmStatus): void;
  /** The instruments whose ticks the day's MTM needs (the app subscribes them as main's own). */
  onMtmWatch?(tokens: ReadonlySet<number>): void;
  /** The day's MTM trigger ran its kill switch (null: the levels were saved afresh), for this profile. */
  onMtmTrigger?(profileKey: string, trigger: MtmTrigger | null): void;
}

/** Everything needed to trade with one broker account: what the app gives. */
export interface TradingCoreOptions {
  /**
   * The broker's root: `http://host:port/v1` of a broker speaking docs/api.md, a Kite Connect root
   * (`https://api.kite.trade`, the paper broker's `http://127.0.0.1:P/kite`)…
   */
  readonly baseUrl: string;
  /** The adapter `baseUrl` is spoken through, from the app's broker registry (docs/brokers.md §Broker adapters). */
  readonly adapter: BrokerAdapter;
  /** Every call to the broker leaves over IPv4 only (docs/kite.md §Static IP). */
  readonly ipv4Only?: boolean;
  readonly target: SessionTarget;
  readonly credentials: Credentials;
  readonly vault: SecretVault;
  /** Folder of the intents ledger (one file per account). */
  readonly dataDir: string;
  readonly events?: TradingCoreEvents;
  /**
   * Numbers the session's changes; the app shares one across the cores it swaps in at login
   * (docs/session.md §Session facts are ordered by main). Default: this core's own.
   */
  readonly sessionVersions?: SessionVersions;
  /**
   * Resolves once the main window's first screen is drawn: the drift alarm's login check waits for
   * it (docs/live-data.md §The first screen first). Default: the check runs at login.
   */
  readonly firstScreen?: Promise<void>;
}

/** The client-side rate before the broker has published its limits: a margin under the documented 10/s, burst 20. */
export const DEFAULT_CLIENT_RATE: RateLimit = { perSecond: 8, burst: 16 };

/** Placements alone, likewise: a margin under the documented order limit (10/s, burst 10). */
export const DEFAULT_PLACEMENT_RATE: RateLimit = { perSecond: 8, burst: 8 };

/**
 * The trading core for one broker account, wired: HTTP pool → transport (token, limits,
 * retries) → REST adapter → session, instruments, exactly-once orders, stream.
 *
 * The app builds one per active profile and the load driver builds one the same way, so the
 * benchmark measures the code the trader runs, not a copy.
 */
export class TradingCore {
  public readonly broker: Broker;
  public readonly session: SessionManager;
  public readonly orders: OrderService;
  /** Modifications: validated in main, only what changes, never blindly repeated. */
  public readonly modifier: OrderModifier;
  /** Modify and cancel with the three honest answers (docs/contract.md §Modify and cancel answer honestly). */
  public readonly actions: OrderActions;
  public readonly catalog: InstrumentCatalog;
  /** The trader's risk limits, applied before an order is journaled (docs/contract.md §Risk guard). */
  public readonly risk: RiskGuard;
  /** The kill switch, "cancel all" of a symbol and "exit" of positions (docs/contract.md §Kill switch). */
  public readonly safety: SafetyRunner;
  /** The kill switch's barrier: nothing that adds risk leaves the desk until the trader re-arms (docs/contract.md §Kill switch). */
  public readonly barrier: KillBarrier;
  /** The reconciliation drift alarm: main's view against the broker's (docs/contract.md §Drift alarm). */
  public readonly drift: DriftMonitor;
  /** The account's MTM stop and target: the kill switch when a level is hit (docs/contract.md §Risk guard). */
  public readonly mtm: MtmGuard;
  /** GTT orders: rules in main, created once, honest answers (docs/gtt.md). */
  public readonly gtt: GttService;
  /** Brackets and trailing stops, kept by main (docs/brackets.md). */
  public readonly brackets: BracketManager;
  /** Volume traded at each price, from every tick (docs/ladder.md §Volume at price). */
  public readonly volume = new VolumeProfile();
  public readonly timeline = new LifecycleTimeline();
  /** The last streamed price per instrument and when it came (the risk guard's price). */
  readonly #lastTicks = new Map<number, { readonly price: number; readonly at: number }>();
  /** Every order of the session, fed by the stream and by reads (docs/live-data.md §The order book in main). */
  public readonly book: OrderBook;
  /** Main's own book, positions and ticks where fresh: what safety actions and the guard use first. */
  public readonly view: DeskView;
  readonly #transport: RestTransport;
  readonly #meter: UsageMeter;
  readonly #ledger: IntentsLedger;
  readonly #bracketJournal: BracketJournal;
  readonly #options: TradingCoreOptions;
  readonly #seams: CoreSeams;
  #stream: BrokerStream | null = null;
  #connection: ConnectionState = { rest: 'up', stream: 'closed', detail: null };
  #subscriptions: ReadonlySet<number> = new Set();
  #modes: ReadonlyMap<number, StreamMode> = new Map();
  #recovery: Promise<void> = Promise.resolve();
  #bracketRecovery: Promise<void> = Promise.resolve();
  /** Safety runs whose brackets were stood down already. */
  readonly #stoodDown = new Set<string>();

  private constructor(
    options: TradingCoreOptions,
    seams: CoreSeams,
    ledger: IntentsLedger,
    bracketJournal: BracketJournal,
  ) {
    this.#options = options;
    this.#seams = seams;
    this.#ledger = ledger;
    this.#bracketJournal = bracketJournal;
    const ev = options.events ?? {};
    this.session = new SessionManager(
      options.target,
      options.vault,
      {
        onChanged: (info) => ev.onSession?.(info),
        onExpired: (reason, version) => {
          this.drift.stop();
          void this.#stopStream();
          ev.onSessionExpired?.(reason, version);
        },
      },
      options.sessionVersions,
    );
    const rate = seams.rate === undefined ? DEFAULT_CLIENT_RATE : seams.rate;
    const bucket = rate ? new TokenBucket(rate) : null;
    // Off with the general bucket (tests and the bench turn client limits off together).
    const placementBucket = rate
      ? new TokenBucket(seams.placementRate ?? DEFAULT_PLACEMENT_RATE, undefined, { reserves: false })
      : null;
    const meter = new UsageMeter({ broker: options.target.label, publish: (usage) => ev.onUsage?.(usage) });
    this.#meter = meter;
    const http = new HttpClient(options.baseUrl, seams.timeouts ?? DEFAULT_TIMEOUTS, seams.connections ?? 16, {
      ...(options.ipv4Only === true ? { family: 4 as const } : {}),
      ...(seams.lookup ? { lookup: seams.lookup } : {}),
    });
    this.#transport = new RestTransport(http, this.session, bucket, {
      onSent: () => meter.sent(),
      ...(seams.readBackoff ? { backoff: seams.readBackoff } : {}),
      ...(seams.readBudgetMs !== undefined ? { readBudgetMs: seams.readBudgetMs } : {}),
      ...(seams.rto ? { rto: seams.rto } : {}),
      pauseAllOnRetryAfter: seams.pauseAllOnRetryAfter ?? true,
      placementBucket,
      onHealth: (rest, detail) => this.#setConnection({ rest, detail }),
      ...options.adapter.transport?.(options.credentials),
    });
    this.broker = options.adapter.connect({
      baseUrl: options.baseUrl,
      label: options.target.label,
      credentials: options.credentials,
      auth: this.session,
      transport: this.#transport,
    });
    // The client's pace follows what the broker publishes, unless a pace was given.
    let windowsPaced = false;
    const applyLimits = (limits: BrokerLimits): void => {
      // Where order writes count against every request's limit (no order windows: docs/api.md
      // §Limits), cancels may use the whole published rate; the rest keep 80% of it.
      if (seams.rate === undefined)
        bucket?.resize(paceUnder(limits.requests), limits.orderWindows ? undefined : limits.requests.perSecond);
      if (seams.placementRate === undefined && limits.placements) placementBucket?.resize(paceUnder(limits.placements));
      if (placementBucket && seams.placementRate === undefined && limits.orderWindows && !windowsPaced) {
        windowsPaced = true;
        this.#transport.usePlacementPacer(orderWindowPacer(limits.orderWindows, seams.onOrderWrite));
      }
      meter.setLimits(limits, bucket?.limit ?? null);
    };
    applyLimits(this.broker.limits());
    this.broker.onLimits(applyLimits);
    this.session.attach(this.broker);
    this.catalog = new InstrumentCatalog(this.broker);
    ({ book: this.book, view: this.view } = this.#liveView(ev));
    this.barrier = this.#killBarrier();
    this.risk = this.#riskGuard(ev);
    this.drift = this.#driftMonitor(ev, ledger);
    ({
      orders: this.orders,
      modifier: this.modifier,
      actions: this.actions,
      gtt: this.gtt,
    } = this.#orderPath(ev, ledger));
    this.brackets = this.#protection(ev, bracketJournal);
    ({ safety: this.safety, mtm: this.mtm } = this.#safetyNet(ev));
    // Every change of what main knows of the positions is measured, like every tick.
    this.view.known.onChange(() => this.mtm.evaluate());
  }

  /** The live view: every order of the session (stream and reads) and main's own view of the account. */
  #liveView(ev: TradingCoreEvents): { book: OrderBook; view: DeskView } {
    const book = new OrderBook(this.broker, {
      onPush: (delta) => ev.onOrdersChanged?.(delta),
      // Every order main's book takes — a read or the stream — may be an intent's that main
      // still checks, or watches after "not found" (docs/money-path.md §After the landing horizon).
      onTake: (order) => {
        this.orders.noticeOrder(order);
        this.view.noteOrder(order);
        this.brackets.onOrder(order);
      },
    });
    const view = new DeskView({
      book,
      streamOpen: () => this.#connection.stream === 'open',
      lastTick: (token) => this.#lastTicks.get(token),
      now: Date.now,
    });
    return { book, view };
  }

  /** The safety net's barrier: what is already on its way to reduce a position counts against the kill switch's. */
  #killBarrier(): KillBarrier {
    return new KillBarrier({
      knownPosition: (key) => this.view.knownPosition(key),
      reducingOnTheWay: (key, side, self) => {
        const same = (o: Pick<OrderRequest, 'exchange' | 'tradingsymbol' | 'product' | 'transactionType'>): boolean =>
          o.exchange === key.exchange &&
          o.tradingsymbol === key.tradingsymbol &&
          o.product === key.product &&
          o.transactionType === side;
        let qty = 0;
        for (const o of this.book.orders()) if (isWorking(o.status) && same(o)) qty += o.pendingQuantity;
        for (const p of this.orders.placements())
          if (p.state === 'checking' && p.clientOrderId !== self && same(p.order)) qty += p.order.quantity;
        return qty;
      },
      now: Date.now,
    });
  }

  /** The risk guard, priced from main's view and the streamed ticks. */
  #riskGuard(ev: TradingCoreEvents): RiskGuard {
    const seams = this.#seams;
    return new RiskGuard({
      broker: this.broker,
      readPositions: (o) => this.readPositions(o),
      view: this.view,
      clock: seams.orderClock ?? systemClock,
      marketData: () => this.session.info().marketData ?? 'live',
      pending: () => this.orders.pendingOrders(),
      onLossReached: (date) => ev.onLossReached?.(this.#options.target.vaultKey, date),
    });
  }

  /** The drift alarm, told of every reference this desk journals. */
  #driftMonitor(ev: TradingCoreEvents, ledger: IntentsLedger): DriftMonitor {
    const seams = this.#seams;
    const driftSeam = seams.drift || {};
    const drift = new DriftMonitor({
      broker: this.broker,
      desk: {
        // Main's book brought up to date first (a 304 when idle): what it holds is what main has seen.
        beforeCheck: () => this.book.sync(),
        seenFilled: (orderId) => this.book.order(orderId)?.filledQuantity,
        earlierReference: isDeskReference,
      },
      now: Date.now,
      setTimer: driftSeam.setTimer ?? systemTimer,
      onChange: (status) => ev.onDrift?.(status),
      ...(this.#options.firstScreen ? { firstScreen: this.#options.firstScreen } : {}),
      ...(driftSeam.everyMs !== undefined ? { everyMs: driftSeam.everyMs } : {}),
      ...(driftSeam.confirmAfterMs !== undefined ? { confirmAfterMs: driftSeam.confirmAfterMs } : {}),
    });
    // Intents an earlier run left open are this desk's too.
    for (const intent of ledger.unresolved()) drift.journaled(intent.clientOrderId);
    return drift;
  }

  /** The order path: exactly-once placement through the ledger, modify and cancel, GTTs. */
  #orderPath(
    ev: TradingCoreEvents,
    ledger: IntentsLedger,
  ): { orders: OrderService; modifier: OrderModifier; actions: OrderActions; gtt: GttService } {
    const seams = this.#seams;
    const drift = this.drift;
    const newId = seams.newClientOrderId ?? newClientOrderId;
    const orders = new OrderService({
      guard: this.risk,
      broker: this.broker,
      ledger,
      catalog: this.catalog,
      timeline: this.timeline,
      ...(seams.placementTimings ? { timings: seams.placementTimings } : {}),
      newId,
      onReference: (id) => drift.journaled(id),
      onPlaced: (p) =>
        drift.placed({
          clientOrderId: p.clientOrderId,
          orderId: p.orderId,
          exchange: p.order.exchange,
          tradingsymbol: p.order.tradingsymbol,
          at: p.at,
        }),
      onAbsent: (ref) => drift.absent(ref),
      ...(seams.orderClock ? { clock: seams.orderClock } : {}),
      onPlacements: (list) => ev.onPlacements?.(list),
      barrier: this.barrier,
    });
    // An order main placed or holds: the broker's reads not showing it yet means its book trails.
    const knownOrder = (id: string): boolean => this.book.order(id) !== undefined || orders.knowsOrder(id);
    const modifier = new OrderModifier({
      broker: this.broker,
      catalog: this.catalog,
      guard: this.risk,
      knownOrder,
      ...(seams.modifyTimings ? { timings: seams.modifyTimings } : {}),
    });
    const actions = new OrderActions({
      broker: this.broker,
      modifier,
      knownOrder,
      seen: (id) => this.book.order(id),
      ...(seams.actionTimings ? { timings: seams.actionTimings } : {}),
    });
    const gtt = new GttService({
      broker: this.broker,
      ledger,
      guard: this.risk,
      barrier: this.barrier,
      find: (exchange, symbol) => this.catalog.find(exchange, symbol),
      lastPrice: async (token) => {
        const tick = this.#lastTicks.get(token);
        if (tick) return tick.price;
        const [q] = await this.broker.getQuotes([token]);
        return q?.lastPrice ?? 0;
      },
    });
    return { orders, modifier, actions, gtt };
  }

  /** Protection: brackets and trailing stops, kept by main from its own view of the position. */
  #protection(ev: TradingCoreEvents, journal: BracketJournal): BracketManager {
    const seams = this.#seams;
    return new BracketManager({
      orders: this.orders,
      modifier: this.modifier,
      broker: this.broker,
      find: (exchange, symbol) => this.catalog.find(exchange, symbol),
      guard: this.risk,
      lastPrice: async (token) => {
        const tick = this.#lastTicks.get(token);
        if (tick) return tick.price;
        const [q] = await this.broker.getQuotes([token], { urgent: true });
        return q?.lastPrice ?? null;
      },
      journal,
      syncBook: () => this.book.sync(),
      streamOpen: () => this.#connection.stream === 'open',
      // The position main knows (the last complete read plus the fills since): null, never 0, when not known.
      held: (key) => {
        const p = this.view.knownPosition(key);
        return p.known ? p.quantity : null;
      },
      workingOrders: () => this.view.workingOrders(),
      readPositions: () => this.readPositions({ urgent: true }),
      noteOrder: (order) => this.view.noteOrder(order),
      ...(seams.brackets?.everyMs !== undefined ? { everyMs: seams.brackets.everyMs } : {}),
      ...(seams.brackets?.onPoint ? { onPoint: seams.brackets.onPoint } : {}),
      ...(seams.orderClock ? { clock: seams.orderClock } : {}),
      onChange: (list) => ev.onBrackets?.(list),
      watch: (tokens) => ev.onBracketWatch?.(tokens),
    });
  }

  /** The safety net: kill switch, cancel all and exit runs (standing the brackets down), and the MTM guard. */
  #safetyNet(ev: TradingCoreEvents): { safety: SafetyRunner; mtm: MtmGuard } {
    const seams = this.#seams;
    const safety = new SafetyRunner({
      broker: this.broker,
      readPositions: (o) => this.readPositions(o),
      view: this.view,
      barrier: this.barrier,
      orders: this.orders,
      findInstrument: (exchange, symbol) => this.catalog.find(exchange, symbol),
      onProgress: (run) => {
        // A safety run is the trader saying "no more" to the brackets on what it cancels: they stand
        // down rather than place again the exits it cancels (docs/brackets.md §The controller).
        if (!this.#stoodDown.has(run.id)) {
          this.#stoodDown.add(run.id);
          this.brackets.standDown((b) => safetyCovers(run.action, b));
        }
        ev.onSafety?.(run);
      },
      // No last price to price a LIMIT exit from; Kite protects a MARKET one (docs/kite.md §The plan).
      exitAtMarket: () =>
        this.session.info().marketData === 'none' && this.session.info().marketProtection !== undefined,
      ...(seams.safetyTimings ? { timings: seams.safetyTimings } : {}),
    });
    const mtm = new MtmGuard({
      view: this.view,
      readPositions: () => this.readPositions({ urgent: true }),
      openingFunds: async () => (await this.broker.getFunds()).openingBalance,
      safety,
      now: () => (seams.mtmClock ?? systemClock).now(),
      setTimer: seams.mtmTimer ?? systemTimer,
      onChange: (status) => ev.onMtm?.(status),
      watch: (tokens) => ev.onMtmWatch?.(tokens),
      onTrigger: (trigger) => ev.onMtmTrigger?.(this.#options.target.vaultKey, trigger),
    });
    return { safety, mtm };
  }

  /**
   * Opens the account's ledger and builds the core (not yet logged in). The app gives no
   * `seams`; tests and benches do, through `electron/core/testing/core-fixture.ts`.
   */
  public static async create(options: TradingCoreOptions, seams: CoreSeams = {}): Promise<TradingCore> {
    const ledger = await IntentsLedger.open(
      join(options.dataDir, `intents-${safeName(options.target.vaultKey)}.jsonl`),
      {
        ...(seams.ledgerCompactAfter !== undefined ? { compactAfter: seams.ledgerCompactAfter } : {}),
        ...(seams.ledgerOnStep ? { onStep: seams.ledgerOnStep } : {}),
      },
    );
    const brackets = await BracketJournal.open(
      join(options.dataDir, `brackets-${safeName(options.target.vaultKey)}.jsonl`),
      seams.brackets?.onJournalStep ? { onStep: seams.brackets.onJournalStep } : {},
    );
    return new TradingCore(options, seams, ledger, brackets);
  }

  /**
   * Logs in and opens the stream. Intents a crash or quit left open are looked up in the
   * background (`recovery`): login does not wait for them, new placements do not wait for
   * them, and none of them is sent again without the trader's "Place again".
   */
  public async start(remember = false): Promise<VaultWrite> {
    const write = await this.session.login(this.#options.credentials, remember);
    this.catalog.reset();
    // If the broker refuses the new token at once, this background work may end the session
    // before the login's reply reaches the renderer: the reply and the expiry carry their
    // versions, so the renderer keeps the later (docs/session.md §Session facts are ordered
    // by main) instead of relying on which one main happens to send first.
    this.catalog.warm();
    // GTT creations and changes left in doubt are looked up beside the orders (docs/gtt.md §When the broker fails).
    this.#recovery = Promise.all([this.orders.recover(), this.gtt.recover()]).then(() => undefined);
    // After the order service listed the intents left open: a bracket's placement may be one.
    this.#bracketRecovery = this.brackets.recover();
    // A plan without market data has no ticker either (Kite's refuses it in an expired token's
    // words): the desk polls instead, and says why (docs/kite.md §The plan).
    if (this.session.info().marketData === 'none')
      this.#setConnection({
        stream: 'closed',
        detail: 'No market data on this Kite plan: orders and the account are polled',
      });
    else if (this.#seams.stream !== false) this.#startStream();
    if (this.#seams.drift !== false) this.drift.start();
    return write;
  }

  /**
   * Reads the positions from the broker; main's view keeps the read (docs/live-data.md §Main's
   * own view of the account). Every read of positions in main goes through here.
   */
  public async readPositions(options: ReadOptions = {}): Promise<readonly Position[]> {
    const at = Date.now();
    const rev = this.view.bookRev();
    let positions: readonly Position[];
    try {
      positions = await this.broker.listPositions(options);
    } catch (err) {
      this.view.known.noteReadFailed(at);
      throw err;
    }
    this.view.notePositions(positions, at, rev);
    return positions;
  }

  /** Resolves when every intent found open at start is settled or waiting for the trader. */
  public recovery(): Promise<void> {
    return this.#recovery;
  }

  /** Resolves when every bracket found running at start was read back and may act again. */
  public bracketRecovery(): Promise<void> {
    return this.#bracketRecovery;
  }

  /** What the transport did (requests, retries, 429s…), for tests and the bench. */
  public get stats(): Readonly<TransportStats> {
    return this.#transport.stats;
  }

  /** The desk's spending against the broker's request budget (the header's meter). */
  public usage(): BrokerUsage | null {
    return this.#meter.current();
  }

  /** The profile this core trades for (its vault key): names its ledger and its stored risk limits. */
  public get profileKey(): string {
    return this.#options.target.vaultKey;
  }

  /** The intents still open in the ledger. */
  public openIntents(): number {
    return this.#ledger.unresolved().length;
  }

  public connection(): ConnectionState {
    return this.#connection;
  }

  /** Replaces the instruments the stream delivers ticks for, and the modes other than `quote`. */
  public setSubscriptions(tokens: ReadonlySet<number>, modes: ReadonlyMap<number, StreamMode> = new Map()): void {
    this.#subscriptions = tokens;
    this.#modes = modes;
    this.#stream?.setSubscriptions(tokens, modes);
  }

  /** Logs out (wiping the token) and stops the stream. */
  public async logout(): Promise<void> {
    this.drift.stop();
    await this.#stopStream();
    await this.session.logout();
  }

  /** Stops everything and closes the ledger and the connection pool (without logging out). */
  public async close(): Promise<void> {
    this.drift.stop();
    this.mtm.close();
    this.#meter.close();
    this.brackets.close();
    this.orders.close();
    this.actions.close();
    await this.#stopStream();
    await this.#ledger.close();
    await this.#bracketJournal.close();
    await this.broker.close();
  }

  #startStream(): void {
    const ev = this.#options.events ?? {};
    const stream = this.broker.openStream({
      onOrder: (o) => {
        this.timeline.observe(o.orderId, o.status, Date.now());
        this.orders.noticeOrder(o);
        this.book.push(o);
      },
      onTick: (t) => {
        this.#lastTicks.set(t.instrumentToken, { price: t.lastPrice, at: Date.now() });
        this.volume.onTick(t);
        this.brackets.onTick(t);
        this.mtm.evaluate();
        ev.onTick?.(t);
      },
      onState: (state, detail) => {
        // What the stream missed while it was down is read in full, now: the page's first sync
        // (or its reconcile after the loss) then finds the book ready instead of waiting for it.
        if (state === 'open' && this.#connection.stream !== 'open') {
          this.book.reconnected();
          this.#warmBook();
          if (this.#seams.drift !== false) this.drift.streamOpened();
        }
        this.#setConnection({ stream: state, detail });
      },
    });
    this.#stream = stream;
    stream.setSubscriptions(this.#subscriptions, this.#modes);
    stream.start();
  }

  /**
   * Reads the book from the broker ahead of the page's first `orders.sync`, which shares the read
   * or finds it done (docs/live-data.md §The first screen first). A failure here is the page's
   * to see: its own sync reads again.
   */
  #warmBook(): void {
    this.book.warm().catch(() => undefined);
  }

  async #stopStream(): Promise<void> {
    const s = this.#stream;
    this.#stream = null;
    await s?.stop();
  }

  #setConnection(change: Partial<ConnectionState>): void {
    const next = { ...this.#connection, ...change };
    if (
      next.rest === this.#connection.rest &&
      next.stream === this.#connection.stream &&
      next.detail === this.#connection.detail
    )
      return;
    const streamChanged = next.stream !== this.#connection.stream;
    this.#connection = next;
    // Whether main's known positions are live follows the stream.
    if (streamChanged) this.view.known.noteStream();
    this.#options.events?.onConnection?.(next);
  }
}

/**
 * Order writes paced under a broker's calendar-window counts (docs/kite.md §Limits): the
 * per-second figure for cancels and 80% of it for the other writes in any 1,000 ms, each write
 * holding its place until 1,000 ms after its answer (so the windows stay under the count of
 * every calendar second, whatever the phase of the broker's clock and the network's delay:
 * docs/brokers.md §HTTP client, retries and limits), 95% of the minute's in any 60 s (and of the
 * half hour's in any 30 minutes, where the broker counts one: docs/upstox.md §Limits), and the
 * day's own figure per IST day where it counts one (reached: refused at once, nothing sent).
 */
function orderWindowPacer(w: NonNullable<BrokerLimits['orderWindows']>, onAdmit?: (at: number) => void): WindowPacer {
  const perDay = w.perDay;
  return new WindowPacer(
    [
      {
        limit: w.perSecond,
        ms: 1_000,
        cancelReserve: w.perSecond - Math.max(1, Math.floor(w.perSecond * 0.8)),
      },
      { limit: Math.max(1, Math.floor(w.perMinute * 0.95)), ms: 60_000 },
      ...(w.perHalfHour !== undefined ? [{ limit: Math.max(1, Math.floor(w.perHalfHour * 0.95)), ms: 1_800_000 }] : []),
    ],
    perDay === undefined
      ? null
      : {
          limit: perDay,
          dayOf: istDate,
          endOf: (at) => istDayStart(at) + 86_400_000,
          label: `The broker allows ${perDay.toLocaleString('en-IN')} orders a day`,
        },
    { now: () => performance.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) },
    Date.now,
    onAdmit,
    // After a Retry-After, the lane waits up to a quarter second for its window to be whole
    // rather than send a part the next 429 stalls (docs/brokers.md §HTTP client, retries and limits).
    { untilAnswered: true, wholeAfterPauseMs: 250 },
  );
}

/**
 * A reference in the form this desk issues (`client-order-id.ts`): an order carrying one that this
 * run did not journal was placed by an earlier run of Tradedesk, not outside it.
 */
function isDeskReference(clientOrderId: string): boolean {
  return /^td-[A-Za-z0-9_-]{24}$/.test(clientOrderId);
}

/** A vault key as a file-name part: letters, digits and dashes only. */
function safeName(key: string): string {
  return key.replace(/[^A-Za-z0-9-]+/g, '-').slice(0, 80);
}

/** Whether a safety run cancels the orders of a bracket's instrument (and product, for an exit). */
function safetyCovers(
  action: SafetyRun['action'],
  b: Pick<Bracket, 'exchange' | 'tradingsymbol' | 'product'>,
): boolean {
  if (action.kind === 'killSwitch') return true;
  if (action.kind === 'cancelSymbol') return action.exchange === b.exchange && action.tradingsymbol === b.tradingsymbol;
  if (action.kind === 'squareOff') return b.product === 'MIS' && action.exchanges.includes(b.exchange);
  return action.positions.some(
    (p) => p.exchange === b.exchange && p.tradingsymbol === b.tradingsymbol && p.product === b.product,
  );
}

import { z } from 'zod';
import { kilobytes, MAX_IMPORT_CSV_BYTES, utf8Bytes } from './limits';
import { AlertChange, AlertDraft, PriceAlert } from '../domain/alert';
import { Instrument, Exchange, IsoDate } from '../domain/instrument';
import { Candle, CandleInterval, MarketQuote, MarketStatus, OptionChain, StreamMode, Tick } from '../domain/market';
import {
  ClientOrderId,
  LifecycleHop,
  Order,
  OrderBookDelta,
  OrderChanges,
  OrderPage,
  OrderPageKey,
  OrderSyncAnswer,
  OrderEvent,
  OrderRequest,
  OrderStatus,
  Trade,
} from '../domain/order';
import { PlaceOutcome, Placement, PlacementRequestId } from '../domain/placement';
import { OrderActionOutcome, OrderActionState } from '../domain/order-action';
import { BasketMargin, Funds, Holding, OrderMargin, Position } from '../domain/portfolio';
import { Gtt, GttAck, GttChanges, GttId, GttPlaceOutcome, GttRequest } from '../domain/gtt';
import { RiskLimits, RiskState } from '../domain/risk';
import { SafetyRequest, SafetyRun } from '../domain/safety-run';
import { SquareOffSettings, SquareOffState } from '../domain/square-off';
import { MtmSettings, MtmState, MtmStatus } from '../domain/mtm';
import { DriftFindingId, DriftStatus } from '../domain/drift';
import { UpdateStatus } from '../domain/update';
import { BrokerProfile, ConnectionState, SessionInfo, SessionVersion } from '../domain/session';
import { BrokerDescriptor } from '../domain/broker-descriptor';
import { BrokerUsage } from '../domain/usage';
import { JournalImport, JournalRange, JournalTrade, JournalView, TradeNotes } from '../domain/journal';
import { Bracket, BracketId, BracketPlaced, BracketRequest } from '../domain/bracket';
import {
  DeskCommand,
  DeskPanel,
  DeskView,
  LinkGroup,
  PanelId,
  ScreenRect,
  DisplayId,
  WindowId,
  WorkspaceFile,
  WorkspaceLayouts,
  WorkspaceName,
  WorkspaceTabs,
} from '../domain/workstation';

/**
 * THE bridge contract: every renderer → main call and every main → renderer event.
 *
 * Main parses each request with `input` before a handler sees it (the renderer is untrusted);
 * the renderer parses each reply with `output` and each event with its schema. Types on both
 * sides come from here through `z.infer`; there is no second, hand-written copy. Adding a
 * channel is one entry here plus one handler; `register-handlers` makes a missing handler a
 * compile error.
 */

/**
 * An order id as brokers spell them (`260000000012`, `1914227164488687616`, `ord_AB-12`): letters,
 * digits, `_` and `-` only, so an id can never change the broker path it is sent in (`..` made
 * `DELETE /v1/orders/..` a `DELETE /v1/`).
 */
const BrokerOrderId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1–64 letters, digits, "_" or "-"');
const OrderId = z.object({ orderId: BrokerOrderId });

/** How far a renderer's click time may run ahead of main's clock (same machine: only jitter). */
const CLICK_CLOCK_SKEW_MS = 60_000;

/**
 * What every call that places something carries beside its order (`orders.place`,
 * `brackets.place`, and the GTT calls without a click time): one schema, so each placing channel
 * reads the click the same way (docs/contract.md §Exactly-once orders).
 */
const Placing = {
  /** Chosen by the renderer per click; a repeated call with it returns the first call's answer. */
  requestId: PlacementRequestId.optional(),
  /** When the trader clicked, for the lifecycle timeline (epoch ms, renderer clock). */
  clickedAt: z
    .number()
    .int()
    .positive()
    .refine((t) => t <= Date.now() + CLICK_CLOCK_SKEW_MS, 'is in the future: send the time of the click')
    .optional(),
  /**
   * The trader's "Place anyway" after a soft risk limit refused it: place this one despite its
   * soft limits (hard ones still refuse; docs/contract.md §Risk guard).
   */
  riskOverride: z.literal(true).optional(),
};

export const requests = {
  /** The session as the renderer may see it (never the token). */
  'session.status': { input: z.void(), output: SessionInfo },
  /**
   * The broker kinds main's registry offers, as data (docs/brokers.md §The broker registry): the
   * session dialog draws each kind's form from its fields, the ticket offers its products.
   */
  'brokers.list': { input: z.void(), output: z.array(BrokerDescriptor).max(32) },
  /**
   * Log in to a broker profile (judged by its kind's schema in main: a refusal names
   * `profile.<field>`); `remember` asks main to keep the token in the OS keychain.
   */
  'session.login': {
    input: z.strictObject({ profile: BrokerProfile, remember: z.boolean().optional() }),
    output: SessionInfo,
  },
  /**
   * Starts a login through the broker's own page, for a kind whose login is `login-window`
   * (docs/session.md §Login through the broker's page): main listens for the redirect on its
   * loopback callback and answers the page's URL. In Electron main opens it in its own sandboxed
   * window (`opened: true`); otherwise the renderer opens it in a new tab. The session follows
   * as `session.changed` once the redirect came back.
   */
  'session.loginPage': {
    input: z.strictObject({ profile: BrokerProfile, remember: z.boolean().optional() }),
    output: z.object({ loginUrl: z.url({ protocol: /^https?$/ }), opened: z.boolean() }),
  },
  /** Log out and wipe the token from memory and the keychain. */
  'session.logout': { input: z.void(), output: SessionInfo },
  /** The link to the broker (REST and stream). */
  'connection.status': { input: z.void(), output: ConnectionState },
  /** What the desk spends of the broker's request budget now; null while logged out. */
  'connection.usage': { input: z.void(), output: BrokerUsage.nullable() },

  /** The tradable universe, optionally of one exchange. */
  'instruments.list': {
    input: z.strictObject({ exchange: Exchange.optional() }).optional(),
    output: z.array(Instrument),
  },
  /** Candles of one instrument; the window defaults to enough history for the interval. */
  'candles.get': {
    input: z.strictObject({
      instrumentToken: z.number().int().positive(),
      interval: CandleInterval,
      from: z.iso.datetime({ offset: true }).optional(),
      to: z.iso.datetime({ offset: true }).optional(),
    }),
    output: z.array(Candle),
  },
  /**
   * Replace the set of instruments one part of the UI watches (`owner`: watchlist, ticket,
   * chart, positions, depth…); main subscribes the stream to the union of all owners' sets.
   * `mode` (default `quote`) is how much this owner's ticks carry: `full` adds the 5-level
   * depth (the depth ladder). A token several owners watch streams in the richest mode asked.
   * `last`: the last tick main holds of each instrument asked for, as a broker's subscribe
   * snapshot would be — main may already stream it for another owner or page, and then the broker
   * sends none (docs/live-data.md §The first screen first).
   */
  'market.subscribe': {
    input: z.strictObject({
      owner: z.string().min(1).max(32),
      tokens: z.array(z.number().int().positive()).max(500),
      mode: StreamMode.optional(),
    }),
    output: z.object({ subscribed: z.number().int().nonnegative(), last: z.array(Tick).max(500).optional() }),
  },
  /**
   * Full quotes (last price, day's OHLC, previous close and change, bid/ask with 5-level depth,
   * circuit limits, OI, session phase) of up to 500 instruments, in the order asked; an
   * instrument the broker does not know (an expired contract) is left out.
   */
  'quotes.get': {
    input: z.strictObject({ tokens: z.array(z.number().int().positive()).min(1).max(500) }),
    output: z.array(MarketQuote),
  },
  /** The market clock (simulated or wall) and each exchange's session phase with its next open and close. */
  'market.status': { input: z.void(), output: MarketStatus },
  /**
   * The option chain of one underlying (`NIFTY`, `RELIANCE`, `CRUDEOIL`…) for one expiry (the
   * nearest when absent): `strikes` on each side of the money (default 10).
   */
  'options.chain': {
    input: z.strictObject({
      underlying: z.string().regex(/^[A-Z0-9&-]{1,32}$/, 'must be an underlying name such as NIFTY or RELIANCE'),
      expiry: IsoDate.optional(),
      strikes: z.number().int().min(1).max(50).optional(),
    }),
    output: OptionChain,
  },

  /**
   * Place an order exactly once (main assigns the client_order_id and journals the intent).
   * The answer is `placed` or `unconfirmed`; a failed call (`ok:false`) means the order was
   * refused and nothing was created. The same `requestId` twice never makes a second intent.
   * `order.variety: 'amo'` places an after-market order; a regular order while the exchange is
   * closed is refused naming `variety` (docs/api.md §Sessions and the calendar).
   */
  'orders.place': {
    input: z.strictObject({
      order: OrderRequest.strict(),
      ...Placing,
    }),
    output: PlaceOutcome,
  },
  /** Intents not yet confirmed (and those settled recently), newest first: the header badge and blotter rows. */
  'placements.list': { input: z.void(), output: z.array(Placement) },
  /**
   * The trader's choice for an intent confirmed absent after a restart: send it now, under the same
   * reference — or, for one that cannot be verified (`mayDuplicate`), as a new intent under a fresh one.
   */
  'placements.placeAgain': {
    // `mayDuplicate`: the trader was told an unverifiable intent may already be an order.
    input: z.strictObject({
      clientOrderId: ClientOrderId,
      mayDuplicate: z.boolean().optional(),
      /** "Place anyway": Place again is judged by the limits in force now; soft ones may be waived. */
      riskOverride: Placing.riskOverride,
    }),
    output: PlaceOutcome,
  },
  /** The trader's choice for an intent confirmed absent after a restart: forget it (nothing is sent). */
  'placements.discard': { input: z.strictObject({ clientOrderId: ClientOrderId }), output: Placement },
  /**
   * Placement records main could not read in its ledger (moved to a side file, never dropped):
   * the trader is told, since one may be an order they placed.
   */
  'placements.records': {
    input: z.void(),
    output: z.object({
      unreadable: z.object({ count: z.number().int().positive(), keptIn: z.string().max(4_096) }).nullable(),
    }),
  },
  'orders.modify': {
    input: z.strictObject({
      orderId: BrokerOrderId,
      changes: OrderChanges.strict(),
      /** "Modify anyway": soft risk limits waived for this modification (docs/contract.md §Risk guard). */
      riskOverride: Placing.riskOverride,
    }),
    /** Modified, or not yet confirmed (main reads it back: `orders.action`); a failed call only when nothing changed. */
    output: OrderActionOutcome,
  },
  /** Cancelled (or the order's end), or not yet confirmed; a failed call only when nothing was cancelled. */
  'orders.cancel': { input: OrderId.strict(), output: OrderActionOutcome },
  /** Where the last modify or cancel of this order that main could not confirm at once stands; null when none. */
  'orders.action': { input: OrderId.strict(), output: OrderActionState.nullable() },
  'orders.list': {
    input: z.strictObject({ status: OrderStatus.optional() }).optional(),
    output: z.array(Order),
  },
  /**
   * Main's order book brought up to date with the broker, answered as what changed after the
   * page's cursor (`book` and `since` from its last answer or event; absent: everything, `full`).
   * Replaces reading the whole list on every poll (docs/live-data.md §The order book in main).
   * With `first`, a full answer carries at most that many rows, newest first, with `total` and
   * where `orders.page` continues (`next`), so the first screen paints without the whole book
   * (docs/live-data.md §The first screen first).
   */
  'orders.sync': {
    input: z
      .strictObject({
        book: z.string().min(1).max(64).optional(),
        since: z.number().int().nonnegative().optional(),
        first: z.number().int().min(1).max(5000).optional(),
      })
      .optional(),
    output: OrderSyncAnswer,
  },
  /**
   * The rest of a paged full answer: up to `limit` orders of book `book` after `after`, newest
   * first, in their latest state (docs/live-data.md §The first screen first).
   */
  'orders.page': {
    input: z.strictObject({
      book: z.string().min(1).max(64),
      after: OrderPageKey,
      limit: z.number().int().min(1).max(5000),
    }),
    output: OrderPage,
  },
  'orders.get': { input: OrderId.strict(), output: Order },
  /** The broker's transitions plus the app's own hops (click → sent → acknowledged → …). */
  'orders.history': {
    input: OrderId.strict(),
    output: z.object({ history: z.array(OrderEvent), timeline: z.array(LifecycleHop) }),
  },
  'trades.list': { input: z.void(), output: z.array(Trade) },
  'positions.list': { input: z.void(), output: z.array(Position) },
  'holdings.list': { input: z.void(), output: z.array(Holding) },
  'funds.get': { input: z.void(), output: Funds },
  /** Margin a prospective order would block (no order is created). */
  'margins.order': { input: OrderRequest.strict(), output: OrderMargin },
  /**
   * Margin of a basket's legs together, with the broker's hedging benefit (docs/desk.md §Baskets):
   * advisory, nothing is created. At most 20 legs, as a basket holds.
   */
  'margins.basket': {
    input: z.strictObject({ orders: z.array(OrderRequest.strict()).min(1).max(20) }),
    output: BasketMargin,
  },

  // ---------------------------------------------------------------- the trader's safety net
  // Risk guard and kill switch (docs/contract.md §Risk guard, §Kill switch): enforced in main.

  /** The logged-in profile's risk limits and where the day stands against the loss limit (the header). */
  'risk.get': { input: z.void(), output: RiskState },
  /** Replaces the logged-in profile's risk limits (kept in settings, per profile). */
  'risk.set': { input: z.strictObject({ limits: RiskLimits }), output: RiskState },
  /**
   * Starts a safety run: the kill switch, "cancel all" of one symbol, or "exit" of chosen
   * positions. Answers at once with the run's first state; progress follows as `safety.progress`.
   * One run at a time: another while one runs is a `conflict`.
   */
  'safety.start': { input: SafetyRequest, output: SafetyRun },
  /** The current (or last) safety run, or null. */
  'safety.current': { input: z.void(), output: SafetyRun.nullable() },
  /**
   * The trader's Stop: nothing more is sent, no exit is placed; the run ends once the requests
   * already sent are answered, with its read-back of what is still open. Answers the run as it
   * stands; a run already over (or none) is left as it was.
   */
  'safety.stop': { input: z.void(), output: SafetyRun.nullable() },
  /**
   * The trader's re-arm after a kill switch: its barrier comes down and orders that add risk may
   * leave the desk again (docs/contract.md §Kill switch). A `conflict` while a run is in progress.
   */
  'safety.rearm': { input: z.void(), output: SafetyRun.nullable() },
  /** The square-off at a time: its settings, where it stands, how the last one went (the header's countdown). */
  'squareOff.get': { input: z.void(), output: SquareOffState },
  /** Replaces the logged-in profile's square-off settings (kept in settings, per profile); in force at once. */
  'squareOff.set': { input: z.strictObject({ settings: SquareOffSettings }), output: SquareOffState },
  /**
   * The trader's answer when main, started after the time with intraday positions open, asks:
   * `run` squares off now, otherwise the session's square-off is declined. Without a question
   * pending (another window answered): the state as it is.
   */
  'squareOff.answer': { input: z.strictObject({ run: z.boolean() }), output: SquareOffState },
  /** The MTM stop and target: the levels and where the day's MTM stands (docs/contract.md §Risk guard). */
  'mtm.get': { input: z.void(), output: MtmState },
  /** Replaces the logged-in profile's MTM levels (kept in settings, per profile); watches afresh. */
  'mtm.set': { input: z.strictObject({ settings: MtmSettings }), output: MtmState },
  /** A soft level's "Run now": the kill switch runs at once; a second answer starts nothing more. */
  'mtm.confirm': { input: z.void(), output: MtmState },
  /** A soft level's "Keep positions": no run; the levels are not watched again until saved. */
  'mtm.dismiss': { input: z.void(), output: MtmState },
  /** The update check as main last read its feed: the header's notice (docs/architecture.md §Release). */
  'updates.status': { input: z.void(), output: UpdateStatus },
  /** The drift alarm: its findings and its last check (docs/contract.md §Drift alarm). */
  'drift.status': { input: z.void(), output: DriftStatus },
  /** "Check now": compares main's view with the broker's at once; answers the status after the check. */
  'drift.check': { input: z.void(), output: DriftStatus },
  /** The trader has seen a finding: it leaves the list (an id no longer listed is a `bad_request` naming `id`). */
  'drift.acknowledge': { input: z.strictObject({ id: DriftFindingId }), output: DriftStatus },
  /** The logged-in profile's price alerts, oldest first (docs/contract.md §Price alerts). */
  'alerts.list': { input: z.void(), output: z.array(PriceAlert) },
  /**
   * A new alert; an instrument the broker does not quote is refused naming `instrumentToken`, an
   * order it carries that breaks a trading rule naming it (`orders.2.quantity`). The risk guard
   * judges its orders when it fires (docs/contract.md §Alerts that place orders).
   */
  'alerts.create': { input: AlertDraft, output: PriceAlert },
  /** Changes an alert's condition, level, note or orders, and arms it again. */
  'alerts.update': {
    input: z.strictObject({ id: PriceAlert.shape.id, change: AlertChange }),
    output: PriceAlert,
  },
  'alerts.delete': {
    input: z.strictObject({ id: PriceAlert.shape.id }),
    output: z.object({ deleted: z.literal(true) }),
  },

  // ---------------------------------------------------------------- GTT (docs/gtt.md)
  /** Every GTT the broker holds, newest first, with status, trigger values and the orders it placed. */
  'gtt.list': { input: z.void(), output: z.array(Gtt) },
  /**
   * Creates a GTT once: main applies the rules (a refusal names the field: `triggerValues.0`,
   * `legs.1.price`) and answers `placed` or `unconfirmed` (settled by the list); a failed call
   * means nothing was created. The same `requestId` twice never creates a second one.
   */
  'gtt.place': {
    input: z.strictObject({
      gtt: GttRequest.strict(),
      requestId: Placing.requestId,
      riskOverride: Placing.riskOverride,
    }),
    output: GttPlaceOutcome,
  },
  /**
   * New trigger values and orders for an active GTT (judged by the same rules and risk limits),
   * journaled and sent once; a change in doubt is read back, and the same `requestId` again reads
   * back before anything is sent again (docs/gtt.md §When the broker fails).
   */
  'gtt.modify': {
    input: z.strictObject({
      gttId: GttId,
      changes: GttChanges.strict(),
      requestId: Placing.requestId,
      riskOverride: Placing.riskOverride,
    }),
    output: GttAck,
  },
  /** Deletes (cancels) a GTT. */
  'gtt.delete': { input: z.strictObject({ gttId: GttId }), output: GttAck },

  // ---------------------------------------------------------------- brackets (docs/brackets.md)
  /**
   * A bracket or a protected position, kept by main: the exits are judged by the rules and the
   * risk guard (a refusal names `stop.triggerPrice`, `target.price`, `trail.amount`), the bracket
   * is journaled, then an entry is placed exactly once — its honest answer is this call's (a
   * failed call: nothing was created). The same `requestId` twice never makes a second bracket.
   */
  'brackets.place': {
    input: z.strictObject({
      request: BracketRequest,
      ...Placing,
    }),
    output: BracketPlaced,
  },
  /** The day's brackets and trailing stops, newest first. */
  'brackets.list': { input: z.void(), output: z.array(Bracket) },
  /** The trader cancels a bracket: its working orders are cancelled, nothing more is placed. */
  'brackets.cancel': { input: z.strictObject({ id: BracketId }), output: Bracket },
  /**
   * The volume traded at each price of one instrument since main began streaming it this
   * session, from every tick (docs/ladder.md §Volume at price); main answers from memory.
   */
  'market.volumeAtPrice': {
    input: z.strictObject({ instrumentToken: z.number().int().positive() }),
    output: z.object({
      since: z.number().int().nonnegative().nullable(),
      levels: z.array(z.object({ price: z.number().nonnegative(), volume: z.number().nonnegative() })).max(4_000),
    }),
  },

  // ---------------------------------------------------------------- the trader's journal
  /**
   * The logged-in profile's journal (docs/journal.md): closed trades exiting in the range (IST
   * days, inclusive; all when absent), newest first, with the trader's notes, and the open lots.
   */
  'journal.view': { input: JournalRange.optional(), output: JournalView },
  /** Reads the broker's trade book into the journal now (main also does after fills arrive). */
  'journal.sync': { input: z.void(), output: JournalImport },
  /** Replaces a closed trade's tags, note and stop-loss. */
  'journal.update': {
    input: z.strictObject({ tradeId: z.string().min(1).max(200), notes: TradeNotes.strict() }),
    output: JournalTrade,
  },
  /** The chart as it was at the trade's exit (an inert SVG), or null when none was taken. */
  'journal.picture': {
    input: z.strictObject({ tradeId: z.string().min(1).max(200) }),
    output: z.object({ svg: z.string().max(400_000), takenAt: z.number().int() }).nullable(),
  },
  /**
   * Fills from a Zerodha Console tradebook CSV (docs/journal.md §Import and export), all or
   * nothing: a file with a line that cannot be read is refused naming each (`lines.4.quantity`);
   * equity fills take `equityProduct` (Console writes no product). At most
   * `MAX_IMPORT_CSV_BYTES`, the bridge's one limit (`shared/ipc/limits.ts`).
   */
  'journal.importCsv': {
    input: z.strictObject({
      csv: z
        .string()
        .min(1)
        .max(MAX_IMPORT_CSV_BYTES)
        .refine(
          (csv) => utf8Bytes(csv) <= MAX_IMPORT_CSV_BYTES,
          `at most ${kilobytes(MAX_IMPORT_CSV_BYTES)}: export a shorter range`,
        ),
      equityProduct: z.enum(['CNC', 'MIS']),
    }),
    output: JournalImport,
  },
  /**
   * Moves a damaged journal file aside (kept, renamed) and starts a new one; refused while the
   * journal reads (docs/journal.md §A damaged journal).
   */
  'journal.moveAside': { input: z.void(), output: z.object({ keptAs: z.string().max(4_096) }) },

  // ---------------------------------------------------------------- the workstation (docs/workstation.md)
  /** The live desk: windows, panels, colour groups, which windows are open, the profile's workspaces. */
  'desk.view': { input: z.void(), output: DeskView },
  /** Moves a panel (as the page sees it) into window `to`, or a new window; answers the window. */
  'desk.move': {
    input: z.strictObject({
      panel: DeskPanel,
      to: z.union([WindowId, z.literal('new')]),
      bounds: ScreenRect.optional(),
    }),
    output: z.object({ window: WindowId }),
  },
  /** Opens another panel of a kind (a second chart) in window `to`, or a new window. */
  'desk.open': {
    input: z.strictObject({
      panel: DeskPanel.omit({ id: true, window: true }),
      to: z.union([WindowId, z.literal('new')]),
      bounds: ScreenRect.optional(),
    }),
    output: z.object({ panel: PanelId, window: WindowId }),
  },
  /** Stores a panel's link, own instrument and options. */
  'desk.set': { input: z.strictObject({ panel: DeskPanel }), output: z.object({}) },
  /** Takes another panel of a kind off the desk (a kind's own panel only moves). */
  'desk.remove': { input: z.strictObject({ panel: PanelId }), output: z.object({}) },
  /** Sets the instrument a colour group follows. */
  'desk.link': {
    input: z.strictObject({ group: LinkGroup, instrument: z.number().int().positive() }),
    output: z.object({}),
  },
  /** Closes a pop-out: its panels go back to the main window. */
  'desk.close': { input: z.strictObject({ window: WindowId }), output: z.object({}) },
  /**
   * The main window's first screen has painted: main's login work that waits for it (the drift
   * alarm's first check) goes ahead (docs/live-data.md §The first screen first).
   */
  'desk.firstScreen': { input: z.void(), output: z.object({}) },
  /** Where a pop-out is now (the browser host's page reports it; Electron's shell sees it). */
  'desk.moved': {
    input: z.strictObject({ window: WindowId, bounds: ScreenRect, display: DisplayId.optional() }),
    output: z.object({}),
  },
  /** Side by side or stacked: how a pop-out lays out its panels. */
  'desk.orientation': {
    input: z.strictObject({ window: WindowId, orientation: z.enum(['horizontal', 'vertical']) }),
    output: z.object({}),
  },
  /** Asks another window to show a panel (taking the focus) or to fill in its ticket (`desk.command`). */
  'desk.command': { input: DeskCommand, output: z.object({}) },
  /** Saves the desk, with the pages' panel sizes and tabs, as a named workspace (one of that name is replaced). */
  'workspaces.save': {
    input: z.strictObject({ name: WorkspaceName, layouts: WorkspaceLayouts, tabs: WorkspaceTabs }),
    output: z.object({}),
  },
  /** Makes a named workspace the desk. */
  'workspaces.load': { input: z.strictObject({ name: WorkspaceName }), output: z.object({}) },
  'workspaces.delete': { input: z.strictObject({ name: WorkspaceName }), output: z.object({}) },
  /** The named workspaces (all when `names` is absent) as an export file's contents. */
  'workspaces.export': {
    input: z.strictObject({ names: z.array(WorkspaceName).min(1).max(20).optional() }),
    output: WorkspaceFile,
  },
  /** Adds an exported file's workspaces (a name in use gets " (2)"); answers the names as imported. */
  'workspaces.import': {
    input: z.strictObject({ file: WorkspaceFile }),
    output: z.object({ names: z.array(WorkspaceName) }),
  },
} as const;

export const events = {
  /**
   * The broker refused the token mid-session (401 after one re-login): ask the user to log in.
   * `version` is the expired session's (the same as the `session.changed` that follows it).
   */
  'session.expired': z.object({ reason: z.string(), version: SessionVersion }),
  /** Login, logout or a change of profile. */
  'session.changed': SessionInfo,
  'connection.changed': ConnectionState,
  /** The request meter's figures changed (at most once a second, only on a change). */
  'usage.changed': BrokerUsage,
  /**
   * Main's order book changed by pushes: the orders changed from cursor `from` to `cursor` (a burst
   * as one event per 50 ms, each order once, in its latest state). The only event of an order's
   * change: the blotter, notifications and safety panels all read the book it updates. A page
   * holding `from` (or later) is up to date after applying it; one holding less asks `orders.sync`.
   */
  'orders.changed': OrderBookDelta.extend({ from: z.number().int().nonnegative() }),
  /** The unconfirmed placements (and recent settlements) changed: the whole list, newest first. */
  'placements.changed': z.object({ placements: z.array(Placement) }),
  /** Latest tick per instrument, batched (at most one message per ~100 ms). */
  'market.ticks': z.object({ ticks: z.array(Tick) }),

  // ---------------------------------------------------------------- the trader's safety net
  /** A safety run moved on (an order cancelled, an exit placed, the run ended): the whole run. */
  'safety.progress': SafetyRun,
  /** The square-off moved on (planned, warning, asking, running, done) or its settings changed. */
  'squareOff.changed': SquareOffState,
  /** The MTM stop and target's status: at every change of state, its figures at most every 250 ms. */
  'mtm.changed': MtmStatus,
  /** The drift alarm changed: a check began or ended, a finding was raised, resolved or acknowledged. */
  'drift.changed': DriftStatus,
  /** Main read the update feed again: a newer version is announced, never installed by itself. */
  'updates.changed': UpdateStatus,
  /** A price alert's condition was met (main evaluates alerts on the stream, window shown or not). */
  'alerts.fired': PriceAlert,
  /** The alerts changed (created, edited, deleted or fired): the whole list. */
  'alerts.changed': z.object({ alerts: z.array(PriceAlert) }),
  /** A fired alert's orders came to their outcome: placed, refused with why, or not yet confirmed. */
  'alerts.ordered': PriceAlert,
  /** The journal took in fills (a sync after fills, or an import): an open journal reads it again. */
  'journal.changed': z.object({}),
  /** A bracket or trailing stop changed (not on every tick): the whole list (docs/brackets.md). */
  'brackets.changed': z.object({ brackets: z.array(Bracket) }),

  // ---------------------------------------------------------------- the workstation
  /** The desk changed (a panel moved, a window opened or closed, a group's instrument, a workspace): the whole view. */
  'desk.changed': DeskView,
  /** One window asks another to show a panel or fill in its ticket; the window named does it. */
  'desk.command': DeskCommand,
} as const;

export type Requests = typeof requests;
export type RequestChannel = keyof Requests;
export type EventName = keyof typeof events;

/** What the renderer passes for a channel (before parsing). */
export type RequestInput<C extends RequestChannel> = z.input<Requests[C]['input']>;
/** What a handler receives for a channel (after parsing). */
export type ParsedInput<C extends RequestChannel> = z.output<Requests[C]['input']>;
/** What a handler returns and the renderer receives. */
export type RequestOutput<C extends RequestChannel> = z.output<Requests[C]['output']>;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

/** Channel names, for the preload's allowlist and the dispatcher. */
export const REQUEST_CHANNELS = Object.keys(requests) as readonly RequestChannel[];
export const EVENT_NAMES = Object.keys(events) as readonly EventName[];

/** True when `name` is one of the contract's request channels. */
export function isRequestChannel(name: unknown): name is RequestChannel {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(requests, name);
}

/** True when `name` is one of the contract's events. */
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
}

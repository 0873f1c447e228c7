import { z } from 'zod';
import { Exchange } from './instrument';
import { ClientOrderId, OrderStatus, Product, TransactionType } from './order';

/**
 * The kill switch and its smaller siblings (docs/contract.md §Kill switch): one run in main that
 * cancels working orders and, when asked, exits positions through the exactly-once order
 * service, reporting each order's progress and, at the end, what is still open.
 */

const TradingSymbol = z.string().min(1).max(64);

/** A position, as the trader picks it: the instrument and the product it is held in. */
export const PositionKey = z.strictObject({ exchange: Exchange, tradingsymbol: TradingSymbol, product: Product });
export type PositionKey = z.infer<typeof PositionKey>;

const KillSwitch = z.strictObject({ kind: z.literal('killSwitch'), exitPositions: z.boolean() });
const CancelSymbol = z.strictObject({
  kind: z.literal('cancelSymbol'),
  exchange: Exchange,
  tradingsymbol: TradingSymbol,
});
const ExitPositions = z.strictObject({
  kind: z.literal('exitPositions'),
  positions: z.array(PositionKey).min(1).max(500),
});

/**
 * What the trader starts (`safety.start`):
 * - `killSwitch`: cancel every working order; with `exitPositions`, then exit every open position;
 * - `cancelSymbol`: cancel every working order of one instrument (the blotter's "Cancel all");
 * - `exitPositions`: exit these positions (the positions panel's "Exit selected"), cancelling
 *   their working orders first.
 */
export const SafetyRequest = z.discriminatedUnion('kind', [KillSwitch, CancelSymbol, ExitPositions]);
export type SafetyRequest = z.infer<typeof SafetyRequest>;

/**
 * What a run does: what the trader starts, or main's square-off at a time (`squareOff`: exit the
 * intraday (MIS) positions of these exchanges, cancelling their working intraday orders first;
 * docs/contract.md §Risk guard), which only main's scheduler starts.
 */
export const SafetyAction = z.discriminatedUnion('kind', [
  KillSwitch,
  CancelSymbol,
  ExitPositions,
  z.strictObject({ kind: z.literal('squareOff'), exchanges: z.array(Exchange).min(1).max(6) }),
]);
export type SafetyAction = z.infer<typeof SafetyAction>;

/**
 * One order's part in a run.
 *
 * - `cancel`: a working order to cancel.
 * - `exit`: an order that closes a position (market-protected LIMIT), placed exactly once.
 * - `unconfirmed`: a placement not yet confirmed when the run started: if it turns out placed,
 *   it is cancelled like the others.
 *
 * `state`: `pending` (not started), `working` (being sent or retried), `done` (cancelled, or the
 * exit placed), `failed` (given up after retries: still open), `skipped` (nothing to do — already
 * complete, or never placed).
 */
export const SafetyStep = z.object({
  id: z.string(),
  kind: z.enum(['cancel', 'exit', 'unconfirmed']),
  exchange: Exchange,
  tradingsymbol: z.string(),
  product: Product.nullable(),
  transactionType: TransactionType.nullable(),
  quantity: z.number().int().nonnegative(),
  orderId: z.string().nullable(),
  clientOrderId: ClientOrderId.nullable(),
  /** The order's status at the broker when last known. */
  status: OrderStatus.nullable(),
  state: z.enum(['pending', 'working', 'done', 'failed', 'skipped']),
  attempts: z.number().int().nonnegative(),
  /** What happened, in words: "Cancelled", "Exit order 2600… placed (OPEN)", "Broker unreachable after 4 tries". */
  detail: z.string(),
});
export type SafetyStep = z.infer<typeof SafetyStep>;

/** What is still open once a run ends (read back from the broker). */
export const StillOpen = z.object({
  orders: z.array(
    z.object({
      orderId: z.string(),
      exchange: Exchange,
      tradingsymbol: z.string(),
      transactionType: TransactionType,
      pendingQuantity: z.number().int().nonnegative(),
      status: OrderStatus,
    }),
  ),
  positions: z.array(
    z.object({ exchange: Exchange, tradingsymbol: z.string(), product: Product, quantity: z.number().int() }),
  ),
  /** Placements still not confirmed either way (they may yet become orders). */
  unconfirmed: z.array(ClientOrderId),
  /** False when the broker could not be read back: the lists are then main's last knowledge. */
  verified: z.boolean(),
  /**
   * Set when the positions could not be known at the end (not readable, and main's own
   * knowledge not complete): since when they have not been readable (epoch ms). `positions`
   * then lists only what main last knew; it is never "nothing" (docs/contract.md §Kill switch).
   */
  positionsUnknownSince: z.number().int().nonnegative().nullable().default(null),
});
export type StillOpen = z.infer<typeof StillOpen>;

/** One run, as its progress and its result. */
export const SafetyRun = z.object({
  id: z.string(),
  action: SafetyAction,
  /** Epoch ms. */
  startedAt: z.number().int().nonnegative(),
  finishedAt: z.number().int().nonnegative().nullable(),
  /**
   * `done`: every order asked for is cancelled and every position asked for is flat, as read from
   * the broker or known by main (a complete read plus the fills since); `incomplete`: something
   * is still open or not known (see `stillOpen`).
   */
  state: z.enum(['running', 'done', 'incomplete']),
  steps: z.array(SafetyStep),
  stillOpen: StillOpen.nullable(),
  /** The run's headline: "Cancelling 4 orders…", "All 4 orders cancelled, 2 positions exited". */
  detail: z.string(),
  /**
   * While the positions cannot be read or known: since when (epoch ms), so the dialog says
   * "Positions unknown: not readable for 42 s" as it runs; null otherwise.
   */
  positionsUnreadableSince: z.number().int().nonnegative().nullable().default(null),
  /**
   * A kill switch's barrier is up: nothing that adds risk leaves the desk until the trader
   * re-arms (`safety.rearm`; docs/contract.md §Kill switch).
   */
  barrierUp: z.boolean().default(false),
});
export type SafetyRun = z.infer<typeof SafetyRun>;

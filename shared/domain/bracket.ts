import { z } from 'zod';
import { Exchange } from './instrument';
import { ClientOrderId, OrderRequest, Product, TransactionType } from './order';
import { PlaceOutcome, PlacementRequestId } from './placement';

/**
 * Brackets and trailing stops kept by main (docs/brackets.md): an entry order with a stop-loss
 * and a target that main places as a one-cancels-other pair once the entry fills (for what
 * filled), or the same pair protecting a position already open; the stop may trail the price.
 */

/** How far behind the price a trailing stop follows it: rupees, or a percentage of the price. */
export const TrailSpec = z.strictObject({
  by: z.enum(['points', 'percent']),
  amount: z.number().positive().max(1_000_000),
});
export type TrailSpec = z.infer<typeof TrailSpec>;

/** The exits a bracket asks for: a stop-loss trigger, a target price, and whether the stop trails. */
const LegsRequest = {
  stop: z.strictObject({ triggerPrice: z.number().positive() }).nullable(),
  target: z.strictObject({ price: z.number().positive() }).nullable(),
  trail: TrailSpec.nullable(),
};

/**
 * What a trader asks for: `entry` — an order, protected once it fills; `protect` — a position
 * already open (`side` is the position's: BUY for a long), protected at once.
 */
export const BracketRequest = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('entry'), entry: OrderRequest.strict(), ...LegsRequest }),
    z.strictObject({
      kind: z.literal('protect'),
      exchange: Exchange,
      tradingsymbol: z.string().min(1).max(64),
      product: Product,
      side: TransactionType,
      quantity: z.number().int().positive(),
      ...LegsRequest,
    }),
  ])
  .superRefine((r, ctx) => {
    if (r.stop === null && r.target === null)
      ctx.addIssue({ code: 'custom', path: ['stop'], message: 'A bracket needs a stop-loss, a target or both' });
    if (r.trail !== null && r.stop === null)
      ctx.addIssue({ code: 'custom', path: ['trail'], message: 'Only a stop-loss can trail: add one' });
  });
export type BracketRequest = z.infer<typeof BracketRequest>;

/** A bracket's id: `b` and 16 letters or digits (its children's references derive from it). */
export const BracketId = z.string().regex(/^b[A-Za-z0-9]{16}$/, 'must be a bracket id');

/** Which of a bracket's orders. */
export const BracketChildKey = z.enum(['entry', 'stop', 'target']);
export type BracketChildKey = z.infer<typeof BracketChildKey>;

/**
 * Where one of a bracket's orders stands. `planned`: not asked for yet (a leg before the entry
 * fills); `placing`: main decided to place it (journaled) and has no answer yet; `unconfirmed`:
 * the order service answered "not yet confirmed"; `working`, `filled`, `cancelled`, `rejected`:
 * the broker's order; `not_placed`: nothing was created.
 */
export const BracketChildStatus = z.enum([
  'planned',
  'placing',
  'unconfirmed',
  'working',
  'filled',
  'cancelled',
  'rejected',
  'not_placed',
]);
export type BracketChildStatus = z.infer<typeof BracketChildStatus>;

/** One of a bracket's orders: what main asked for, and what the broker says of it. */
export const BracketChild = z.object({
  /** Its client reference, derived from the bracket's id and its role (docs/brackets.md §References). */
  ref: ClientOrderId,
  /** The order as asked, kept current with the broker's reports (quantity, trigger, price). */
  order: OrderRequest,
  orderId: z.string().nullable(),
  status: BracketChildStatus,
  filled: z.number().int().nonnegative(),
  averagePrice: z.number().nonnegative(),
  /** The broker's or main's words about it (a refusal, a rejection). */
  message: z.string().max(500).nullable(),
  /** A modification or cancel main sent and has no answer to yet. */
  pending: z.enum(['modify', 'cancel']).nullable(),
  /** Failed modifications or cancels in a row, and when to try again (epoch ms). */
  failures: z.number().int().nonnegative(),
  retryAt: z.number().nullable(),
  /**
   * Which order of this role it is: 0 the first; each order placed after an earlier one ended
   * (filled for less than is held, refused, cancelled, no longer listed) is the next, under its
   * own reference (docs/brackets.md §References).
   */
  gen: z.number().int().nonnegative().default(0),
});
export type BracketChild = z.infer<typeof BracketChild>;

/** `waiting_entry` → `protecting` → `done` (docs/brackets.md §States). */
export const BracketPhase = z.enum(['waiting_entry', 'protecting', 'done']);
export type BracketPhase = z.infer<typeof BracketPhase>;

/** A bracket as main keeps it, journals it and shows it (`brackets.list`, `brackets.changed`). */
export const Bracket = z.object({
  id: BracketId,
  kind: z.enum(['entry', 'protect']),
  /** Epoch ms. */
  createdAt: z.number().int().nonnegative(),
  requestId: PlacementRequestId.nullable(),
  exchange: Exchange,
  tradingsymbol: z.string().min(1).max(64),
  instrumentToken: z.number().int().positive(),
  tickSize: z.number().positive(),
  product: Product,
  /** The position's side: BUY for a long (the exits sell). */
  side: TransactionType,
  /** For `protect`: the quantity protected. */
  quantity: z.number().int().positive(),
  entry: BracketChild.nullable(),
  stop: BracketChild.nullable(),
  target: BracketChild.nullable(),
  trail: TrailSpec.nullable(),
  /** The most favourable price seen since protection began (a trailing stop follows it). */
  best: z.number().nullable(),
  /** Modifications a trailing stop sent and the broker confirmed. */
  trailMoves: z.number().int().nonnegative(),
  phase: BracketPhase,
  /** Read back from the broker after a restart before it acts again (docs/brackets.md §After a restart). */
  restoring: z.boolean(),
  cancelRequested: z.boolean(),
  /** What the exits of earlier generations filled (docs/brackets.md §The controller). */
  exited: z.number().int().nonnegative().default(0),
  /**
   * The net position (signed, + long) of its instrument and product as main knows it at the last
   * step, and the other working orders reducing it; null: not known (docs/brackets.md §The controller).
   */
  held: z.number().int().nullable().default(null),
  otherReducing: z.number().int().nonnegative().nullable().default(null),
  /** A held, protected quantity without a working stop-loss covering it: how much and why. */
  unprotected: z
    .object({ quantity: z.number().int().positive(), why: z.string().max(500) })
    .nullable()
    .default(null),
  /** What needs the trader's eye while it runs ("Stop-loss not placed: …"). */
  problem: z.string().max(500).nullable(),
  /** How it ended. */
  outcome: z.string().max(500).nullable(),
  doneAt: z.number().int().nonnegative().nullable(),
});
export type Bracket = z.infer<typeof Bracket>;

/** The answer to `brackets.place`: the bracket, and for an entry the entry's honest answer. */
export const BracketPlaced = z.object({ bracket: Bracket, entry: PlaceOutcome.nullable() });
export type BracketPlaced = z.infer<typeof BracketPlaced>;

/** What a child order cancelled by its own bracket says (not a problem, unlike a cancel from elsewhere). */
export const CANCELLED_BY_BRACKET = 'Cancelled by the bracket';

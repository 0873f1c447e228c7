import { CANCELLED_BY_BRACKET } from '@shared/domain/bracket';
import { isWorking, type Order, type OrderChanges, type OrderRequest, type OrderStatus } from '@shared/domain/order';
import type {
  Bracket,
  BracketChild,
  BracketChildKey,
  BracketChildStatus,
  BracketPhase,
  BracketRequest,
} from '@shared/domain/bracket';
import type { Instrument } from '@shared/domain/instrument';
import {
  betterPrice,
  newChild,
  protectedQuantity,
  stopLimit,
  stopOrder,
  targetOrder,
  trailImproves,
  trailTrigger,
} from '@shared/trading/bracket-rules';
import { bracketRef } from './bracket-refs';
import { decideProtection, EXITS, type ExitView, type ProtectionDecision } from './protection';

/**
 * The bracket state machine (docs/brackets.md §States), pure: a bracket and one event in, the
 * bracket after it and the actions main must take out. No clock, no I/O — `now` comes with the
 * event — so `bracket-machine.test.ts` can state it as a table.
 *
 * The driver (`bracket-manager.ts`) journals the bracket it returns, durably, before it takes
 * any action; an action repeated after a crash is safe because every order it places carries a
 * reference derived from the bracket and the order's role, looked up before it is sent again.
 */

/** What happened to a bracket. */
export type BracketEvent =
  /** The order service placed one of its orders (`orderId` known). */
  | {
      readonly t: 'placed';
      readonly child: BracketChildKey;
      readonly orderId: string;
      readonly status: OrderStatus | null;
    }
  /** Nothing was created for it: refused, or confirmed absent (the order service's word). */
  | { readonly t: 'refused'; readonly child: BracketChildKey; readonly message: string }
  /** The order service answered "not yet confirmed": the broker's report of the reference will tell. */
  | { readonly t: 'unconfirmed'; readonly child: BracketChildKey }
  /** After a restart: main's placement of it never reached the order service, so it goes again (a leg). */
  | { readonly t: 'unsent'; readonly child: BracketChildKey }
  /** A broker report of one of its orders (by reference or order id). */
  | { readonly t: 'order'; readonly order: Order }
  /** A modification went through. */
  | { readonly t: 'modified'; readonly child: BracketChildKey; readonly changes: OrderChanges; readonly trail: boolean }
  /** A modification failed; `final`: it cannot succeed as asked (a rule, a finished order). */
  | {
      readonly t: 'modify-failed';
      readonly child: BracketChildKey;
      readonly message: string;
      readonly final: boolean;
    }
  /** A cancel was answered (the broker's status of the order). */
  | { readonly t: 'cancel-sent'; readonly child: BracketChildKey; readonly status: OrderStatus }
  | { readonly t: 'cancel-failed'; readonly child: BracketChildKey; readonly message: string }
  /** A last traded price of its instrument. */
  | { readonly t: 'tick'; readonly price: number }
  /** The trader cancels it: its working orders are cancelled, nothing more is placed. */
  | { readonly t: 'cancel' }
  /** After a restart, its orders were read back from the broker: it may act again. */
  | { readonly t: 'restored' }
  /** Time passed (retries fall due). */
  | { readonly t: 'timer' }
  /**
   * The position as main knows it now (signed, + long; null unknown) and the other working
   * orders reducing it: the controller sizes the exits to it (docs/brackets.md §The controller).
   */
  | { readonly t: 'position'; readonly held: number | null; readonly otherReducing: number | null }
  /** The broker no longer lists one of its orders (an earlier day's, cancelled at the close): not working. */
  | { readonly t: 'gone'; readonly child: BracketChildKey; readonly message: string };

/** What main must do for a bracket. */
export type BracketAction =
  | {
      readonly t: 'place';
      readonly child: BracketChildKey;
      readonly ref: string;
      readonly order: OrderRequest;
      /**
       * It only reduces what is held — the position main knows, or what the bracket's own entry
       * filled — so it is exempt from the risk guard (docs/brackets.md §Risk).
       */
      readonly reduceOnly: boolean;
    }
  | {
      readonly t: 'modify';
      readonly child: BracketChildKey;
      readonly orderId: string;
      readonly changes: OrderChanges;
      readonly trail: boolean;
    }
  | { readonly t: 'cancel'; readonly child: BracketChildKey; readonly orderId: string };

/** The position main knows as an event is fed (signed, + long; null not known) and the other orders reducing it. */
export interface KnownNow {
  readonly held: number | null;
  readonly otherReducing: number | null;
}

/** One step's result. */
export interface Step {
  readonly bracket: Bracket;
  readonly actions: readonly BracketAction[];
}

/** Waits after failed modifications or cancels: 0.5 s, 1 s, 2 s … 30 s. */
export function retryDelayMs(failures: number): number {
  return Math.min(30_000, 500 * 2 ** Math.max(0, failures - 1));
}

const CHILDREN = ['entry', 'stop', 'target'] as const;
const NAMES: Record<BracketChildKey, string> = { entry: 'Entry', stop: 'Stop-loss', target: 'Target' };

/** Statuses where an order may still be (or become) at the broker. */
const LIVE: ReadonlySet<BracketChildStatus> = new Set(['placing', 'unconfirmed', 'working']);

/** One event: the bracket after it, and the actions it calls for. */
export function step(bracket: Bracket, event: BracketEvent, now: number, position?: KnownNow): Step {
  const b = structuredClone(bracket);
  if (b.phase === 'done' && event.t !== 'order') return { bracket: b, actions: [] };
  // A position known now already counts every fill main has seen, this event's too.
  const known = position !== undefined && position.held !== null;
  if (position) apply(b, { t: 'position', ...position }, now);
  apply(b, event, now, known);
  const actions = b.restoring ? [] : plan(b, now);
  b.phase = phaseOf(b);
  if (b.phase === 'done' && b.doneAt === null) b.doneAt = now;
  return { bracket: b, actions };
}

function apply(b: Bracket, e: BracketEvent, now: number, positionKnown = false): void {
  switch (e.t) {
    case 'placed': {
      const c = b[e.child];
      if (!c || (c.status !== 'placing' && c.status !== 'unconfirmed' && c.status !== 'planned')) {
        if (c && c.orderId === null) c.orderId = e.orderId;
        return;
      }
      c.orderId = e.orderId;
      c.status = e.status ? childStatus(e.status) : 'working';
      c.failures = 0;
      c.retryAt = null;
      return;
    }
    case 'refused': {
      const c = b[e.child];
      if (!c || !(c.status === 'placing' || c.status === 'unconfirmed')) return;
      c.status = 'not_placed';
      c.message = e.message.slice(0, 500);
      // An exit is tried again, with backoff, while the position needs it.
      c.failures += 1;
      c.retryAt = now + retryDelayMs(c.failures);
      return;
    }
    case 'gone': {
      const c = b[e.child];
      if (!c || !(c.status === 'working' || c.status === 'placing' || c.status === 'unconfirmed')) return;
      c.status = 'cancelled';
      c.pending = null;
      c.message = e.message.slice(0, 500);
      return;
    }
    case 'position':
      // Unknown now is not zero: the last known position, moved by the fills seen since, stands.
      if (e.held !== null) b.held = e.held;
      b.otherReducing = e.otherReducing;
      return;
    case 'unconfirmed': {
      const c = b[e.child];
      if (c && c.status === 'placing') c.status = 'unconfirmed';
      return;
    }
    case 'unsent': {
      const c = b[e.child];
      if (c && (c.status === 'placing' || c.status === 'unconfirmed')) c.status = 'planned';
      return;
    }
    case 'order':
      report(b, e.order, now, positionKnown);
      return;
    case 'modified': {
      const c = b[e.child];
      if (!c) return;
      c.pending = null;
      c.failures = 0;
      c.retryAt = null;
      c.order = { ...c.order, ...changedOrder(e.changes) };
      if (e.trail) b.trailMoves += 1;
      return;
    }
    case 'modify-failed': {
      const c = b[e.child];
      if (!c) return;
      c.pending = null;
      c.failures += 1;
      c.retryAt = now + (e.final ? 30_000 : retryDelayMs(c.failures));
      c.message = e.message.slice(0, 500);
      return;
    }
    case 'cancel-sent': {
      const c = b[e.child];
      if (!c) return;
      c.pending = null;
      c.failures = 0;
      if (!isWorking(e.status)) c.status = childStatus(e.status);
      else c.retryAt = now + retryDelayMs(1); // the broker has not finished it yet: look again
      return;
    }
    case 'cancel-failed': {
      const c = b[e.child];
      if (!c) return;
      c.pending = null;
      c.failures += 1;
      c.retryAt = now + retryDelayMs(c.failures);
      c.message = e.message.slice(0, 500);
      return;
    }
    case 'tick':
      if (b.trail && protectedQuantity(b) > 0 && betterPrice(b.side, e.price, b.best)) b.best = e.price;
      return;
    case 'cancel':
      b.cancelRequested = true;
      return;
    case 'restored':
      b.restoring = false;
      return;
    case 'timer':
      return;
  }
}

/** A broker report of one of the bracket's orders; never moves a child backwards. */
function report(b: Bracket, o: Order, now: number, positionKnown: boolean): void {
  const key = CHILDREN.find((k) => {
    const c = b[k];
    return c !== null && (c.ref === o.clientOrderId || (c.orderId !== null && c.orderId === o.orderId));
  });
  if (!key) return;
  const c = b[key] as BracketChild;
  const next = childStatus(o.status);
  const terminal = c.status === 'filled' || c.status === 'cancelled' || c.status === 'rejected';
  if (terminal && next === 'working') return;
  c.orderId ??= o.orderId;
  const more = Math.max(0, o.filledQuantity - c.filled);
  // The last position known moves with the fills the bracket sees: the entry adds, an exit reduces.
  if (!positionKnown && b.held !== null && more > 0) b.held += (key === 'entry') === (b.side === 'BUY') ? more : -more;
  c.filled = Math.max(c.filled, o.filledQuantity);
  if (o.averagePrice > 0) c.averagePrice = o.averagePrice;
  if (!terminal && next === 'rejected' && key !== 'entry') {
    // A rejected exit is placed again with backoff while the position needs it.
    c.failures += 1;
    c.retryAt = now + retryDelayMs(c.failures);
  }
  if (!terminal) c.status = next;
  if (o.status === 'REJECTED' || (o.status === 'CANCELLED' && c.message !== CANCELLED_BY_BRACKET))
    c.message = o.statusMessage?.slice(0, 500) ?? (o.status === 'CANCELLED' ? 'Cancelled' : c.message);
  if (next === 'working' && c.pending !== 'modify') {
    // The trader may have moved it (the chart, the blotter): the bracket follows what is there.
    c.order = {
      ...c.order,
      quantity: o.quantity,
      price: o.price !== null && o.price > 0 ? o.price : null,
      triggerPrice: o.triggerPrice !== null && o.triggerPrice > 0 ? o.triggerPrice : null,
    };
  }
  if (key !== 'entry' || b.best !== null || c.filled === 0) return;
  // Protection starts from the entry's fill: the trailing stop's first reference.
  if (c.averagePrice > 0) b.best = c.averagePrice;
}

function childStatus(s: OrderStatus): BracketChildStatus {
  switch (s) {
    case 'COMPLETE':
      return 'filled';
    case 'CANCELLED':
      return 'cancelled';
    case 'REJECTED':
      return 'rejected';
    default:
      return 'working';
  }
}

function changedOrder(changes: OrderChanges): Partial<OrderRequest> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(changes)) if (v !== undefined) out[k] = v;
  return out as Partial<OrderRequest>;
}

const live = (c: BracketChild | null): boolean => c !== null && LIVE.has(c.status);
const due = (c: BracketChild, now: number): boolean => c.pending === null && (c.retryAt === null || now >= c.retryAt);

function sendCancel(c: BracketChild, key: BracketChildKey, out: BracketAction[]): void {
  if (c.orderId === null) return;
  c.pending = 'cancel';
  c.message = CANCELLED_BY_BRACKET;
  out.push({ t: 'cancel', child: key, orderId: c.orderId });
}

function cancelIfWorking(b: Bracket, key: BracketChildKey, now: number, out: BracketAction[]): void {
  const c = b[key];
  if (!c || c.status !== 'working' || !due(c, now)) return;
  sendCancel(c, key, out);
}

/** The actions the bracket calls for now, marking each child that one is sent for. */
function plan(b: Bracket, now: number): BracketAction[] {
  const out: BracketAction[] = [];
  if (b.phase === 'done') return out;

  const entry = b.entry;
  if (b.cancelRequested) cancelIfWorking(b, 'entry', now, out);
  else if (entry && entry.filled === 0) {
    if (entry.status === 'not_placed') finish(b, `Entry not placed: ${entry.message ?? 'nothing was created'}`);
    else if (entry.status === 'cancelled' || entry.status === 'rejected')
      finish(b, `Entry ${entry.status}${entry.message ? `: ${entry.message}` : ''}`);
    b.unprotected = null;
    return out;
  }

  // An exit filled: the rest of the entry is not wanted any more (what filled meanwhile is protected).
  if (!b.cancelRequested && EXITS.some((k) => b[k]?.status === 'filled')) cancelIfWorking(b, 'entry', now, out);

  const d = decideProtection(controllerInput(b, now));
  for (const a of d.actions) {
    const c = b[a.exit] as BracketChild;
    if (a.t === 'cancel') sendCancel(c, a.exit, out);
    else if (a.t === 'resize' && c.orderId !== null) {
      c.pending = 'modify';
      out.push({ t: 'modify', child: a.exit, orderId: c.orderId, changes: { quantity: a.quantity }, trail: false });
    } else if (a.t === 'place') {
      if (c.status !== 'planned') nextGeneration(b, a.exit, c);
      c.status = 'placing';
      c.order = { ...c.order, quantity: a.quantity };
      out.push({
        t: 'place',
        child: a.exit,
        ref: c.ref,
        order: c.order,
        reduceOnly: b.held !== null || b.kind === 'entry',
      });
    }
  }
  if (b.cancelRequested) {
    for (const k of EXITS) {
      const c = b[k];
      if (c && c.status === 'planned') c.status = 'not_placed';
    }
  }

  trail(b, now, out);

  b.problem = problemsOf(b);
  // The picture after this step's actions: a stop-loss just sent is on its way, not missing.
  const after: ProtectionDecision = decideProtection(controllerInput(b, now));
  b.unprotected = after.unprotected;
  const done = d.done ?? after.done;
  if (done !== null && !live(entry)) {
    b.unprotected = null;
    if (done === 'cancelled') finish(b, 'Cancelled by you');
    else {
      const closedBy = EXITS.find((k) => b[k]?.status === 'filled' && (b[k]?.filled ?? 0) > 0);
      const by = closedBy ?? ((b.stop?.filled ?? 0) >= (b.target?.filled ?? 0) ? 'stop' : 'target');
      const leg = b[by];
      const filled = `${NAMES[by]} filled${leg && leg.averagePrice > 0 ? ` at ₹${leg.averagePrice}` : ''}`;
      if (done === 'exited') finish(b, filled);
      else finish(b, closedBy ? `${filled}: nothing left held` : 'Position closed: nothing held to protect');
    }
  }
  return out;
}

/** The bracket as the controller's input (`protection.ts`). */
function controllerInput(b: Bracket, now: number): Parameters<typeof decideProtection>[0] {
  const view = (c: BracketChild | null): ExitView | null =>
    c === null
      ? null
      : { status: c.status, quantity: c.order.quantity, filled: c.filled, busy: !due(c, now), failed: c.failures > 0 };
  return {
    side: b.side,
    protectedQty: protectedQuantity(b),
    entryLive: live(b.entry) && !b.cancelRequested,
    cancelRequested: b.cancelRequested,
    held: b.held,
    otherReducing: b.otherReducing,
    stop: view(b.stop),
    target: view(b.target),
  };
}

/** An exit that ended is replaced by a new order under the role's next reference. */
function nextGeneration(b: Bracket, key: 'stop' | 'target', c: BracketChild): void {
  b.exited += c.filled;
  c.gen += 1;
  c.ref = bracketRef(b.id, key, c.gen);
  // A refusal's count carries on (the backoff grows); an order that filled or was cancelled starts afresh.
  if (c.status === 'filled' || c.status === 'cancelled') {
    c.failures = 0;
    c.message = null;
  }
  c.retryAt = null;
  c.orderId = null;
  c.filled = 0;
  c.averagePrice = 0;
  c.pending = null;
}

/** What needs the trader's eye: an exit not placed, rejected, cancelled from outside, or not resized. */
function problemsOf(b: Bracket): string | null {
  const problems = EXITS.flatMap((k) => {
    const c = b[k];
    if (!c) return [];
    const why = c.message ?? '';
    if (c.status === 'not_placed') return [`${NAMES[k]} not placed: ${why || 'nothing was created'}; trying again`];
    if (c.status === 'rejected') return [`${NAMES[k]} rejected: ${why || 'by the broker'}`];
    if (c.status === 'cancelled' && c.message !== CANCELLED_BY_BRACKET)
      return [`${NAMES[k]} ${why && why !== 'Cancelled' ? `ended: ${why}` : 'was cancelled outside the bracket'}`];
    if (c.status === 'working' && c.failures > 0 && c.pending === null)
      return [`${NAMES[k]} not changed: ${why || 'refused'}; trying again`];
    if ((c.status === 'placing' || c.status === 'unconfirmed') && c.failures > 0)
      return [`${NAMES[k]} not placed: ${why || 'nothing was created'}; trying again`];
    return [];
  });
  return problems.length > 0 ? problems.join('; ').slice(0, 500) : null;
}

/** The trailing stop: moved behind the best price, only ever in the trader's favour. */
function trail(b: Bracket, now: number, out: BracketAction[]): void {
  const s = b.stop;
  if (!b.trail || !s || b.best === null || s.status !== 'working' || s.orderId === null || !due(s, now)) return;
  const current = s.order.triggerPrice;
  if (current === null || current === undefined) return;
  const next = trailTrigger(b.side, b.best, b.trail, b.tickSize);
  if (!trailImproves(b.side, current, next, b.tickSize)) return;
  const changes: OrderChanges =
    s.order.orderType === 'SL'
      ? { triggerPrice: next, price: stopLimit(s.order.transactionType, next, b.tickSize) }
      : { triggerPrice: next };
  s.pending = 'modify';
  out.push({ t: 'modify', child: 'stop', orderId: s.orderId, changes, trail: true });
}

function finish(b: Bracket, outcome: string): void {
  b.outcome = outcome.slice(0, 500);
  b.phase = 'done';
}

function phaseOf(b: Bracket): BracketPhase {
  if (b.phase === 'done' || b.outcome !== null) return 'done';
  return b.entry && b.entry.filled === 0 ? 'waiting_entry' : 'protecting';
}

/** What a new bracket is made of (the manager checked it against the rules and the risk guard). */
export interface NewBracket {
  readonly id: string;
  readonly request: BracketRequest;
  readonly requestId: string | null;
  readonly instrument: Pick<Instrument, 'instrumentToken' | 'instrumentType' | 'tickSize'>;
  /** The reference of each of its orders (`bracket-refs.ts`). */
  readonly refs: Readonly<Record<BracketChildKey, string>>;
  /** For a protect: the position main read as it was made (signed, + long). */
  readonly held?: number | null;
}

/** A new bracket and its first actions: the entry's placement, or a protected position's exits. */
export function createBracket(n: NewBracket, now: number): Step {
  const r = n.request;
  const basis =
    r.kind === 'entry'
      ? {
          exchange: r.entry.exchange,
          tradingsymbol: r.entry.tradingsymbol,
          product: r.entry.product,
          side: r.entry.transactionType,
        }
      : { exchange: r.exchange, tradingsymbol: r.tradingsymbol, product: r.product, side: r.side };
  const quantity = r.kind === 'entry' ? r.entry.quantity : r.quantity;
  const child = (key: BracketChildKey, order: OrderRequest, status: BracketChildStatus): BracketChild =>
    newChild(n.refs[key], order, status);
  const b: Bracket = {
    id: n.id,
    kind: r.kind,
    createdAt: now,
    requestId: n.requestId,
    ...basis,
    instrumentToken: n.instrument.instrumentToken,
    tickSize: n.instrument.tickSize,
    quantity,
    entry: r.kind === 'entry' ? child('entry', r.entry, 'placing') : null,
    stop: r.stop ? child('stop', stopOrder(basis, quantity, r.stop.triggerPrice, n.instrument), 'planned') : null,
    target: r.target ? child('target', targetOrder(basis, quantity, r.target.price), 'planned') : null,
    trail: r.trail,
    best: null,
    trailMoves: 0,
    phase: r.kind === 'entry' ? 'waiting_entry' : 'protecting',
    restoring: false,
    cancelRequested: false,
    exited: 0,
    held: n.held ?? null,
    otherReducing: null,
    unprotected: null,
    problem: null,
    outcome: null,
    doneAt: null,
  };
  if (r.kind === 'entry' && b.entry) {
    return {
      bracket: b,
      actions: [{ t: 'place', child: 'entry', ref: b.entry.ref, order: b.entry.order, reduceOnly: false }],
    };
  }
  return { bracket: b, actions: plan(b, now) };
}

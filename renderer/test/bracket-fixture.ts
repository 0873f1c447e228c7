import type { Bracket, BracketChild } from '@shared/domain/bracket';
import { newChild } from '@shared/trading/bracket-rules';

/** Brackets as main reports them, for the renderer's tests (docs/brackets.md §States). */

/** An INFY stop-loss for 50 at 1,480, planned; `over` changes any field. */
export function aChild(over: Partial<BracketChild> = {}): BracketChild {
  const stop = {
    exchange: 'NSE',
    tradingsymbol: 'INFY',
    transactionType: 'SELL',
    quantity: 50,
    orderType: 'SL-M',
    product: 'MIS',
    validity: 'DAY',
    price: null,
    triggerPrice: 1480,
  } as const;
  return { ...newChild('tdb0123456789abcdefs', stop, 'planned'), ...over };
}

/** A long INFY bracket for 50 waiting for its entry; `over` changes any field. */
export function aBracket(over: Partial<Bracket> = {}): Bracket {
  return {
    id: 'b0123456789abcdef',
    kind: 'entry',
    createdAt: 1,
    requestId: null,
    exchange: 'NSE',
    tradingsymbol: 'INFY',
    instrumentToken: 408065,
    tickSize: 0.05,
    product: 'MIS',
    side: 'BUY',
    quantity: 50,
    entry: aChild({ order: { ...aChild().order, transactionType: 'BUY', orderType: 'MARKET', triggerPrice: null } }),
    stop: aChild(),
    target: null,
    trail: null,
    best: null,
    trailMoves: 0,
    phase: 'waiting_entry',
    restoring: false,
    cancelRequested: false,
    exited: 0,
    held: null,
    otherReducing: null,
    unprotected: null,
    problem: null,
    outcome: null,
    doneAt: null,
    ...over,
  };
}

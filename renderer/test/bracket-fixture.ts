import type { Bracket, BracketChild } from '@shared/domain/bracket';

/** Brackets as main reports them, for the renderer's tests (docs/brackets.md §States). */

/** An INFY stop-loss for 50 at 1,480, planned; `over` changes any field. */
export function aChild(over: Partial<BracketChild> = {}): BracketChild {
  return {
    ref: 'tdb0123456789abcdefs',
    order: {
      exchange: 'NSE',
      tradingsymbol: 'INFY',
      transactionType: 'SELL',
      quantity: 50,
      orderType: 'SL-M',
      product: 'MIS',
      validity: 'DAY',
      price: null,
      triggerPrice: 1480,
    },
    orderId: null,
    status: 'planned',
    filled: 0,
    averagePrice: 0,
    message: null,
    pending: null,
    failures: 0,
    retryAt: null,
    gen: 0,
    ...over,
  };
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

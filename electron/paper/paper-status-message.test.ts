import { describe, expect, it } from 'vitest';
import { toUnits } from '@shared/trading/money';
import { Account } from './account';
import { generateInstruments } from './instruments';
import { Market } from './market';
import { Engine } from './matching';

/**
 * What an order's message says once it is done (docs/api.md §Matching): a partly filled order
 * that fills the rest reads COMPLETE with no leftover "Partly filled: n of m".
 */
const NOW = Date.parse('2026-11-25T11:00:00+05:30');
const INFY = generateInstruments(1, NOW).find((i) => i.exchange === 'NSE' && i.tradingsymbol === 'INFY')!;

describe('a partly filled order that completes', () => {
  it('no longer reads "Partly filled" once COMPLETE', () => {
    const market = new Market([INFY], 1, NOW);
    const engine = new Engine(market, new Account(toUnits(1e11)), { order() {}, trade() {} });
    market.onMoves((moves) => engine.onMoves(moves));
    const book = market.book(INFY.token)!;
    const offer = book.best('sell')!;
    // More than the whole offered side, limited at the touch: part fills now, the rest rests.
    const o = engine.place(
      {
        instrument: INFY,
        clientOrderId: null,
        transactionType: 'BUY',
        quantity: book.total('sell') + 500,
        orderType: 'LIMIT',
        product: 'MIS',
        validity: 'DAY',
        priceUnits: offer,
        triggerUnits: null,
      },
      NOW,
    );
    expect(o.status).toBe('OPEN');
    expect(o.statusMessage).toMatch(/^Partly filled: \d+ of \d+$/);

    // The price falls through the limit: the rest fills there.
    market.set(INFY.token, offer - 40 * INFY.tickUnits, NOW + 1_000);
    const done = engine.order(o.orderId)!;
    expect(done.status).toBe('COMPLETE');
    expect(done.statusMessage).toBeNull();
  });
});

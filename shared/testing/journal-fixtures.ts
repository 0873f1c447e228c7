import type { JournalTrade } from '../domain/journal';

/**
 * A closed trade as the journal reports it: long 10 INFY MIS, in at 1,500 at 09:20 IST and out at
 * 1,510 at 10:05 on 2026-11-23, ₹100 and no charges, no notes; tests override what they are about.
 */
export function aClosedTrade(over: Partial<JournalTrade> = {}): JournalTrade {
  return {
    id: 'NSE:INFY:MIS:o1',
    exchange: 'NSE',
    tradingsymbol: 'INFY',
    product: 'MIS',
    direction: 'long',
    quantity: 10,
    multiplier: 1,
    entryPrice: 1500,
    exitPrice: 1510,
    entryAt: Date.parse('2026-11-23T09:20:00+05:30'),
    exitAt: Date.parse('2026-11-23T10:05:00+05:30'),
    holdingMs: 45 * 60_000,
    pnl: 100,
    charges: 0,
    net: 100,
    entries: [],
    exits: [],
    notes: { tags: [], note: '', stopLoss: null },
    stopSource: null,
    rMultiple: null,
    hasPicture: false,
    ...over,
  };
}

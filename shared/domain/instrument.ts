import { z } from 'zod';

/**
 * Exchanges the app trades on (docs/contract.md §Trading rules).
 *
 * NSE/BSE are equity cash; NFO/BFO equity derivatives; MCX commodity; CDS currency.
 */
export const Exchange = z.enum(['NSE', 'BSE', 'NFO', 'BFO', 'MCX', 'CDS']);
export type Exchange = z.infer<typeof Exchange>;

/** EQ for cash equities, FUT for futures, CE/PE for call/put options. */
export const InstrumentType = z.enum(['EQ', 'FUT', 'CE', 'PE']);
export type InstrumentType = z.infer<typeof InstrumentType>;

/** A calendar date `YYYY-MM-DD` (an expiry), in exchange time. */
export const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');

/**
 * One tradable instrument, as the app sees it.
 *
 * `freezeQuantity` is the largest quantity one order may carry (the exchange's freeze limit);
 * `lotSize` is 1 for equities. `multiplier` turns price × quantity into rupees: 1 for equities
 * and most F&O, the contract size for MCX (GOLD is quoted per 10 g, traded per kg: 100) and CDS
 * (docs/api.md §GET /instruments).
 */
export const Instrument = z.object({
  instrumentToken: z.number().int().positive(),
  exchange: Exchange,
  tradingsymbol: z.string().min(1),
  name: z.string(),
  segment: z.string(),
  instrumentType: InstrumentType,
  lotSize: z.number().int().positive(),
  tickSize: z.number().positive(),
  freezeQuantity: z.number().int().positive(),
  multiplier: z.number().positive(),
  expiry: IsoDate.nullable(),
  strike: z.number().nonnegative().nullable(),
  lastPrice: z.number().nonnegative(),
});
export type Instrument = z.infer<typeof Instrument>;

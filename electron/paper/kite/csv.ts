import { fromUnits } from '@shared/trading/money';
import { kiteInstrumentsCsv } from '../../wire/kite-instruments-csv';
import type { PaperInstrument } from '../instruments';
import type { Market } from '../market';

/**
 * The instrument dump as Kite serves it (docs/kite.md §Instruments), in the codec the Kite
 * adapter parses it with: CSV with a header line, one instrument a line, `exchange_token` =
 * `instrument_token >> 8` as on Kite.
 */
export function instrumentsCsv(instruments: readonly PaperInstrument[], market: Market): string {
  return kiteInstrumentsCsv(
    instruments.map((i) => ({
      instrument_token: i.token,
      exchange_token: Math.floor(i.token / 256),
      tradingsymbol: i.tradingsymbol,
      name: i.name,
      last_price: fromUnits(market.ltp(i.token)),
      expiry: i.expiry ?? '',
      strike: i.strike ?? 0,
      tick_size: i.tickSize,
      lot_size: i.lotSize,
      instrument_type: i.instrumentType,
      segment: i.segment,
      exchange: i.exchange,
    })),
  );
}

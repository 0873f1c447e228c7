import { fromUnits } from '@shared/trading/money';
import type { PaperInstrument } from '../instruments';
import type { Market } from '../market';

/**
 * The instrument dump as Kite serves it (docs/kite.md §Instruments): CSV with a header line, one
 * instrument a line, `exchange_token` = `instrument_token >> 8` as on Kite.
 */

export const INSTRUMENT_COLUMNS = [
  'instrument_token',
  'exchange_token',
  'tradingsymbol',
  'name',
  'last_price',
  'expiry',
  'strike',
  'tick_size',
  'lot_size',
  'instrument_type',
  'segment',
  'exchange',
] as const;

/** One CSV field: quoted (quotes doubled) when it holds a comma, a quote or a line break. */
function field(v: string | number): string {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** The CSV text of `instruments`, priced at the market's last prices. */
export function instrumentsCsv(instruments: readonly PaperInstrument[], market: Market): string {
  const lines = [INSTRUMENT_COLUMNS.join(',')];
  for (const i of instruments) {
    lines.push(
      [
        i.token,
        Math.floor(i.token / 256),
        i.tradingsymbol,
        i.name,
        fromUnits(market.ltp(i.token)),
        i.expiry ?? '',
        i.strike ?? 0,
        i.tickSize,
        i.lotSize,
        i.instrumentType,
        i.segment,
        i.exchange,
      ]
        .map(field)
        .join(','),
    );
  }
  return lines.join('\n');
}

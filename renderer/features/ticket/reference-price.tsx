import type { Instrument } from '@shared/domain/instrument';
import { signClass } from '../../lib/format';
import { LivePrice } from '../market/live-price';
import { usePreviousClose } from '../market/queries';
import { changeFrom } from '../market/quote-cache';
import { useQuote } from '../market/use-quotes';
import { useMarketData } from '../session/use-market-data';

/** The live last price the trader prices against, with the day's change; stale when it stops. */
export function ReferencePrice({ instrument }: { readonly instrument: Instrument }) {
  const quote = useQuote(instrument.instrumentToken);
  const close = usePreviousClose(instrument.instrumentToken);
  const chg = changeFrom(close, quote?.lastPrice ?? instrument.lastPrice);
  return (
    <div className="ticket__ref" aria-label="Reference price">
      <span className="muted">LTP</span>
      <LivePrice
        quote={quote}
        fallback={instrument.lastPrice}
        tickSize={instrument.tickSize}
        testId="ticket-ltp"
        className="ticket__ltp"
        noMarketData={!useMarketData()}
      />
      {chg ? (
        <span className={signClass(chg.abs) || 'muted'}>
          {chg.abs > 0 ? '▲' : chg.abs < 0 ? '▼' : ''} {Math.abs(chg.pct).toFixed(2)}%
        </span>
      ) : null}
    </div>
  );
}

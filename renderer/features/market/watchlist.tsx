import { useMemo } from 'react';
import type { Instrument } from '../../../shared/domain/instrument';
import { formatPrice } from '../../lib/format';
import { useSettingsActions, useWatchlistTokens } from '../../state/settings-store';
import { useSelectedToken, useTicketActions } from '../../state/ticket-store';
import { useInstruments } from '../instruments/queries';
import { Panel } from '../layout/panel';
import { SymbolCombobox } from '../ticket/symbol-combobox';
import { useMarketSubscription } from './use-market-subscription';
import { useQuotes } from './use-quotes';

/** The first few NSE equities: a starting watchlist until the trader makes their own. */
function defaultTokens(list: readonly Instrument[]): number[] {
  return list
    .filter((i) => i.exchange === 'NSE' && i.instrumentType === 'EQ')
    .slice(0, 8)
    .map((i) => i.instrumentToken);
}

/**
 * Watched instruments with live last prices. Selecting a row makes it the instrument F1/F2
 * open a ticket for; B/S open one at once.
 */
export function Watchlist() {
  const { list, byToken } = useInstruments();
  const saved = useWatchlistTokens();
  const tokens = useMemo(() => saved ?? defaultTokens(list), [saved, list]);
  const quotes = useQuotes();
  const selected = useSelectedToken();
  const { instrumentSelected, ticketOpened } = useTicketActions();
  const { watchlistAdded, watchlistRemoved } = useSettingsActions();
  useMarketSubscription('watchlist', tokens);
  const rows = tokens.map((t) => byToken.get(t)).filter((i): i is Instrument => i !== undefined);

  return (
    <Panel title="Watchlist">
      <div className="watchlist__add">
        <SymbolCombobox
          label="Add to watchlist"
          instruments={list}
          value={undefined}
          onChoose={(i) => watchlistAdded(i.instrumentToken, tokens)}
        />
      </div>
      <div className="table-scroll">
        <table aria-label="Instruments" className="grid grid--watch">
          <thead>
            <tr>
              <th>Symbol</th>
              <th>Exch</th>
              <th className="num">LTP</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((i) => {
              const q = quotes[i.instrumentToken];
              return (
                <tr
                  key={i.instrumentToken}
                  aria-selected={selected === i.instrumentToken}
                  className={selected === i.instrumentToken ? 'is-selected' : undefined}
                  onClick={() => instrumentSelected(i.instrumentToken)}
                >
                  <td className="sym">{i.tradingsymbol}</td>
                  <td className="muted">{i.exchange}</td>
                  <td className="num" data-testid={`ltp-${i.tradingsymbol}`}>
                    {formatPrice(q?.lastPrice ?? i.lastPrice)}
                  </td>
                  <td className="row-actions" onClick={(e) => e.stopPropagation()}>
                    <button type="button" className="mini buy" aria-label={`Buy ${i.tradingsymbol}`} onClick={() => ticketOpened('BUY', i)}>
                      B
                    </button>
                    <button type="button" className="mini sell" aria-label={`Sell ${i.tradingsymbol}`} onClick={() => ticketOpened('SELL', i)}>
                      S
                    </button>
                    <button type="button" className="mini" aria-label={`Remove ${i.tradingsymbol}`} onClick={() => watchlistRemoved(i.instrumentToken, tokens)}>
                      ×
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}

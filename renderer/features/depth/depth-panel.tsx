import { useCallback, useEffect, useRef } from 'react';
import { formatPrice } from '../../lib/format';
import { useTicketActions, useTicketDraft } from '../ticket/ticket-store';
import { Panel } from '../layout/panel';
import { useMarketSubscription } from '../market/use-market-subscription';
import { useShownInstrument } from '../market/use-shown-instrument';
import { depthOf, spreadOf } from './book-model';
import { DepthLadder } from './depth-ladder';
import { SpreadText } from './spread-text';
import { useBook } from './use-book';
import { NeedsMarketData } from '../session/no-market-data';
import './depth.css';

/**
 * Market depth of the shown instrument (the selected one, as on the chart): the ladder of the
 * five best bids and offers with their quantities and orders, the totals of the whole book, and
 * the spread. The instrument streams in `full` mode while this panel is shown (owner `depth`),
 * so each tick moves the ladder. Clicking a price opens the ticket there as a LIMIT, on the
 * ticket's side (docs/renderer.md, "Market depth, sessions and the option chain on screen").
 *
 * On an account without market data it says so instead (docs/kite.md §The plan).
 */
export function DepthPanel() {
  return (
    <NeedsMarketData title="Depth" className="depth-panel" what="The order book’s bids and offers">
      <LiveDepthPanel />
    </NeedsMarketData>
  );
}

function LiveDepthPanel() {
  const { token, instrument } = useShownInstrument();
  useMarketSubscription('depth', token === null ? [] : [token], 'full');
  const book = useBook(token);
  const side = useTicketDraft().side;
  const { ticketOpened, draftEdited } = useTicketActions();

  // One callback for the panel's life, reading the latest instrument and side: the ladder's
  // levels are memoised on it.
  const latest = useRef({ instrument, side });
  useEffect(() => {
    latest.current = { instrument, side };
  });
  const pick = useCallback(
    (price: number) => {
      const { instrument: i, side: s } = latest.current;
      if (!i) return;
      ticketOpened(s, i);
      draftEdited({ orderType: 'LIMIT', price: String(price), triggerPrice: '' });
    },
    [ticketOpened, draftEdited],
  );

  const tick = instrument?.tickSize ?? 0.05;
  const spread = book ? spreadOf(book.bid, book.ask, tick) : null;
  return (
    <Panel
      title="Depth"
      className="depth-panel"
      actions={
        instrument ? (
          <span className="depth__head" data-testid="depth-instrument">
            <strong>{instrument.tradingsymbol}</strong> <span className="muted depth__exch">{instrument.exchange}</span>
            {spread ? (
              <>
                {' · '}
                <SpreadText spread={spread} tickSize={tick} />
              </>
            ) : null}
          </span>
        ) : null
      }
    >
      {!instrument ? (
        <p className="empty">Select an instrument on the watchlist</p>
      ) : book === null ? (
        <p className="empty">Loading depth…</p>
      ) : (
        <>
          <DepthLadder
            depth={depthOf(book)}
            totalBuyQuantity={book.totalBuyQuantity}
            totalSellQuantity={book.totalSellQuantity}
            tickSize={tick}
            onPick={pick}
          />
          {book.depth === null ? (
            <p className="empty small">
              Best bid {formatPrice(book.bid, tick)} · offer {formatPrice(book.ask, tick)} — the levels arrive with the
              next tick
            </p>
          ) : null}
        </>
      )}
    </Panel>
  );
}

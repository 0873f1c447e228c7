import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { JournalTrade } from '@shared/domain/journal';
import { describeError } from '../../lib/describe-error';
import {
  formatIstDateTime,
  formatIstTime,
  formatPnl,
  formatPrice,
  formatQty,
  formatRupees,
  signClass,
} from '../../lib/format';
import { parseNumber } from '../ticket/ticket-model';
import { formatHolding, formatR, parseTags } from './journal-model';
import { journalQueries, useSaveNotes } from './queries';
import { symbolKey, useInstruments } from '../instruments/queries';
import { GridTable, num, type Column } from '../layout/grid-table';

const COLUMNS: readonly Column[] = [
  'Exit',
  'Symbol',
  'Side',
  num('Qty'),
  num('Entry'),
  num('Exit'),
  num('Held'),
  num('P&L'),
  num('Charges'),
  num('Net'),
  num('R'),
  'Tags',
];

/**
 * The closed trades of the day or month shown (docs/journal.md), newest exit first: time,
 * instrument, direction, quantity, entry and exit, holding time, P&L, charges, net, R and tags.
 * Choosing one opens it: its fills, the chart as it was at the exit, and its tags, note and
 * stop-loss to edit.
 */
export function JournalTrades(props: {
  readonly trades: readonly JournalTrade[];
  readonly title: string;
  readonly selected: string | null;
  readonly onSelect: (id: string | null) => void;
}) {
  const chosen = props.trades.find((t) => t.id === props.selected) ?? null;
  const tickOf = useTickOf();
  return (
    <section className="jtrades" aria-label="Closed trades">
      <h3 className="strategy__subhead">{props.title}</h3>
      <div className="table-scroll jtrades__scroll">
        <GridTable
          label="Closed trades"
          columns={COLUMNS}
          rows={props.trades}
          none="No closed trades here"
          row={(t) => (
            <tr
              key={t.id}
              className={t.id === props.selected ? 'is-selected' : undefined}
              data-testid="journal-trade"
              aria-selected={t.id === props.selected}
            >
              <td>
                <button
                  type="button"
                  className="link"
                  onClick={() => props.onSelect(t.id === props.selected ? null : t.id)}
                >
                  {formatIstDateTime(t.exitAt)}
                </button>
              </td>
              <td className="sym">{t.tradingsymbol}</td>
              <td>{t.direction === 'long' ? 'Long' : 'Short'}</td>
              <td className="num">{formatQty(t.quantity)}</td>
              <td className="num">{formatPrice(t.entryPrice, tickOf(t))}</td>
              <td className="num">{formatPrice(t.exitPrice, tickOf(t))}</td>
              <td className="num">{formatHolding(t.holdingMs)}</td>
              <td className={`num ${signClass(t.pnl)}`}>{formatPnl(t.pnl)}</td>
              <td className="num">{formatRupees(t.charges)}</td>
              <td className={`num ${signClass(t.net)}`} data-testid="journal-trade-net">
                {formatPnl(t.net)}
              </td>
              <td className={`num ${signClass(t.rMultiple ?? 0)}`}>{formatR(t.rMultiple)}</td>
              <td className="small">{t.notes.tags.join(', ')}</td>
            </tr>
          )}
        />
      </div>
      {chosen ? <TradeDetail key={chosen.id} trade={chosen} onClose={() => props.onSelect(null)} /> : null}
    </section>
  );
}

/**
 * A trade's prices read in the decimals of its instrument's tick (an average of fills is between
 * ticks: 1,414.365 reads 1,414.37); an instrument no longer listed keeps up to four decimals.
 */
function useTickOf(): (t: Pick<JournalTrade, 'exchange' | 'tradingsymbol'>) => number | undefined {
  const { bySymbol } = useInstruments();
  return (t) => bySymbol.get(symbolKey(t.exchange, t.tradingsymbol))?.tickSize;
}

/** One trade opened: its fills, the chart at the exit, and its notes to edit. */
function TradeDetail({ trade, onClose }: { readonly trade: JournalTrade; readonly onClose: () => void }) {
  const save = useSaveNotes();
  const tick = useTickOf()(trade);
  const picture = useQuery({ ...journalQueries.picture(trade.id), enabled: trade.hasPicture });
  const [tags, setTags] = useState(trade.notes.tags.join(', '));
  const [note, setNote] = useState(trade.notes.note);
  const [stop, setStop] = useState(trade.notes.stopLoss === null ? '' : String(trade.notes.stopLoss));
  const stopValue = stop.trim() === '' ? null : parseNumber(stop);
  const stopError = stopValue !== null && !(stopValue > 0) ? 'Enter a price, or leave it empty' : null;
  const submit = (): void => {
    if (stopError) return;
    save.mutate({ tradeId: trade.id, notes: { tags: parseTags(tags), note, stopLoss: stopValue } });
  };
  return (
    <article className="jdetail" aria-label={`Trade ${trade.tradingsymbol} exited ${formatIstDateTime(trade.exitAt)}`}>
      <header className="jdetail__head">
        <h4>
          {trade.direction === 'long' ? 'Long' : 'Short'} {formatQty(trade.quantity)} {trade.tradingsymbol}{' '}
          <span className={`num ${signClass(trade.net)}`}>net {formatPnl(trade.net)}</span>
        </h4>
        <button type="button" className="mini" onClick={onClose}>
          Close
        </button>
      </header>
      <div className="jdetail__body">
        <div className="jdetail__picture">
          {trade.hasPicture ? (
            picture.data ? (
              <img
                src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(picture.data.svg)}`}
                alt={`The ${trade.tradingsymbol} chart at the exit, ${formatIstDateTime(trade.exitAt)}, with the entries and the exit marked`}
              />
            ) : (
              <p className="muted small">
                {picture.error ? `Picture not read: ${describeError(picture.error)}` : 'Loading the picture…'}
              </p>
            )
          ) : (
            <p className="muted small">No picture: it is taken at the exit while the desk is running.</p>
          )}
          <ul className="jdetail__fills small">
            {trade.entries.map((p, n) => (
              <li key={`e${n}`}>
                Entry {formatIstTime(p.at)} · {formatQty(p.quantity)} @ {formatPrice(p.price, tick)}
                {p.carried ? ' (carried in at the previous close)' : ''}
              </li>
            ))}
            {trade.exits.map((p, n) => (
              <li key={`x${n}`}>
                Exit {formatIstTime(p.at)} · {formatQty(p.quantity)} @ {formatPrice(p.price, tick)}
              </li>
            ))}
          </ul>
        </div>
        <form
          className="jdetail__form"
          aria-label="Trade notes"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <label>
            Tags <span className="muted small">(comma between them)</span>
            <input value={tags} onChange={(e) => setTags(e.target.value)} placeholder="breakout, gap up" autoFocus />
          </label>
          <label>
            Stop-loss <span className="muted small">(for the R multiple)</span>
            <input
              inputMode="decimal"
              value={stop}
              aria-invalid={stopError !== null}
              aria-describedby={stopError ? `${trade.id}-stop-error` : undefined}
              onChange={(e) => setStop(e.target.value)}
            />
            {stopError ? (
              <span className="field-error" id={`${trade.id}-stop-error`}>
                {stopError}
              </span>
            ) : trade.stopSource === 'order' ? (
              <span className="muted small">From the trade's stop order</span>
            ) : null}
          </label>
          <label>
            Note
            <textarea rows={4} value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
          </label>
          <div className="form__buttons">
            <button type="submit" className="primary" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save'}
            </button>
            {save.isSuccess ? (
              <span className="small" role="status">
                Saved
              </span>
            ) : null}
            {save.error ? (
              <span className="inline-error small" role="alert">
                Not saved: {describeError(save.error)}
              </span>
            ) : null}
          </div>
        </form>
      </div>
    </article>
  );
}

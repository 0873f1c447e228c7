import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { dayTotals } from '@shared/journal/stats';
import { journalCsv } from '@shared/journal/journal-csv';
import { istDate } from '@shared/lib/ist-time';
import { AppError } from '@shared/ipc/app-error';
import { describeError } from '../../lib/describe-error';
import { downloadText } from '../../lib/download';
import { formatIstDateTime } from '../../lib/format';
import { useClock } from '../../lib/use-now';
import { Dialog } from '../layout/dialog';
import { EquityCurve } from './equity-curve';
import { JournalCalendar } from './journal-calendar';
import { JournalImport } from './journal-import';
import { dayName, monthName, monthStep, tradesIn } from './journal-model';
import { JournalStats } from './journal-stats';
import { JournalTrades } from './journal-trades';
import { journalQueries, useJournalEvents, useJournalSync, useMoveJournalAside } from './queries';
import '../strategy/strategy.css';
import './journal.css';

/**
 * The trader's journal (docs/journal.md): a calendar of the month's days by net P&L with the
 * month's total, the equity curve, statistics by tag, instrument, weekday and time of day, and the
 * closed trades of the day or month chosen — each with its fills, the chart at its exit and the
 * trader's tags, note and stop-loss. Sync reads the broker's trade book now (main also does after
 * fills); Import takes a Console tradebook; Export writes the trades shown as CSV.
 */
/** Main said the journal's file is damaged (docs/journal.md §A damaged journal): it may be moved aside. */
const isDamaged = (error: unknown): boolean =>
  error instanceof AppError && error.info.kind === 'conflict' && error.info.field === 'journal';

export function JournalScreen({ onClose }: { readonly onClose: () => void }) {
  useJournalEvents();
  const moveAside = useMoveJournalAside();
  const clock = useClock();
  const view = useQuery(journalQueries.view());
  const sync = useJournalSync();
  const trades = view.data?.trades ?? [];
  const newest = trades[0] ? istDate(trades[0].exitAt).slice(0, 7) : istDate(clock.now()).slice(0, 7);
  const [month, setMonth] = useState<string | null>(null);
  const shown = month ?? newest;
  const [day, setDay] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const monthTrades = tradesIn(trades, shown);
  const listed = day ? tradesIn(trades, day) : monthTrades;
  const totals = dayTotals(trades);
  const go = (step: number): void => {
    setMonth(monthStep(shown, step));
    setDay(null);
  };

  return (
    <Dialog title="Journal" onClose={onClose} screen>
      <div className="journal">
        <div className="strategy__bar">
          <button type="button" aria-label="Previous month" data-autofocus onClick={() => go(-1)}>
            ‹
          </button>
          <h3 className="journal__month" aria-live="polite">
            {monthName(shown)}
          </h3>
          <button type="button" aria-label="Next month" onClick={() => go(1)}>
            ›
          </button>
          <span className="strategy__sep" />
          <button type="button" disabled={sync.isPending} onClick={() => sync.mutate()}>
            {sync.isPending ? 'Reading the trade book…' : 'Sync now'}
          </button>
          <span className="muted small" data-testid="journal-synced">
            {view.data?.syncedAt
              ? `Trade book read ${formatIstDateTime(view.data.syncedAt)}`
              : 'Trade book not read yet'}
            {sync.data ? ` · ${sync.data.added} new fill${sync.data.added === 1 ? '' : 's'}` : ''}
          </span>
          {sync.error ? (
            <span role="alert" className="inline-error small">
              Sync failed: {describeError(sync.error)}
            </span>
          ) : null}
          <span className="strategy__sep" />
          <JournalImport />
          <button
            type="button"
            disabled={listed.length === 0}
            onClick={() => downloadText(`tradedesk-journal-${day ?? shown}.csv`, journalCsv(listed))}
          >
            Export CSV
          </button>
        </div>
        {view.data === undefined ? (
          <div className="muted">
            <p role={view.error ? 'alert' : undefined}>
              {view.error ? `The journal could not be read: ${describeError(view.error)}` : 'Reading the journal…'}
            </p>
            {isDamaged(view.error) ? (
              <button type="button" disabled={moveAside.isPending} onClick={() => moveAside.mutate()}>
                Move it aside and start a new journal
              </button>
            ) : null}
            {moveAside.error ? (
              <p role="alert" className="inline-error small">
                Not moved: {describeError(moveAside.error)}
              </p>
            ) : null}
          </div>
        ) : (
          <div className="journal__main">
            <div className="journal__left">
              <JournalCalendar
                month={shown}
                totals={totals}
                selected={day}
                onSelect={(d) => {
                  setDay(d);
                  setSelected(null);
                }}
              />
              <h3 className="strategy__subhead">Equity curve · every closed trade</h3>
              <EquityCurve trades={trades} />
            </div>
            <div className="journal__right">
              <JournalStats trades={monthTrades} />
              <JournalTrades
                trades={listed}
                title={day ? `Trades closed ${dayName(day)}` : `Trades closed in ${monthName(shown)}`}
                selected={selected}
                onSelect={setSelected}
              />
            </div>
          </div>
        )}
      </div>
    </Dialog>
  );
}

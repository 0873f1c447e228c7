import { formatPnl, signClass } from '../../lib/format';
import type { DayTotal } from '@shared/journal/stats';
import { monthGrid } from '@shared/journal/stats';
import { dayName, formatDayNet } from './journal-model';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/**
 * The month as a calendar (docs/journal.md §The calendar): each day's net P&L after charges,
 * tinted by its sign and size against the month's largest day — and written with its sign, so
 * colour is never the only way to tell a green day from a red one. A day with trades is a button
 * that shows its trades; the month's total is under the grid.
 */
export function JournalCalendar(props: {
  readonly month: string;
  readonly totals: ReadonlyMap<string, DayTotal>;
  readonly selected: string | null;
  readonly onSelect: (date: string | null) => void;
}) {
  const grid = monthGrid(props.month, props.totals);
  let largest = 0;
  for (const [date, t] of props.totals) if (date.startsWith(props.month)) largest = Math.max(largest, Math.abs(t.net));
  return (
    <div className="jcal">
      <table className="jcal__grid" aria-label="P&L calendar">
        <thead>
          <tr>
            {WEEKDAYS.map((d) => (
              <th key={d} scope="col">
                {d}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {grid.weeks.map((week, w) => (
            <tr key={w}>
              {week.map((date, d) => {
                if (!date) return <td key={d} className="jcal__pad" />;
                const t = props.totals.get(date);
                const day = Number(date.slice(8));
                if (!t) {
                  return (
                    <td key={d} className="jcal__day jcal__day--none">
                      <span className="jcal__date">{day}</span>
                    </td>
                  );
                }
                // Tint strength: a day's share of the month's largest, never so faint it disappears.
                const strength = largest > 0 ? 0.25 + 0.75 * (Math.abs(t.net) / largest) : 0.25;
                return (
                  <td key={d} className={`jcal__day jcal__day--${t.net > 0 ? 'up' : t.net < 0 ? 'down' : 'flat'}`}>
                    <button
                      type="button"
                      style={{ ['--strength' as string]: strength.toFixed(2) }}
                      aria-pressed={props.selected === date}
                      aria-label={`${dayName(date)}: net ${formatPnl(t.net)} from ${t.trades} trade${t.trades === 1 ? '' : 's'}`}
                      data-testid={`jcal-${date}`}
                      onClick={() => props.onSelect(props.selected === date ? null : date)}
                    >
                      <span className="jcal__date">{day}</span>
                      <span className={`jcal__net num ${signClass(t.net)}`} title={formatPnl(t.net)}>
                        {formatDayNet(t.net)}
                      </span>
                      <span className="jcal__count">
                        {t.trades} trade{t.trades === 1 ? '' : 's'}
                      </span>
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="jcal__total">
        Month:{' '}
        <strong className={`num ${signClass(grid.net)}`} data-testid="jcal-month-net">
          {formatPnl(grid.net)}
        </strong>{' '}
        <span className="muted">
          net after charges · {grid.trades} trade{grid.trades === 1 ? '' : 's'}
        </span>
      </p>
    </div>
  );
}

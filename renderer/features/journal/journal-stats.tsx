import { useState } from 'react';
import type { JournalTrade } from '@shared/domain/journal';
import { statsBy, tradeStats, type Grouping, type TradeStats } from '@shared/journal/stats';
import { formatPnl, formatRupees, signClass } from '../../lib/format';

const GROUPINGS: ReadonlyArray<readonly [Grouping, string]> = [
  ['tag', 'Tag'],
  ['instrument', 'Instrument'],
  ['weekday', 'Weekday'],
  ['hour', 'Time of day'],
];

/**
 * Statistics of the trades shown (docs/journal.md §Statistics), all of them and by tag,
 * instrument, weekday or time of day of the entry: trades, win rate, average win and loss,
 * expectancy, profit factor, maximum drawdown and net — every figure after charges.
 */
export function JournalStats({ trades }: { readonly trades: readonly JournalTrade[] }) {
  const [grouping, setGrouping] = useState<Grouping>('tag');
  const rows = [{ group: 'All trades', stats: tradeStats(trades) }, ...statsBy(trades, grouping)];
  return (
    <section className="jstats" aria-label="Statistics">
      <div className="jstats__bar">
        <h3 className="strategy__subhead">Statistics</h3>
        <label className="small">
          By{' '}
          <select
            aria-label="Group statistics by"
            value={grouping}
            onChange={(e) => setGrouping(e.target.value as Grouping)}
          >
            {GROUPINGS.map(([g, name]) => (
              <option key={g} value={g}>
                {name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="table-scroll">
        <table className="grid jstats__table" aria-label="Statistics by group">
          <thead>
            <tr>
              <th scope="col">Group</th>
              <th className="num">Trades</th>
              <th className="num">Win rate</th>
              <th className="num">Avg win</th>
              <th className="num">Avg loss</th>
              <th className="num" title="Mean net per trade">
                Expectancy
              </th>
              <th className="num" title="Gross wins over gross losses">
                Profit factor
              </th>
              <th className="num" title="The deepest fall from a high of the running net">
                Max drawdown
              </th>
              <th className="num">Net</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ group, stats }, n) => (
              <StatsRow key={`${n}:${group}`} group={group} stats={stats} total={n === 0} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function StatsRow({
  group,
  stats,
  total,
}: {
  readonly group: string;
  readonly stats: TradeStats;
  readonly total: boolean;
}) {
  const money = (v: number | null): string => (v === null ? '–' : formatPnl(v));
  return (
    <tr className={total ? 'jstats__total' : undefined}>
      <th scope="row">{group}</th>
      <td className="num">{stats.trades}</td>
      <td className="num">{stats.winRate === null ? '–' : `${(stats.winRate * 100).toFixed(0)}%`}</td>
      <td className={`num ${stats.averageWin === null ? '' : 'up'}`}>{money(stats.averageWin)}</td>
      <td className={`num ${stats.averageLoss === null ? '' : 'down'}`}>{money(stats.averageLoss)}</td>
      <td className={`num ${signClass(stats.expectancy ?? 0)}`}>{money(stats.expectancy)}</td>
      <td className="num">
        {stats.profitFactor === null ? (stats.wins > 0 ? 'no losses' : '–') : stats.profitFactor.toFixed(2)}
      </td>
      <td className="num">{stats.maxDrawdown > 0 ? `−${formatRupees(stats.maxDrawdown)}` : formatRupees(0)}</td>
      <td className={`num ${signClass(stats.net)}`}>{formatPnl(stats.net)}</td>
    </tr>
  );
}

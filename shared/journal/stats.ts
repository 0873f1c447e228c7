import type { ClosedTrade, JournalTrade } from '../domain/journal';
import { IST_OFFSET_MS, istDate } from '../lib/ist-time';

/**
 * The journal's figures (docs/journal.md §Statistics): a calendar of days by net P&L, the equity
 * curve, and per group of trades the win rate, average win and loss, expectancy, profit factor and
 * maximum drawdown. Every figure is after charges (`net`). Pure, so the table tests pin them.
 */

/** The R multiple: gross P&L over the rupees at risk to the stop; null without a stop on the losing side of the entry. */
export function rMultiple(
  t: Pick<ClosedTrade, 'direction' | 'entryPrice' | 'quantity' | 'multiplier' | 'pnl'>,
  stop: number | null,
): number | null {
  if (stop === null) return null;
  const perUnit = t.direction === 'long' ? t.entryPrice - stop : stop - t.entryPrice;
  if (!(perUnit > 0)) return null;
  return t.pnl / (perUnit * t.quantity * t.multiplier);
}

/** One day of the calendar: the trades that exited that IST day. */
export interface DayTotal {
  readonly date: string;
  readonly trades: number;
  readonly net: number;
}

/** Net P&L per IST day of exit. */
export function dayTotals(trades: readonly Pick<ClosedTrade, 'exitAt' | 'net'>[]): Map<string, DayTotal> {
  const days = new Map<string, DayTotal>();
  for (const t of trades) {
    const date = istDate(t.exitAt);
    const d = days.get(date);
    days.set(date, { date, trades: (d?.trades ?? 0) + 1, net: (d?.net ?? 0) + t.net });
  }
  return days;
}

/**
 * A month as the calendar lays it out: weeks from Monday, each day its date (null outside the
 * month), and the month's total.
 */
export function monthGrid(
  month: string,
  totals: ReadonlyMap<string, DayTotal>,
): { readonly weeks: ReadonlyArray<ReadonlyArray<string | null>>; readonly net: number; readonly trades: number } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(y, m - 1, 1));
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const lead = (first.getUTCDay() + 6) % 7;
  const cells: (string | null)[] = Array.from({ length: lead }, () => null);
  let net = 0;
  let trades = 0;
  for (let d = 1; d <= days; d++) {
    const date = `${month}-${String(d).padStart(2, '0')}`;
    cells.push(date);
    const t = totals.get(date);
    if (t) {
      net += t.net;
      trades += t.trades;
    }
  }
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return { weeks, net, trades };
}

/** Cumulative net P&L after each trade, in exit order, starting from zero. */
export function equityCurve(trades: readonly Pick<ClosedTrade, 'exitAt' | 'net'>[]): { at: number; equity: number }[] {
  const sorted = [...trades].sort((a, b) => a.exitAt - b.exitAt);
  let equity = 0;
  return sorted.map((t) => {
    equity += t.net;
    return { at: t.exitAt, equity };
  });
}

/** A group's figures. */
export interface TradeStats {
  readonly trades: number;
  readonly wins: number;
  readonly losses: number;
  /** Wins ÷ trades (0…1); null without trades. */
  readonly winRate: number | null;
  /** Mean net of the winners (positive), of the losers (negative); null without any. */
  readonly averageWin: number | null;
  readonly averageLoss: number | null;
  /** Mean net per trade: what one more trade like these is worth. */
  readonly expectancy: number | null;
  /** Gross wins ÷ gross losses; null without losses (nothing to divide by). */
  readonly profitFactor: number | null;
  /** The deepest fall of the cumulative net from a high, in rupees (≥ 0), trades in exit order. */
  readonly maxDrawdown: number;
  readonly net: number;
}

/** The figures of a set of trades. */
export function tradeStats(trades: readonly Pick<ClosedTrade, 'exitAt' | 'net'>[]): TradeStats {
  let wins = 0;
  let losses = 0;
  let won = 0;
  let lost = 0;
  for (const t of trades) {
    if (t.net > 0) {
      wins++;
      won += t.net;
    } else if (t.net < 0) {
      losses++;
      lost += t.net;
    }
  }
  let peak = 0;
  let drawdown = 0;
  for (const p of equityCurve(trades)) {
    peak = Math.max(peak, p.equity);
    drawdown = Math.max(drawdown, peak - p.equity);
  }
  const n = trades.length;
  return {
    trades: n,
    wins,
    losses,
    winRate: n ? wins / n : null,
    averageWin: wins ? won / wins : null,
    averageLoss: losses ? lost / losses : null,
    expectancy: n ? (won + lost) / n : null,
    profitFactor: losses ? won / -lost : null,
    maxDrawdown: drawdown,
    net: won + lost,
  };
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** The ways the statistics can be grouped. */
export type Grouping = 'tag' | 'instrument' | 'weekday' | 'hour';

/**
 * The trades' statistics per group, groups in a natural order: tags and instruments by net
 * (best first), weekdays Monday first, hours of the day in order. Weekday and hour are of the
 * entry (when the decision was taken), in IST; a trade with several tags counts under each, one
 * with none under "Untagged".
 */
export function statsBy(
  trades: readonly JournalTrade[],
  grouping: Grouping,
): { readonly group: string; readonly stats: TradeStats }[] {
  const groups = new Map<string, JournalTrade[]>();
  const add = (key: string, t: JournalTrade): void => {
    const list = groups.get(key);
    if (list) list.push(t);
    else groups.set(key, [t]);
  };
  for (const t of trades) {
    if (grouping === 'tag') {
      if (t.notes.tags.length === 0) add('Untagged', t);
      for (const tag of new Set(t.notes.tags)) add(tag, t);
    } else if (grouping === 'instrument') add(t.tradingsymbol, t);
    else {
      const local = new Date(t.entryAt + IST_OFFSET_MS);
      if (grouping === 'weekday') add(WEEKDAYS[(local.getUTCDay() + 6) % 7]!, t);
      else {
        const h = local.getUTCHours();
        add(`${String(h).padStart(2, '0')}:00–${String(h + 1).padStart(2, '0')}:00`, t);
      }
    }
  }
  const rows = [...groups].map(([group, list]) => ({ group, stats: tradeStats(list) }));
  if (grouping === 'weekday')
    rows.sort((a, b) => WEEKDAYS.indexOf(a.group as never) - WEEKDAYS.indexOf(b.group as never));
  else if (grouping === 'hour') rows.sort((a, b) => (a.group < b.group ? -1 : 1));
  else rows.sort((a, b) => b.stats.net - a.stats.net || (a.group < b.group ? -1 : 1));
  return rows;
}

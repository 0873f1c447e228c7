import type { JournalTrade } from '@shared/domain/journal';
import { istDate } from '@shared/lib/ist-time';

/**
 * The journal screen's choices, without React (docs/journal.md): which month and day are shown,
 * how a holding time and tags read.
 */

/** `2026-11` → `2026-12` (`step` months on, negative for back). */
export function monthStep(month: string, step: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + step, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

const MONTH = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const DAY = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });

/** "November 2026". */
export function monthName(month: string): string {
  return MONTH.format(Date.parse(`${month}-01T00:00:00Z`));
}

/** "Mon 23 Nov". */
export function dayName(date: string): string {
  return DAY.format(Date.parse(`${date}T00:00:00Z`));
}

/** The trades that exited on an IST day, or in a month (`2026-11`). */
export function tradesIn(trades: readonly JournalTrade[], period: string): JournalTrade[] {
  return trades.filter((t) => istDate(t.exitAt).startsWith(period));
}

/** A holding time as a trader says it: 45 s, 12 min, 3 h 05 min, 2 d 4 h. */
export function formatHolding(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h ${String(m % 60).padStart(2, '0')} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** Tags as typed ("breakout, gap up") → the list, each trimmed, empty ones and repeats dropped. */
export function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== ''),
    ),
  ];
}

const WHOLE_RUPEES = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 });

/** A day's net in whole rupees with its sign (+₹1,235 / −₹320): a calendar cell's figure. */
export function formatDayNet(value: number): string {
  const rounded = Math.round(value);
  const text = WHOLE_RUPEES.format(Math.abs(rounded));
  return rounded > 0 ? `+${text}` : rounded < 0 ? `−${text}` : text;
}

/** An R multiple with its sign written: +2.4R, −1.0R, or "–". */
export function formatR(r: number | null): string {
  if (r === null) return '–';
  const text = `${Math.abs(r).toFixed(1)}R`;
  return r > 0 ? `+${text}` : r < 0 ? `−${text}` : text;
}

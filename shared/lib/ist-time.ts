/**
 * Exchange time (IST, UTC+05:30) formatting.
 *
 * The wire contract (docs/api.md §Numbers and money units) writes every time as ISO 8601 with the
 * exchange's offset, not in UTC: a trader reads `09:15` as the open, and candle buckets start on IST minute/day
 * boundaries. India has no daylight saving, so a fixed offset is exact. No Node imports: the
 * renderer uses this too.
 */

/** The IST offset from UTC, in milliseconds. */
export const IST_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** Formats an instant as `2026-11-20T09:15:00+05:30` (whole seconds; sub-second digits dropped). */
export function toIstIso(at: Date | number): string {
  const ms = typeof at === 'number' ? at : at.getTime();
  const d = new Date(ms + IST_OFFSET_MS);
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}+05:30`
  );
}

/** The IST calendar date `YYYY-MM-DD` of an instant (what an expiry or a day candle is keyed by). */
export function istDate(at: Date | number): string {
  return toIstIso(at).slice(0, 10);
}

/** Milliseconds since the epoch of the IST midnight that starts the instant's IST day. */
export function istDayStart(at: Date | number): number {
  const ms = typeof at === 'number' ? at : at.getTime();
  const day = 24 * 60 * 60 * 1000;
  return Math.floor((ms + IST_OFFSET_MS) / day) * day - IST_OFFSET_MS;
}

/** The first instant strictly after `at` whose IST time of day is `msAfterMidnight` (a daily cut-off). */
export function nextIstTimeOfDay(at: number, msAfterMidnight: number): number {
  const today = istDayStart(at) + msAfterMidnight;
  return at < today ? today : today + 24 * 60 * 60 * 1000;
}

/** Parses an ISO 8601 time (any offset) to epoch ms; NaN when it is not one. */
export function parseIso(text: string): number {
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(text)) return Number.NaN;
  return Date.parse(text.length === 10 ? `${text}T00:00:00+05:30` : text);
}

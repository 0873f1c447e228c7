import type { Candle } from '../domain/market';
import type { ClosedTrade } from '../domain/journal';
import { toIstIso } from '../lib/ist-time';

/**
 * The chart as it was at a trade's exit, as a picture (docs/journal.md §The chart at the exit):
 * the instrument's candles up to the exit, the entries and the exit marked at their prices and
 * times, drawn as a self-contained SVG the journal keeps. Presentation attributes only (no script,
 * no style sheet, no external reference), so it is inert wherever it is shown.
 */

/** The bars drawn: the last ones up to the exit (an hour and a half of minutes). */
const MAX_BARS = 90;
const W = 640;
const H = 300;
const PAD = { left: 8, right: 64, top: 28, bottom: 22 };
const UP = '#26c281';
const DOWN = '#f0565c';

const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const n = (v: number): string => (Math.round(v * 10) / 10).toString();

/** The candle a moment falls in: the last one opening at or before it (the first if before them all). */
function candleAt(times: readonly number[], at: number): number {
  let i = 0;
  while (i + 1 < times.length && times[i + 1]! <= at) i++;
  return i;
}

/** The picture, or null without candles to draw. */
export function chartPicture(
  candles: readonly Candle[],
  trade: Pick<ClosedTrade, 'tradingsymbol' | 'direction' | 'entries' | 'exits' | 'exitAt' | 'net'>,
): string | null {
  const bars = candles.filter((c) => Date.parse(c.ts) <= trade.exitAt).slice(-MAX_BARS);
  if (bars.length === 0) return null;
  const times = bars.map((c) => Date.parse(c.ts));
  const prices = [...trade.entries, ...trade.exits].map((p) => p.price);
  const lo = Math.min(...bars.map((c) => c.low), ...prices);
  const hi = Math.max(...bars.map((c) => c.high), ...prices);
  const span = hi - lo || Math.max(1, hi * 0.001);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const step = plotW / bars.length;
  const x = (i: number): number => PAD.left + step * (i + 0.5);
  const y = (p: number): number => PAD.top + (1 - (p - (lo - span * 0.05)) / (span * 1.1)) * plotH;
  const body = Math.max(1, Math.min(9, step * 0.7));

  const parts: string[] = [];
  parts.push(`<rect width="${W}" height="${H}" fill="#0f1520"/>`);
  for (const v of [lo, lo + span / 2, hi]) {
    parts.push(
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${n(y(v))}" y2="${n(y(v))}" stroke="#243049" stroke-width="1"/>`,
    );
    parts.push(
      `<text x="${W - PAD.right + 6}" y="${n(y(v) + 4)}" fill="#8391a9" font-size="11" font-family="sans-serif">${v.toFixed(2)}</text>`,
    );
  }
  bars.forEach((c, i) => {
    const colour = c.close >= c.open ? UP : DOWN;
    const top = y(Math.max(c.open, c.close));
    const height = Math.max(1, y(Math.min(c.open, c.close)) - top);
    parts.push(`<line x1="${n(x(i))}" x2="${n(x(i))}" y1="${n(y(c.high))}" y2="${n(y(c.low))}" stroke="${colour}"/>`);
    parts.push(
      `<rect x="${n(x(i) - body / 2)}" y="${n(top)}" width="${n(body)}" height="${n(height)}" fill="${colour}"/>`,
    );
  });
  // Fills at one candle and price are one marker with their quantity. Entries are triangles
  // (pointing the way the trade went in) labelled to the marker's left; exits are squares
  // labelled to its right, so an entry and an exit on the same candle never make one blob.
  const groups = new Map<string, { kind: 'entry' | 'exit'; i: number; price: number; qty: number }>();
  const add = (p: { at: number; price: number; quantity: number }, kind: 'entry' | 'exit'): void => {
    const i = candleAt(times, p.at);
    const key = `${kind}:${i}:${p.price}`;
    const g = groups.get(key);
    if (g) g.qty += p.quantity;
    else groups.set(key, { kind, i, price: p.price, qty: p.quantity });
  };
  for (const p of trade.entries) add(p, 'entry');
  for (const p of trade.exits) add(p, 'exit');
  for (const g of groups.values()) {
    const buy = (g.kind === 'entry') === (trade.direction === 'long');
    const cx = x(g.i);
    const cy = y(g.price);
    const colour = g.kind === 'entry' ? '#4c8dff' : '#e8a93a';
    const shape =
      g.kind === 'entry'
        ? buy
          ? `<path d="M${n(cx - 7)},${n(cy)}l-9,6v-12z" fill="${colour}" stroke="#0f1520" stroke-width="1"/>`
          : `<path d="M${n(cx - 7)},${n(cy)}l-9,-6v12z" fill="${colour}" stroke="#0f1520" stroke-width="1"/>`
        : `<path d="M${n(cx + 3)},${n(cy - 4)}h8v8h-8z" fill="${colour}" stroke="#0f1520" stroke-width="1"/>`;
    parts.push(shape);
    // A dotted tick from the marker to the candle, so the price it points at reads exactly.
    parts.push(
      `<line x1="${n(g.kind === 'entry' ? cx - 7 : cx + 3)}" x2="${n(cx)}" y1="${n(cy)}" y2="${n(cy)}" stroke="${colour}" stroke-dasharray="2,2"/>`,
    );
    const label = `${g.kind === 'entry' ? 'Entry' : 'Exit'} ${buy ? 'B' : 'S'} ${g.qty} @ ${g.price.toFixed(2)}`;
    // Entries to the left, exits to the right; near an edge the label turns inward.
    const toLeft = g.kind === 'entry' ? cx - 20 > PAD.left + 110 : cx > W - PAD.right - 120;
    parts.push(
      `<text x="${n(toLeft ? cx - (g.kind === 'entry' ? 20 : 4) : cx + (g.kind === 'entry' ? 4 : 14))}" y="${n(cy + (g.kind === 'entry' ? 14 : -8))}" text-anchor="${toLeft ? 'end' : 'start'}" fill="${colour}" font-size="11" font-family="sans-serif" data-kind="${g.kind}">${label}</text>`,
    );
  }
  const sign = trade.net > 0 ? '+' : trade.net < 0 ? '−' : '';
  parts.push(
    `<text x="${PAD.left + 2}" y="18" fill="#d9e0ec" font-size="13" font-weight="600" font-family="sans-serif">${escape(trade.tradingsymbol)} · ${trade.direction} · net ${sign}₹${Math.abs(trade.net).toFixed(2)}</text>`,
  );
  parts.push(
    `<text x="${PAD.left + 2}" y="${H - 6}" fill="#8391a9" font-size="11" font-family="sans-serif">${escape(toIstIso(times[0]!).slice(0, 16).replace('T', ' '))} → exit ${escape(toIstIso(trade.exitAt).slice(11, 16))} IST</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${parts.join('')}</svg>`;
}

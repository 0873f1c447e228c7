import type { SquareOffState } from '@shared/domain/square-off';
import { toIstIso } from '@shared/lib/ist-time';

/** What the header's square-off chip says, and how it looks. */
export interface SquareOffChipText {
  readonly text: string;
  readonly tone: 'quiet' | 'warn' | 'bad' | 'good';
}

const hhmm = (ms: number): string => toIstIso(ms).slice(11, 16);
const hhmmss = (ms: number): string => toIstIso(ms).slice(11, 19);

/** A countdown: "1:04:05", "4:05", "0:59". */
export function countdown(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The chip's words (docs/desk.md §Square-off): the time and the countdown to it, the warning,
 * the question after a restart, and once over how it went ("Squared off at 15:10:00: 3
 * positions"). `marketNow` is the market's clock (machine time plus main's measured lead).
 */
export function squareOffChipText(state: SquareOffState, marketNow: number): SquareOffChipText {
  const last = state.last;
  switch (state.phase) {
    case 'off':
      return { text: state.settings.enabled ? 'Square-off: no session ahead' : 'Square-off off', tone: 'quiet' };
    case 'running':
      return { text: 'Squaring off intraday positions…', tone: 'warn' };
    case 'asking':
      return { text: 'Square-off time passed: intraday positions open', tone: 'bad' };
    case 'warning':
    case 'waiting': {
      const next = state.next;
      if (!next) return { text: 'Square-off', tone: 'quiet' };
      const left = countdown(next.at - marketNow);
      return state.phase === 'warning'
        ? { text: `Square-off at ${hhmm(next.at)} in ${left}`, tone: 'warn' }
        : { text: `Square-off ${hhmm(next.at)} · ${left}`, tone: 'quiet' };
    }
    case 'done':
      if (!last) return { text: 'Square-off done', tone: 'quiet' };
      if (last.state === 'declined') return { text: `Square-off declined at ${hhmmss(last.at)}`, tone: 'quiet' };
      if (last.positions === 0 && last.state === 'done')
        return { text: `Square-off at ${hhmmss(last.at)}: nothing intraday was open`, tone: 'quiet' };
      return last.state === 'done'
        ? { text: `Squared off at ${hhmmss(last.at)}: ${plural(last.positions, 'position')}`, tone: 'good' }
        : { text: `Square-off at ${hhmmss(last.at)} incomplete: ${last.detail}`, tone: 'bad' };
  }
}

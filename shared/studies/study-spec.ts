import { z } from 'zod';
import { bollinger, ema, rsi, sma, vwap, type StudyBar, type StudySeries } from './indicators';

/**
 * Which studies a chart draws, as the trader chose them (docs/desk.md §Chart studies and
 * drawings). The same value a main-side rule could read to watch, say, a cross of the EMA.
 */
const Period = z.number().int().min(1).max(1000);
export const StudySpec = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('vwap') }),
  z.strictObject({ kind: z.literal('ema'), period: Period }),
  z.strictObject({ kind: z.literal('sma'), period: Period }),
  z.strictObject({ kind: z.literal('bb'), period: Period, width: z.number().positive().max(10) }),
  z.strictObject({ kind: z.literal('rsi'), period: Period }),
]);
export type StudySpec = z.infer<typeof StudySpec>;

/** Where a study draws: over the candles, or in a pane of its own under them (RSI, 0–100). */
export type StudyPane = 'price' | 'oscillator';

/** One line a study draws. */
export interface StudyLine {
  /** Stable per study and line, e.g. `bb:20:2/upper`. */
  readonly id: string;
  /** What a trader reads in the legend: "EMA 20", "BB 20, 2 upper". */
  readonly label: string;
  readonly pane: StudyPane;
  readonly values: StudySeries;
}

/** A study's short name and parameters: "EMA 20", "BB 20, 2", "VWAP". */
export function studyLabel(s: StudySpec): string {
  switch (s.kind) {
    case 'vwap':
      return 'VWAP';
    case 'bb':
      return `BB ${s.period}, ${s.width}`;
    default:
      return `${s.kind.toUpperCase()} ${s.period}`;
  }
}

/** `ema:20`, `bb:20:2`, `vwap`: a study as one word, for a panel's options. */
export function studyKey(s: StudySpec): string {
  switch (s.kind) {
    case 'vwap':
      return 'vwap';
    case 'bb':
      return `bb:${s.period}:${s.width}`;
    default:
      return `${s.kind}:${s.period}`;
  }
}

/** The chosen studies as one option value: keys joined by `;`. */
export function formatStudies(studies: readonly StudySpec[]): string {
  return studies.map(studyKey).join(';');
}

/**
 * Reads `formatStudies`' text back. Throws naming the study that does not read (a panel option
 * is stored text; the chart shows none rather than a wrong one).
 */
export function parseStudies(text: string): StudySpec[] {
  if (text.trim() === '') return [];
  return text.split(';').map((word) => {
    const [kind, a, b] = word.split(':');
    const raw =
      kind === 'vwap'
        ? { kind }
        : kind === 'bb'
          ? { kind, period: Number(a), width: Number(b) }
          : { kind, period: Number(a) };
    const parsed = StudySpec.safeParse(raw);
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path.join('.') || 'kind';
      throw new RangeError(`study "${word}": ${field} is not valid`);
    }
    return parsed.data;
  });
}

/**
 * A study's lines over `bars` (oldest first). `sessionOf` names a bar's session, where the VWAP
 * starts again (the chart passes the bar's IST date).
 */
export function studyLines<B extends StudyBar>(
  s: StudySpec,
  bars: readonly B[],
  sessionOf: (bar: B) => string | number,
): StudyLine[] {
  const closes = bars.map((b) => b.close);
  const id = studyKey(s);
  const label = studyLabel(s);
  switch (s.kind) {
    case 'vwap':
      return [{ id, label, pane: 'price', values: vwap(bars, sessionOf) }];
    case 'ema':
      return [{ id, label, pane: 'price', values: ema(closes, s.period) }];
    case 'sma':
      return [{ id, label, pane: 'price', values: sma(closes, s.period) }];
    case 'rsi':
      return [{ id, label, pane: 'oscillator', values: rsi(closes, s.period) }];
    case 'bb': {
      const b = bollinger(closes, s.period, s.width);
      return [
        { id: `${id}/upper`, label: `${label} upper`, pane: 'price', values: b.upper },
        { id: `${id}/middle`, label: `${label} middle`, pane: 'price', values: b.middle },
        { id: `${id}/lower`, label: `${label} lower`, pane: 'price', values: b.lower },
      ];
    }
  }
}

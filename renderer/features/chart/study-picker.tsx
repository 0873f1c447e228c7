import { useState } from 'react';
import { StudySpec, studyLabel } from '@shared/studies/study-spec';
import './chart-tools.css';

/** The studies the picker offers, with their usual parameters as the defaults. */
const OFFERED: readonly StudySpec[] = [
  { kind: 'vwap' },
  { kind: 'ema', period: 20 },
  { kind: 'sma', period: 50 },
  { kind: 'bb', period: 20, width: 2 },
  { kind: 'rsi', period: 14 },
];

const NAMES: Record<StudySpec['kind'], string> = {
  vwap: 'VWAP (session)',
  ema: 'EMA',
  sma: 'SMA',
  bb: 'Bollinger bands',
  rsi: 'RSI',
};

/**
 * The chart's Studies menu (docs/desk.md §Chart studies and drawings): each study on or off, with
 * its period (and the bands' width) chosen; an out-of-range number is said beside the field and
 * not applied.
 */
export function StudyPicker({
  studies,
  onChange,
}: {
  readonly studies: readonly StudySpec[];
  readonly onChange: (next: StudySpec[]) => void;
}) {
  const on = (kind: StudySpec['kind']) => studies.find((s) => s.kind === kind);
  const set = (next: StudySpec | null, kind: StudySpec['kind']) => {
    const rest = studies.filter((s) => s.kind !== kind);
    onChange(next ? OFFERED.flatMap((o) => (o.kind === kind ? [next] : rest.filter((r) => r.kind === o.kind))) : rest);
  };
  return (
    <details className="chart-tools">
      {/* Short in the panel's header, which is full at 1280 px; the title says the rest. */}
      <summary title="Studies: VWAP, moving averages, Bollinger bands, RSI">
        Studies{studies.length ? ` ${studies.length}` : ''}
      </summary>
      <div className="chart-tools__menu" role="group" aria-label="Studies">
        {OFFERED.map((offer) => (
          <StudyRow key={offer.kind} offer={offer} current={on(offer.kind)} onSet={(s) => set(s, offer.kind)} />
        ))}
      </div>
    </details>
  );
}

function StudyRow({
  offer,
  current,
  onSet,
}: {
  readonly offer: StudySpec;
  readonly current: StudySpec | undefined;
  readonly onSet: (s: StudySpec | null) => void;
}) {
  // The parameters typed before the study is switched on are the ones it starts with.
  const [draft, setDraft] = useState<StudySpec>(offer);
  const shown = current ?? draft;
  const [problem, setProblem] = useState<string | null>(null);
  const edit = (field: 'period' | 'width', text: string) => {
    const parsed = StudySpec.safeParse({ ...shown, [field]: Number(text) });
    if (!parsed.success) {
      setProblem(field === 'period' ? 'Period: 1 to 1000 bars' : 'Width: above 0, at most 10');
      return;
    }
    setProblem(null);
    setDraft(parsed.data);
    if (current) onSet(parsed.data);
  };
  return (
    <div className="chart-tools__row">
      <label>
        <input
          type="checkbox"
          checked={current !== undefined}
          onChange={(e) => onSet(e.target.checked ? shown : null)}
        />{' '}
        {NAMES[offer.kind]}
      </label>
      {'period' in shown ? (
        <input
          type="number"
          className="chart-tools__num"
          aria-label={`${NAMES[offer.kind]} period`}
          min={1}
          max={1000}
          defaultValue={shown.period}
          onChange={(e) => edit('period', e.target.value)}
        />
      ) : null}
      {'width' in shown ? (
        <input
          type="number"
          className="chart-tools__num"
          aria-label={`${NAMES[offer.kind]} width in standard deviations`}
          title="Width: standard deviations either side of the average"
          min={0.5}
          max={10}
          step={0.5}
          defaultValue={shown.width}
          onChange={(e) => edit('width', e.target.value)}
        />
      ) : null}
      {current ? <span className="muted small">{studyLabel(current)}</span> : null}
      {problem ? (
        <span className="chart-tools__problem small" role="alert">
          {problem}
        </span>
      ) : null}
    </div>
  );
}

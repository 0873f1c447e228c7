import { MtmSettings, type MtmAmount } from '@shared/domain/mtm';
import type { FieldOf, FormReading } from '../layout/use-settings-form';

/** One amount as typed: a figure (empty: off) and its unit. */
export interface AmountDraft {
  readonly value: string;
  readonly unit: MtmAmount['unit'];
}

/** The MTM dialog's fields as typed. */
export interface MtmDraft {
  readonly stop: AmountDraft;
  readonly target: AmountDraft;
  readonly trailFrom: AmountDraft;
  readonly trailLock: AmountDraft;
  readonly hard: boolean;
  readonly countdownS: string;
}

export type MtmField = keyof MtmDraft;

const draftAmount = (a: MtmAmount | null | undefined): AmountDraft =>
  a ? { value: String(a.value), unit: a.unit } : { value: '', unit: 'rupees' };

/** The dialog's fields from the levels in force. */
export function mtmDraftOf(s: MtmSettings): MtmDraft {
  return {
    stop: draftAmount(s.stop),
    target: draftAmount(s.target),
    trailFrom: draftAmount(s.trail?.from),
    trailLock: draftAmount(s.trail?.lock),
    hard: s.hard,
    countdownS: String(s.countdownS),
  };
}

/** The levels from the fields, or an error per field ("Enter a positive amount"). */
export function mtmSettingsOf(d: MtmDraft): FormReading<MtmSettings, MtmField> {
  const errors: Partial<Record<MtmField, string>> = {};
  const amount = (field: MtmField, a: AmountDraft): MtmAmount | null => {
    const text = a.value.replace(/[,₹\s]/g, '');
    if (text === '') return null;
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0) {
      errors[field] = 'Enter a positive amount, or leave it empty';
      return null;
    }
    if (a.unit === 'percent' && value > 100) {
      errors[field] = 'A percentage of the opening funds is at most 100';
      return null;
    }
    return { value, unit: a.unit };
  };
  const stop = amount('stop', d.stop);
  const target = amount('target', d.target);
  const from = amount('trailFrom', d.trailFrom);
  const lock = amount('trailLock', d.trailLock);
  if ((from === null) !== (lock === null) && !errors.trailFrom && !errors.trailLock)
    errors[from === null ? 'trailFrom' : 'trailLock'] = 'A lock-in needs both figures';
  const countdownS = Number(d.countdownS);
  if (!Number.isInteger(countdownS) || countdownS < 5 || countdownS > 600)
    errors.countdownS = 'Between 5 and 600 seconds';
  if (Object.keys(errors).length > 0) return { errors };
  const parsed = MtmSettings.safeParse({
    stop,
    target,
    trail: from && lock ? { from, lock } : null,
    hard: d.hard,
    countdownS,
  });
  if (!parsed.success) return { errors: { trailLock: parsed.error.issues[0]?.message ?? 'Not valid' } };
  return { value: parsed.data };
}

/** The field of the dialog a field main refused names (`settings.trail.lock.value`), or null. */
export const mtmFieldOf: FieldOf<MtmField> = (path) => {
  if (path[0] !== 'settings') return null;
  if (path[1] === 'stop' || path[1] === 'target' || path[1] === 'countdownS') return path[1];
  if (path[1] === 'trail') return path[2] === 'from' ? 'trailFrom' : path[2] === 'lock' ? 'trailLock' : null;
  return null;
};

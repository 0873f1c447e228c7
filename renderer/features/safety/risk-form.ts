import { NO_RISK_LIMITS, RiskLimits, type RiskLimitName } from '@shared/domain/risk';
import type { FieldOf, FormReading } from '../layout/use-settings-form';

/** One row of the risk limits dialog as typed: the figure (empty = off) and whether it is hard. */
export interface LimitDraft {
  readonly value: string;
  readonly hard: boolean;
}

/** The dialog's draft: one row per limit. */
export type RiskDraft = Readonly<Record<RiskLimitName, LimitDraft>>;

/** The dialog's rows, in order, with their labels and units. */
export const LIMIT_ROWS: ReadonlyArray<{
  readonly name: RiskLimitName;
  readonly label: string;
  readonly unit: string;
  readonly whole: boolean;
}> = [
  { name: 'maxOrderValue', label: 'Max order value', unit: '₹', whole: false },
  { name: 'maxQuantity', label: 'Max quantity', unit: 'units', whole: true },
  { name: 'maxLots', label: 'Max lots', unit: 'lots', whole: true },
  { name: 'maxPriceDeviationPct', label: 'Max price deviation from LTP', unit: '%', whole: false },
  { name: 'maxOpenOrders', label: 'Max open orders', unit: 'orders', whole: true },
  { name: 'maxOrdersPerMinute', label: 'Max orders per minute', unit: 'a minute', whole: true },
  { name: 'dailyLossLimit', label: 'Daily loss limit', unit: '₹ loss', whole: false },
];

/** The draft of stored limits (an off limit is an empty figure, hard by default). */
export function draftOf(limits: RiskLimits): RiskDraft {
  const out = {} as Record<RiskLimitName, LimitDraft>;
  for (const { name } of LIMIT_ROWS) {
    const l = limits[name];
    out[name] = l ? { value: String(l.value), hard: l.hard } : { value: '', hard: true };
  }
  return out;
}

/** The limits a draft stands for, or an error per row naming what is wrong with its figure. */
export function limitsOf(draft: RiskDraft): FormReading<RiskLimits, RiskLimitName> {
  const errors: Partial<Record<RiskLimitName, string>> = {};
  const limits: Record<string, unknown> = { ...NO_RISK_LIMITS };
  for (const { name, whole } of LIMIT_ROWS) {
    const typed = draft[name].value.replace(/[,\s₹%]/g, '');
    if (typed === '') continue;
    const n = Number(typed);
    if (!Number.isFinite(n) || n <= 0) errors[name] = 'Enter a number above zero, or leave it empty for no limit';
    else if (whole && !Number.isInteger(n)) errors[name] = 'Enter a whole number';
    else limits[name] = { value: n, hard: draft[name].hard };
  }
  if (Object.keys(errors).length > 0) return { errors };
  const parsed = RiskLimits.safeParse(limits);
  if (parsed.success) return { value: parsed.data };
  for (const issue of parsed.error.issues) {
    const name = issue.path[0] as RiskLimitName;
    errors[name] ??= issue.code === 'too_big' ? 'That is more than the guard accepts' : issue.message;
  }
  return { errors };
}

/** The row a field main refused names (`limits.maxOrderValue.value`): its limit, or null. */
export const limitOfField: FieldOf<RiskLimitName> = (path) =>
  path[0] === 'limits' ? (LIMIT_ROWS.find((r) => r.name === path[1])?.name ?? null) : null;

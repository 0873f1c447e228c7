import { brokerUrlProblem } from '@shared/domain/broker-url';
import type { BrokerDescriptor, LoginKind, ProfileField } from '@shared/domain/broker-descriptor';
import type { BrokerProfile } from '@shared/domain/session';

/** What the trader typed or ticked, by field name (one map across kinds: an API key carries over). */
export type ProfileValues = Readonly<Record<string, string | boolean>>;

/** The fields a kind asks for when logging in `way` (a field tied to another way is not asked). */
export function fieldsFor(broker: BrokerDescriptor, way: LoginKind): ProfileField[] {
  return broker.fields.filter((f) => f.login === undefined || f.login === way);
}

/**
 * The profile the form makes, or the errors to show next to its fields. Only what can be told
 * here is checked: a URL the secret must not travel to (`broker-url.ts`) and a number that is
 * not one; everything else is the kind's own schema's, in main, whose refusal names the field.
 */
export function profileOf(
  broker: BrokerDescriptor,
  way: LoginKind,
  values: ProfileValues,
): { profile: BrokerProfile } | { errors: Record<string, string> } {
  const profile: Record<string, string | number | boolean> = { kind: broker.kind };
  const errors: Record<string, string> = {};
  for (const f of fieldsFor(broker, way)) {
    const raw = values[f.name];
    if (f.kind === 'flag') {
      if (raw === true) profile[f.name] = true;
      continue;
    }
    const text = typeof raw === 'string' ? raw.trim() : '';
    if (text === '') continue;
    if (f.kind === 'url') {
      const problem = brokerUrlProblem(text);
      if (problem) errors[f.name] = problem;
      else profile[f.name] = text;
    } else if (f.kind === 'number') {
      const n = Number(text.replace(/%$/, ''));
      if (Number.isFinite(n)) profile[f.name] = n;
      else errors[f.name] = `${f.label} must be a number, such as 2 or 0.5`;
    } else profile[f.name] = f.kind === 'secret' ? String(raw) : text;
  }
  return Object.keys(errors).length > 0 ? { errors } : { profile: profile as BrokerProfile };
}

/** The form's field a refusal from main names (`profile.apiSecret` → `apiSecret`), if any. */
export function refusedField(field: string | undefined): string | null {
  const m = /^profile\.([A-Za-z0-9]+)/.exec(field ?? '');
  return m?.[1] ?? null;
}

/** The values with every secret emptied (after a login is sent, the secret leaves the form). */
export function withoutSecrets(broker: BrokerDescriptor | undefined, values: ProfileValues): ProfileValues {
  const secret = new Set(broker?.fields.filter((f) => f.kind === 'secret').map((f) => f.name));
  return Object.fromEntries(Object.entries(values).filter(([k]) => !secret.has(k)));
}

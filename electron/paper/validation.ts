import type { z } from 'zod';
import { Problem, type FieldError } from './problem';

/**
 * zod issues → one 400 naming every offending field in the wire spelling.
 *
 * Unknown fields are rejected, not ignored (docs/api.md "Unknown fields"): a misspelt
 * `trigger_prce` silently ignored would place a different order than the trader meant.
 */
export function schemaProblem(error: z.ZodError): Problem {
  const errors: FieldError[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        errors.push({ field: [...issue.path, key].join('.'), message: 'is not a field this endpoint accepts' });
      continue;
    }
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
    const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
    errors.push({ field, message: missing ? 'is required' : issue.message });
  }
  const detail = errors.map((e) => `${e.field}: ${e.message}`).join('; ');
  return new Problem(400, 'invalid_field', detail, errors);
}

/** Parses `input` with `schema` or throws the 400. */
export function parseOr400<T>(schema: z.ZodType<T>, input: unknown): T {
  const r = schema.safeParse(input);
  if (!r.success) throw schemaProblem(r.error);
  return r.data;
}

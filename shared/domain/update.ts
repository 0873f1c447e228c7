import { z } from 'zod';

/**
 * Where the update check stands (docs/architecture.md §Release): announced, never forced. `off`
 * when no feed is configured (the browser host, a build without one).
 */
export const UpdateStatus = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('off') }),
  z.strictObject({ kind: z.literal('checking') }),
  z.strictObject({ kind: z.literal('current'), version: z.string(), checkedAt: z.number() }),
  z.strictObject({
    kind: z.literal('available'),
    version: z.string(),
    url: z.string(),
    notes: z.string().nullable(),
    checkedAt: z.number(),
  }),
  z.strictObject({ kind: z.literal('failed'), reason: z.string(), checkedAt: z.number() }),
]);
export type UpdateStatus = z.infer<typeof UpdateStatus>;

/** The header's words for a check, or null when there is nothing to say. */
export function updateNoticeText(check: { readonly kind: string; readonly version?: string }): string | null {
  return check.kind === 'available' && check.version !== undefined
    ? `Tradedesk ${check.version} is available. It installs only when you choose, never during open work.`
    : null;
}

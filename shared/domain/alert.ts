import { z } from 'zod';
import { Exchange } from './instrument';

/**
 * Price alerts (docs/contract.md §Price alerts): kept and evaluated by main from the stream, so
 * they fire while the window is hidden; the renderer lists, edits and shows them.
 */

/** `above`: the LTP is at or above the price; `below`: at or below; `crosses`: it moved through the price either way. */
export const AlertCondition = z.enum(['above', 'below', 'crosses']);
export type AlertCondition = z.infer<typeof AlertCondition>;

/**
 * How an alert tells the trader when it fires, beyond the page's toast (docs/contract.md
 * §Alert notifications): `os` — the operating system's notification, shown by main (the Electron
 * app only); `sound` — a short tone in the page.
 */
export const AlertNotify = z.strictObject({ os: z.boolean(), sound: z.boolean() });
export type AlertNotify = z.infer<typeof AlertNotify>;

/** An alert's notifications when none were chosen (and for alerts kept before there were any). */
export const QUIET: AlertNotify = { os: false, sound: false };

/** What the trader sets: the instrument, the condition and the price, and how it notifies. */
export const AlertDraft = z.strictObject({
  instrumentToken: z.number().int().positive(),
  condition: AlertCondition,
  price: z.number().positive().max(1e9),
  note: z.string().max(200).optional(),
  notify: AlertNotify.optional(),
});
export type AlertDraft = z.infer<typeof AlertDraft>;

/** An alert: `active` until its condition is met once, then `triggered` (editing it arms it again). */
export const PriceAlert = z.object({
  id: z.string().regex(/^al-[a-z0-9]{1,32}$/),
  instrumentToken: z.number().int().positive(),
  exchange: Exchange,
  tradingsymbol: z.string(),
  condition: AlertCondition,
  price: z.number().positive(),
  note: z.string().nullable(),
  state: z.enum(['active', 'triggered']),
  /** Epoch ms. */
  createdAt: z.number().int().nonnegative(),
  triggeredAt: z.number().int().nonnegative().nullable(),
  /** The last price that met the condition. */
  triggeredPrice: z.number().nonnegative().nullable(),
  notify: AlertNotify.default(QUIET),
});
export type PriceAlert = z.infer<typeof PriceAlert>;

/** True when `price` meets the alert's condition, `previous` being the last price seen before it (null: none yet). */
export function alertMet(
  alert: Pick<PriceAlert, 'condition' | 'price'>,
  previous: number | null,
  price: number,
): boolean {
  switch (alert.condition) {
    case 'above':
      return price >= alert.price;
    case 'below':
      return price <= alert.price;
    case 'crosses':
      return (
        previous !== null &&
        ((previous < alert.price && price >= alert.price) || (previous > alert.price && price <= alert.price))
      );
  }
}

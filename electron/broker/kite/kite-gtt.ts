import { z } from 'zod';
import type { Gtt, GttChanges, GttStatus } from '@shared/domain/gtt';
import { Exchange } from '@shared/domain/instrument';
import { type OrderStatus, Product, Timestamp, TransactionType } from '@shared/domain/order';
import type { PlaceGttCommand } from '../broker';
import { kiteTime } from './kite-to-domain';
import { kiteEnvelope } from './kite-wire';

/**
 * Kite's `/gtt/triggers` (docs/kite.md §GTT) ↔ the app's GTTs: the only code that knows Kite's
 * GTT spellings (`two-leg`, `condition`, a leg's `result`). Kite keeps no client reference on a
 * GTT, so an ambiguous create is matched by what it asks for (`sameAsked`).
 */

const KiteGttLeg = z.object({
  transaction_type: z.string(),
  quantity: z.number(),
  product: z.string(),
  price: z.number(),
  result: z
    .object({
      order_result: z
        .object({ status: z.string().optional(), order_id: z.union([z.string(), z.number()]).nullable().optional() })
        .nullable()
        .optional(),
    })
    .nullable()
    .optional(),
});

/** One GTT as Kite lists it (loose: enum values are the mapper's decision). */
export const KiteGtt = z.object({
  id: z.union([z.number(), z.string()]),
  type: z.string(),
  status: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  expires_at: z.string().nullable().optional(),
  condition: z.object({
    exchange: z.string(),
    tradingsymbol: z.string(),
    trigger_values: z.array(z.number()),
    last_price: z.number().optional(),
    instrument_token: z.number().int().optional(),
  }),
  orders: z.array(KiteGttLeg),
});
export type KiteGtt = z.infer<typeof KiteGtt>;

export const KiteGttList = kiteEnvelope(z.array(KiteGtt));
export const KiteGttId = kiteEnvelope(z.object({ trigger_id: z.union([z.number(), z.string()]) }));

/** Kite's GTT statuses → the app's (`deleted` and `disabled` are cancelled). */
const STATUS: Readonly<Record<string, GttStatus>> = {
  active: 'active',
  triggered: 'triggered',
  rejected: 'rejected',
  cancelled: 'cancelled',
  deleted: 'cancelled',
  disabled: 'cancelled',
  expired: 'expired',
};

/** Kite's `yyyy-mm-dd hh:mm:ss` (IST) → ISO with +05:30; null when unreadable. */
function iso(text: string | null | undefined): string | null {
  if (!text) return null;
  const t = kiteTime(text);
  return Timestamp.safeParse(t).success ? t : null;
}

/** A Kite GTT → the app's; null when it holds values the app cannot show (an unknown status or product). */
export function toGtt(k: KiteGtt): Gtt | null {
  const status = STATUS[k.status];
  const type = k.type === 'two-leg' ? 'oco' : k.type === 'single' ? 'single' : null;
  const exchange = Exchange.safeParse(k.condition.exchange);
  const created = iso(k.created_at);
  const updated = iso(k.updated_at);
  if (!status || !type || !exchange.success || !created || !updated) return null;
  const legs: Gtt['legs'] = [];
  for (const l of k.orders) {
    const side = TransactionType.safeParse(l.transaction_type);
    const product = Product.safeParse(l.product);
    if (!side.success || !product.success || !Number.isInteger(l.quantity) || l.quantity <= 0) return null;
    const r = l.result?.order_result;
    const orderId = r?.order_id === undefined || r.order_id === null || r.order_id === '' ? null : String(r.order_id);
    const orderStatus: OrderStatus | null = r ? (r.status === 'failed' ? 'REJECTED' : orderId ? 'OPEN' : null) : null;
    legs.push({
      transactionType: side.data,
      quantity: l.quantity,
      product: product.data,
      price: l.price,
      orderId,
      orderStatus,
    });
  }
  return {
    gttId: String(k.id),
    clientGttId: null,
    type,
    status,
    exchange: exchange.data,
    tradingsymbol: k.condition.tradingsymbol,
    instrumentToken: k.condition.instrument_token ?? 0,
    triggerValues: k.condition.trigger_values,
    lastPriceAtCreation: k.condition.last_price ?? 0,
    legs,
    createdAt: created,
    updatedAt: updated,
    expiresAt: iso(k.expires_at),
    statusMessage: null,
  };
}

/** The form of POST/PUT `/gtt/triggers`: `type`, and `condition` and `orders` as JSON strings. */
export function kiteGttForm(
  what: Pick<PlaceGttCommand, 'type' | 'exchange' | 'tradingsymbol'> & GttChanges,
  lastPrice: number,
): Record<string, string> {
  return {
    type: what.type === 'oco' ? 'two-leg' : 'single',
    condition: JSON.stringify({
      exchange: what.exchange,
      tradingsymbol: what.tradingsymbol,
      trigger_values: what.triggerValues,
      last_price: lastPrice,
    }),
    orders: JSON.stringify(
      what.legs.map((l) => ({
        exchange: what.exchange,
        tradingsymbol: what.tradingsymbol,
        transaction_type: l.transactionType,
        quantity: l.quantity,
        order_type: 'LIMIT',
        product: l.product,
        price: l.price,
      })),
    ),
  };
}

/**
 * Whether an active GTT Kite lists asks for exactly what `cmd` asked (instrument, type, trigger
 * values, legs): Kite keeps no client reference, so this is how an ambiguous create is looked up.
 */
export function sameAsked(g: Gtt, cmd: PlaceGttCommand): boolean {
  return (
    g.status === 'active' &&
    g.exchange === cmd.exchange &&
    g.tradingsymbol === cmd.tradingsymbol &&
    g.type === cmd.type &&
    g.triggerValues.length === cmd.triggerValues.length &&
    g.triggerValues.every((v, i) => v === cmd.triggerValues[i]) &&
    g.legs.length === cmd.legs.length &&
    g.legs.every((l, i) => {
      const c = cmd.legs[i];
      return (
        c !== undefined &&
        l.transactionType === c.transactionType &&
        l.quantity === c.quantity &&
        l.product === c.product &&
        l.price === c.price
      );
    })
  );
}

/**
 * The GTT field a Kite refusal names, in the app's spelling: the paper dialect starts its
 * message with it (`condition.trigger_values.0: …` → `triggerValues.0`, `orders.1.price: …` →
 * `legs.1.price`); undefined when it names none.
 */
export function kiteGttField(message: string): string | undefined {
  const m = /^(condition\.trigger_values|orders)(\.\d)?(\.[a-z_]+)?:/.exec(message);
  if (!m) return undefined;
  const head = m[1] === 'orders' ? 'legs' : 'triggerValues';
  const rest = (m[3] ?? '').replace(/_([a-z])/g, (_x, c: string) => c.toUpperCase());
  return `${head}${m[2] ?? ''}${rest}`;
}

import { z } from 'zod';
import { Exchange } from '@shared/domain/instrument';
import type { GttType } from '@shared/domain/gtt';
import { Product, TransactionType } from '@shared/domain/order';
import type { WireGttLegRequest } from '../../../wire/rest-schemas';
import type { BrokerState } from '../../context';
import type { PaperGtt } from '../../gtt';
import type { PaperInstrument } from '../../instruments';
import { toGttCreate } from '../../routes/gtt';
import { wireField } from '../../rules-wire';
import type { OrderField } from '@shared/trading/rules';
import { type KiteRoute, kiteApi } from '../context';
import { KiteError, inputError } from '../errors';
import { kiteGtt } from '../views';
import type { Params } from '../wire';
import { readParams } from '../wire';

/**
 * GTTs on the /kite dialect (docs/kite.md §GTT): `/gtt/triggers` in Kite's shapes over the
 * broker's one GTT book, so a trigger created here is on /v1/gtt too, and the reverse. Kite's
 * `type` is `single` or `two-leg`; `condition` and `orders` are JSON strings in the form.
 */

const KITE_TYPES: Readonly<Record<string, GttType>> = { single: 'single', 'two-leg': 'oco' };

const Condition = z.object({
  exchange: Exchange,
  tradingsymbol: z.string().min(1).max(64),
  trigger_values: z.array(z.number().positive()).min(1).max(2),
  last_price: z.number().nonnegative().optional(),
  instrument_token: z.number().int().optional(),
});

const KiteGttOrder = z.object({
  exchange: Exchange.optional(),
  tradingsymbol: z.string().min(1).max(64).optional(),
  transaction_type: TransactionType,
  quantity: z.number().int().positive(),
  order_type: z.literal('LIMIT'),
  product: Product,
  price: z.number().positive(),
});

/** A JSON form field parsed with `schema`, or a 400 InputException naming the field (and the path inside it). */
function jsonField<T>(p: Params, name: string, schema: z.ZodType<T>): T {
  let raw: unknown;
  try {
    raw = JSON.parse(p.need(name)) as unknown;
  } catch {
    throw inputError(name, 'is not valid JSON');
  }
  const r = schema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = [name, ...(issue?.path ?? []).map(String)].join('.');
    throw inputError(where, issue?.message ?? 'is not valid');
  }
  return r.data;
}

/** A GTT rule's field in Kite's spelling: `triggerValues.1` → `condition.trigger_values.1`, `legs.0.price` → `orders.0.price`. */
function kiteGttField(field: string): string {
  const [head, index, rest] = field.split('.');
  const base = head === 'triggerValues' ? 'condition.trigger_values' : head === 'legs' ? 'orders' : (head ?? field);
  if (index === undefined) return base;
  return rest === undefined ? `${base}.${index}` : `${base}.${index}.${wireField(rest as OrderField)}`;
}

/** The form of POST/PUT `/gtt/triggers` → the instrument and the validated GTT (400 naming each field). */
function gttForm(state: BrokerState, p: Params, fixedType?: GttType) {
  const rawType = p.need('type');
  const type = KITE_TYPES[rawType];
  if (type === undefined) throw inputError('type', 'must be single or two-leg');
  if (fixedType !== undefined && type !== fixedType) throw inputError('type', 'cannot change on an existing trigger');
  const condition = jsonField(p, 'condition', Condition);
  const orders = jsonField(p, 'orders', z.array(KiteGttOrder).min(1).max(2));
  orders.forEach((o, i) => {
    if (o.exchange !== undefined && o.exchange !== condition.exchange)
      throw inputError(`orders.${i}.exchange`, 'must be the condition’s exchange');
    if (o.tradingsymbol !== undefined && o.tradingsymbol !== condition.tradingsymbol)
      throw inputError(`orders.${i}.tradingsymbol`, 'must be the condition’s tradingsymbol');
  });
  const instrument: PaperInstrument | undefined = state.market.lookup(condition.exchange, condition.tradingsymbol);
  if (!instrument) throw inputError('condition.tradingsymbol', `no instrument ${condition.tradingsymbol}`);
  const legs: WireGttLegRequest[] = orders.map((o) => ({
    transaction_type: o.transaction_type,
    quantity: o.quantity,
    product: o.product,
    order_type: 'LIMIT',
    price: o.price,
  }));
  return {
    instrument,
    create: toGttCreate(state, instrument, { type, triggerValues: condition.trigger_values, legs }, null, kiteGttField),
  };
}

/** The trigger `:trigger_id` names, or Kite's 400. */
function triggerOf(state: BrokerState, id: string): PaperGtt {
  const g = state.gtt.get(id);
  if (!g) throw new KiteError(400, 'InputException', `Couldn't find that \`trigger_id\` (${id.slice(0, 30)}).`);
  return g;
}

export const gttRoutes: readonly KiteRoute[] = [
  kiteApi('GET', '/gtt/triggers', 'default', ({ state, session, now }) => {
    state.gtt.sweep(now);
    return state.gtt.all().map((g) => kiteGtt(g, session?.userId ?? ''));
  }),
  kiteApi('POST', '/gtt/triggers', 'orders', async ({ req, query, state, now }) => {
    const p = await readParams(req, query);
    const { create } = gttForm(state, p);
    const g = state.gtt.create(create, now);
    return { trigger_id: Number(g.gttId) };
  }),
  kiteApi('GET', '/gtt/triggers/:trigger_id', 'default', ({ state, params, session, now }) => {
    state.gtt.sweep(now);
    return kiteGtt(triggerOf(state, params.trigger_id ?? ''), session?.userId ?? '');
  }),
  kiteApi('PUT', '/gtt/triggers/:trigger_id', 'orders', async ({ req, query, state, params, now }) => {
    const id = params.trigger_id ?? '';
    const g = triggerOf(state, id);
    const p = await readParams(req, query);
    const { instrument, create } = gttForm(state, p, g.type);
    if (instrument.token !== g.token)
      throw inputError('condition.tradingsymbol', 'cannot change on an existing trigger');
    state.gtt.modify(id, create, now);
    return { trigger_id: Number(id) };
  }),
  kiteApi('DELETE', '/gtt/triggers/:trigger_id', 'orders', ({ state, params, now }) => {
    const id = params.trigger_id ?? '';
    triggerOf(state, id);
    state.gtt.cancel(id, now);
    return { trigger_id: Number(id) };
  }),
];

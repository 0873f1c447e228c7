import type { GttLeg, GttType } from '../domain/gtt';
import type { OrderRequest } from '../domain/order';
import { fromUnits, toUnits } from './money';
import { type InstrumentSpec, type RuleCode, tickProblem, validateOrder } from './rules';

/**
 * The GTT rules (docs/gtt.md §Rules), in one place: the ticket and the position row apply them
 * as the trader types, main before it sends, and the paper broker authoritatively (400 naming
 * the field). Every leg is a LIMIT DAY order and must pass the order rules of `validateOrder`.
 */

/** A GTT field a rule can blame: `triggerValues`, `triggerValues.1`, `legs`, `legs.0.price`… */
export type GttField = string;

/** One broken GTT rule, in words a trader understands. */
export interface GttViolation {
  readonly field: GttField;
  readonly code: RuleCode;
  readonly message: string;
}

/** What the GTT rules judge: the type, the trigger values and the legs. */
export interface GttDraft {
  readonly type: GttType;
  readonly exchange: InstrumentSpec['exchange'];
  readonly triggerValues: readonly number[];
  readonly legs: readonly GttLeg[];
}

/** ₹1,500.00 in Indian grouping, for messages. */
function rupees(value: number): string {
  return `₹${value.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 4 })}`;
}

/** How many triggers (and legs) each type takes. */
export const GTT_ARITY: Readonly<Record<GttType, number>> = { single: 1, oco: 2 };

/**
 * Every rule the GTT breaks, given the last price now (0 when unknown: the side checks wait
 * for the broker). An empty array means it may be sent.
 *
 * - `single`: one trigger and one leg; the trigger must not be the last price (it would fire at once).
 * - `oco`: two triggers and two legs; the first (stop-loss) below the last price, the second
 *   (target) above it.
 * - Trigger values on the instrument's tick; each leg a valid LIMIT DAY order on it.
 */
export function validateGtt(draft: GttDraft, spec: InstrumentSpec, lastPrice: number): readonly GttViolation[] {
  const out: GttViolation[] = [];
  const n = GTT_ARITY[draft.type];
  if (draft.triggerValues.length !== n) {
    out.push({
      field: 'triggerValues',
      code: 'invalid_combination',
      message: `A ${draft.type} GTT takes ${n} trigger value${n === 1 ? '' : 's'}, not ${draft.triggerValues.length}`,
    });
  }
  if (draft.legs.length !== n) {
    out.push({
      field: 'legs',
      code: 'invalid_combination',
      message: `A ${draft.type} GTT places ${n} order${n === 1 ? '' : 's'}, not ${draft.legs.length}`,
    });
  }
  const ltp = toUnits(lastPrice);
  draft.triggerValues.forEach((value, i) => {
    const field = `triggerValues.${i}`;
    const tick = Number.isFinite(value) && value > 0 ? tickProblem('Trigger value', value, spec.tickSize) : null;
    if (!Number.isFinite(value) || value <= 0) {
      out.push({ field, code: 'invalid_field', message: 'Trigger value must be a price above zero' });
      return;
    }
    if (tick !== null) {
      out.push({ field, code: 'invalid_field', message: tick });
      return;
    }
    if (ltp <= 0 || draft.triggerValues.length !== n) return;
    const t = toUnits(value);
    if (draft.type === 'single' && t === ltp) {
      out.push({
        field,
        code: 'invalid_combination',
        message: `Trigger value ${rupees(value)} is the last price: it would fire at once; place an order instead`,
      });
    } else if (draft.type === 'oco' && i === 0 && t >= ltp) {
      out.push({
        field,
        code: 'invalid_combination',
        message: `The stop-loss trigger (${rupees(value)}) must be below the last price ${rupees(fromUnits(ltp))}`,
      });
    } else if (draft.type === 'oco' && i === 1 && t <= ltp) {
      out.push({
        field,
        code: 'invalid_combination',
        message: `The target trigger (${rupees(value)}) must be above the last price ${rupees(fromUnits(ltp))}`,
      });
    }
  });
  draft.legs.forEach((leg, i) => {
    const violations = validateOrder({ ...legOrder({ ...draft, tradingsymbol: '' }, leg), triggerPrice: null }, spec);
    for (const v of violations) out.push({ field: `legs.${i}.${v.field}`, code: v.code, message: v.message });
  });
  return out;
}

/**
 * The direction a single trigger fires in, from the side of the last price it was set on:
 * `up` when it is above (fires when the price rises to it), `down` when below.
 */
export function singleDirection(triggerUnits: number, ltpAtCreationUnits: number): 'up' | 'down' {
  return triggerUnits > ltpAtCreationUnits ? 'up' : 'down';
}

/**
 * Which leg (by index) a price fires, or null: for `single`, leg 0 once the price reaches the
 * trigger from the side it was on; for `oco`, leg 0 (stop-loss) at or below the first trigger,
 * leg 1 (target) at or above the second. Integer price units throughout.
 */
export function firedLeg(
  type: GttType,
  triggerUnits: readonly number[],
  ltpAtCreationUnits: number,
  ltpUnits: number,
): number | null {
  if (type === 'single') {
    const t = triggerUnits[0] ?? 0;
    const up = singleDirection(t, ltpAtCreationUnits) === 'up';
    return (up ? ltpUnits >= t : ltpUnits <= t) ? 0 : null;
  }
  const [stop = 0, target = Number.MAX_SAFE_INTEGER] = triggerUnits;
  if (ltpUnits <= stop) return 0;
  if (ltpUnits >= target) return 1;
  return null;
}

/** The order a GTT leg places when it fires: a LIMIT DAY regular order at the leg's price. */
export function legOrder(
  gtt: { readonly exchange: OrderRequest['exchange']; readonly tradingsymbol: string },
  leg: Pick<GttLeg, 'transactionType' | 'quantity' | 'product' | 'price'>,
): OrderRequest {
  return {
    exchange: gtt.exchange,
    tradingsymbol: gtt.tradingsymbol,
    transactionType: leg.transactionType,
    quantity: leg.quantity,
    orderType: 'LIMIT',
    product: leg.product,
    validity: 'DAY',
    price: leg.price,
  };
}

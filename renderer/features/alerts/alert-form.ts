import {
  AlertCondition,
  CONDITION_WORDS,
  CROSS_CONDITIONS,
  MAX_ALERT_ORDERS,
  type AlertBasis,
  type AlertDraft,
  type AlertOrderOutcome,
  type StudyInterval,
} from '@shared/domain/alert';
import type { Instrument } from '@shared/domain/instrument';
import type { OrderRequest, Product, TransactionType } from '@shared/domain/order';

/** What an alert watches, as the dialog offers it (docs/desk.md §Alerts). */
export type BasisKind = AlertBasis['kind'];

/** What a new alert places when it fires. */
export type Places = 'nothing' | 'order' | 'basket';

/** The new-alert form as typed: text fields kept as typed, read by `readAlertForm`. */
export interface AlertForm {
  readonly basis: BasisKind;
  readonly condition: AlertCondition;
  /** The price, or ₹ for the MTM. */
  readonly level: string;
  readonly period: string;
  readonly interval: StudyInterval;
  readonly places: Places;
  readonly side: TransactionType;
  readonly quantity: string;
  readonly orderType: 'MARKET' | 'LIMIT';
  readonly limitPrice: string;
  readonly product: Product;
}

export const NEW_ALERT: AlertForm = {
  basis: 'price',
  condition: 'above',
  level: '',
  period: '20',
  interval: '5minute',
  places: 'nothing',
  side: 'BUY',
  quantity: '',
  orderType: 'MARKET',
  limitPrice: '',
  product: 'MIS',
};

/** The conditions each basis takes: a study's level moves, so only crosses; the MTM is above or below. */
export function conditionsOf(basis: BasisKind): readonly AlertCondition[] {
  if (basis === 'mtm') return ['above', 'below'];
  if (basis === 'price') return AlertCondition.options;
  return AlertCondition.options.filter((c) => CROSS_CONDITIONS.has(c));
}

/** The condition in words for the select. */
export const conditionWords = (c: AlertCondition): string => CONDITION_WORDS[c];

/** A problem with what was typed, naming the field the trader must fix. */
export interface FormProblem {
  readonly field: string;
  readonly message: string;
}

const number = (text: string): number => (text.trim() === '' ? NaN : Number(text.replace(/[,\s₹]/g, '')));

function problem(field: string, what: string): { readonly problem: FormProblem } {
  return { problem: { field, message: `${field}: ${what}` } };
}

/**
 * The draft the form describes, or the first problem with it naming its field (docs/desk.md
 * §Alerts). `instrument` is the chosen one (null: none found); `basket` the basket's legs.
 */
export function readAlertForm(
  form: AlertForm,
  instrument: Instrument | null,
  basket: readonly OrderRequest[],
): { readonly draft: Omit<AlertDraft, 'notify' | 'note'> } | { readonly problem: FormProblem } {
  if (form.basis !== 'mtm' && !instrument) return problem('Symbol', 'choose an instrument from the list');
  let basis: AlertBasis;
  let price: number | undefined;
  if (form.basis === 'price' || form.basis === 'mtm') {
    const n = number(form.level);
    if (form.basis === 'price' && !(n > 0)) return problem('Price', 'enter a price above zero');
    if (form.basis === 'mtm' && !Number.isFinite(n)) return problem('MTM', 'enter ₹ (a loss is negative, e.g. -20000)');
    basis = form.basis === 'price' ? { kind: 'price' } : { kind: 'mtm' };
    price = n;
  } else if (form.basis === 'ema') {
    const period = number(form.period);
    if (!Number.isInteger(period) || period < 1 || period > 200) {
      return problem('EMA period', 'a whole number of bars from 1 to 200');
    }
    basis = { kind: 'ema', period, interval: form.interval };
  } else {
    basis = { kind: 'vwap', interval: form.interval };
  }
  if (!conditionsOf(form.basis).includes(form.condition)) {
    return problem('Condition', `choose ${conditionsOf(form.basis).map(conditionWords).join(', ')}`);
  }
  let orders: OrderRequest[] | undefined;
  if (form.places === 'basket') {
    if (basket.length === 0) return problem('Places', 'the basket is empty: add legs to it first');
    if (basket.length > MAX_ALERT_ORDERS)
      return problem('Places', `an alert carries at most ${MAX_ALERT_ORDERS} orders`);
    orders = [...basket];
  } else if (form.places === 'order') {
    if (!instrument) return problem('Places', 'an MTM alert places a basket: choose "the basket"');
    const quantity = number(form.quantity);
    if (!Number.isInteger(quantity) || quantity < 1) return problem('Quantity', 'enter a whole number above zero');
    if (quantity % instrument.lotSize !== 0) {
      return problem('Quantity', `a multiple of the lot size, ${instrument.lotSize}`);
    }
    const limit = number(form.limitPrice);
    if (form.orderType === 'LIMIT' && !(limit > 0)) return problem('Limit price', 'enter a price above zero');
    orders = [
      {
        exchange: instrument.exchange,
        tradingsymbol: instrument.tradingsymbol,
        transactionType: form.side,
        quantity,
        orderType: form.orderType,
        product: form.product,
        validity: 'DAY',
        ...(form.orderType === 'LIMIT' ? { price: limit } : {}),
      },
    ];
  }
  return {
    draft: {
      ...(instrument && form.basis !== 'mtm' ? { instrumentToken: instrument.instrumentToken } : {}),
      condition: form.condition,
      ...(price !== undefined ? { price } : {}),
      ...(basis.kind !== 'price' ? { basis } : {}),
      ...(orders ? { orders } : {}),
    },
  };
}

/** "BUY 10 INFY MARKET", "Basket of 3": what an alert places, in a line. */
export function ordersText(orders: readonly OrderRequest[]): string {
  if (orders.length === 0) return '–';
  if (orders.length > 1) return `Basket of ${orders.length}`;
  const [o] = orders as [OrderRequest];
  return `${o.transactionType} ${o.quantity} ${o.tradingsymbol} ${o.orderType}${o.price ? ` ${o.price}` : ''}`;
}

/** The outcome's first word, as the alert and its toast show it. */
export const OUTCOME_WORDS: Readonly<Record<AlertOrderOutcome['state'], string>> = {
  placing: 'Placing',
  placed: 'Placed',
  unconfirmed: 'Not yet confirmed',
  refused: 'Refused',
  partial: 'Partly placed',
};

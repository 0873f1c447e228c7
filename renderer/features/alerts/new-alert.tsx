import { useState, type FormEvent } from 'react';
import { INTERVAL_WORDS, StudyInterval, type AlertNotify } from '@shared/domain/alert';
import type { Instrument } from '@shared/domain/instrument';
import { allowedProducts } from '@shared/trading/rules';
import { describeError } from '../../lib/describe-error';
import { useInstruments } from '../instruments/queries';
import { useSelectedInstrument } from '../ticket/use-selected-instrument';
import { useBasket } from '../basket/use-basket';
import { useCreateAlert } from './queries';
import { conditionsOf, NEW_ALERT, readAlertForm, type AlertForm, type BasisKind } from './alert-form';
import { ChoiceSelect, ConditionSelect, NotifyFields } from './alert-fields';

const BASES: ReadonlyArray<readonly [BasisKind, string]> = [
  ['price', 'Price'],
  ['vwap', 'VWAP'],
  ['ema', 'EMA'],
  ['mtm', "Day's MTM"],
];

type NewAlertForm = ReturnType<typeof useNewAlertForm>;

/**
 * The new alert's form model: the typed symbol and the instrument it names (the selected one by
 * default), the alert's fields (a basis keeps only its own conditions), how it notifies, and its
 * submit, which reads the form (`alert-form.ts`) and keeps the symbol and basis for the next one.
 */
function useNewAlertForm() {
  const selected = useSelectedInstrument();
  const { list } = useInstruments();
  const { basket } = useBasket();
  const [symbol, setSymbol] = useState(selected ? `${selected.tradingsymbol} ${selected.exchange}` : '');
  const [form, setForm] = useState<AlertForm>(NEW_ALERT);
  const [notify, setNotify] = useState<AlertNotify>({ os: false, sound: false });
  const [error, setError] = useState<string | null>(null);
  const create = useCreateAlert();
  const [sym, exchange] = symbol.trim().toUpperCase().split(/\s+/);
  const instrument: Instrument | null =
    list.find((i) => i.tradingsymbol === sym && (!exchange || i.exchange === exchange)) ?? null;
  const change = (patch: Partial<AlertForm>): void => {
    setForm((f) => {
      const next = { ...f, ...patch };
      const conditions = conditionsOf(next.basis);
      return conditions.includes(next.condition) ? next : { ...next, condition: conditions[0]! };
    });
  };
  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    if (create.isPending) return; // the button stays enabled (below): a second click waits for the first
    const read = readAlertForm(form, instrument, basket.legs);
    if ('problem' in read) return setError(read.problem.message);
    setError(null);
    create.mutate(
      { ...read.draft, notify },
      { onSuccess: () => setForm((f) => ({ ...f, level: '', places: 'nothing', quantity: '', limitPrice: '' })) },
    );
  };
  return { list, basket, symbol, setSymbol, form, change, notify, setNotify, instrument, onSubmit, error, create };
}

/** The new alert (docs/contract.md §Price alerts): what it watches, then what it places when it fires. */
export function NewAlert() {
  const model = useNewAlertForm();
  const { list, error, create } = model;
  return (
    <form className="alert-form" aria-label="New alert" onSubmit={model.onSubmit}>
      <AlertWatches model={model} />
      <div className="toolbar" role="group" aria-label="Places when it fires">
        <AlertPlaces model={model} />
        <span className="muted">Judged by the risk guard when it fires; sells go after the buys fill.</span>
        {/* The instrument list may still be loading right after start: wait for it rather than refuse.
            Not disabled while an alert is being added: a focused button that turns disabled drops the
            focus to the page, where Esc no longer reaches the dialog. */}
        <button type="submit" className="primary" disabled={list.length === 0}>
          {list.length === 0 ? 'Loading instruments…' : 'Add alert'}
        </button>
        {error || create.error ? (
          <span role="alert" className="inline-error">
            {error ?? describeError(create.error)}
          </span>
        ) : null}
      </div>
    </form>
  );
}

/** What the alert watches: the symbol, the basis, its condition and level (or study), and how it notifies. */
function AlertWatches({ model }: { readonly model: NewAlertForm }) {
  const { list, form, change } = model;
  const mtm = form.basis === 'mtm';
  const study = form.basis === 'vwap' || form.basis === 'ema';
  return (
    <div className="toolbar">
      {mtm ? null : (
        <input
          aria-label="Alert symbol"
          list="alert-symbols"
          placeholder="Symbol"
          value={model.symbol}
          onChange={(e) => model.setSymbol(e.target.value)}
        />
      )}
      <datalist id="alert-symbols">
        {list.slice(0, 2_000).map((i) => (
          <option key={i.instrumentToken} value={`${i.tradingsymbol} ${i.exchange}`} />
        ))}
      </datalist>
      <select
        aria-label="Alert watches"
        value={form.basis}
        onChange={(e) => change({ basis: BASES.find(([k]) => k === e.target.value)?.[0] ?? 'price' })}
      >
        {BASES.map(([k, label]) => (
          <option key={k} value={k}>
            {label}
          </option>
        ))}
      </select>
      <ConditionSelect
        label="Alert condition"
        basis={form.basis}
        value={form.condition}
        onChange={(condition) => change({ condition })}
      />
      {form.basis === 'ema' ? (
        <input
          aria-label="EMA period"
          inputMode="numeric"
          size={4}
          value={form.period}
          onChange={(e) => change({ period: e.target.value })}
        />
      ) : null}
      {study ? (
        <select
          aria-label="Bars"
          value={form.interval}
          onChange={(e) => change({ interval: StudyInterval.catch('5minute').parse(e.target.value) })}
        >
          {StudyInterval.options.map((i) => (
            <option key={i} value={i}>
              {INTERVAL_WORDS[i]} bars
            </option>
          ))}
        </select>
      ) : (
        <input
          aria-label={mtm ? 'Alert MTM' : 'Alert price'}
          inputMode="decimal"
          placeholder={mtm ? '₹ (loss negative)' : 'Price'}
          value={form.level}
          onChange={(e) => change({ level: e.target.value })}
        />
      )}
      <NotifyFields value={model.notify} onChange={model.setNotify} label="New alert notifications" />
    </div>
  );
}

/** The sides and the order types an alert's order offers (its form's `side` and `orderType`). */
const SIDES = ['BUY', 'SELL'] as const;
const ORDER_TYPES = ['MARKET', 'LIMIT'] as const;

/** What the alert places when it fires: nothing, an order (its side, quantity, type, limit and product) or the basket. */
function AlertPlaces({ model }: { readonly model: NewAlertForm }) {
  const { form, change, instrument, basket } = model;
  const mtm = form.basis === 'mtm';
  const products = instrument ? allowedProducts(instrument) : (['MIS'] as const);
  return (
    <>
      <label>
        Places{' '}
        <select
          aria-label="Places"
          value={form.places}
          onChange={(e) =>
            change({
              places: e.target.value === 'order' ? 'order' : e.target.value === 'basket' ? 'basket' : 'nothing',
            })
          }
        >
          <option value="nothing">nothing</option>
          {mtm ? null : <option value="order">an order</option>}
          <option value="basket">the basket ({basket.legs.length} legs)</option>
        </select>
      </label>
      {form.places === 'order' ? (
        <>
          <ChoiceSelect label="Order side" value={form.side} options={SIDES} onChange={(side) => change({ side })} />
          <input
            aria-label="Order quantity"
            inputMode="numeric"
            placeholder="Qty"
            size={6}
            value={form.quantity}
            onChange={(e) => change({ quantity: e.target.value })}
          />
          <ChoiceSelect
            label="Order type"
            value={form.orderType}
            options={ORDER_TYPES}
            onChange={(t) => change({ orderType: t })}
          />
          {form.orderType === 'LIMIT' ? (
            <input
              aria-label="Order limit price"
              inputMode="decimal"
              placeholder="Limit"
              size={8}
              value={form.limitPrice}
              onChange={(e) => change({ limitPrice: e.target.value })}
            />
          ) : null}
          <ChoiceSelect
            label="Order product"
            value={form.product}
            options={products}
            onChange={(product) => change({ product })}
          />
        </>
      ) : null}
    </>
  );
}

import { useState, type FormEvent } from 'react';
import type { GttPlaceOutcome, GttRequest } from '@shared/domain/gtt';
import { AppError } from '@shared/ipc/app-error';
import type { IpcError } from '@shared/ipc/result';
import { describeError } from '../../lib/describe-error';
import { isRiskRefusal, RiskRefusal } from '../safety/risk-override';
import { formatPrice } from '../../lib/format';
import { useInstruments } from '../instruments/queries';
import { Dialog } from '../layout/dialog';
import { Field } from '../layout/field';
import { useMarketSubscription } from '../market/use-market-subscription';
import { useQuote } from '../market/use-quotes';
import { newRequestId } from '../ticket/use-submit-order';
import { distance, evaluateGtt, formField, type GttForm, type GttFormField } from './gtt-model';
import { useGttDialog, useGttDialogActions } from './gtt-store';
import { useModifyGtt, usePlaceGtt } from './queries';

/** The open GTT form (from the ticket, a position row, or a GTT's Modify), or nothing. */
export function GttDialogHost() {
  const open = useGttDialog();
  const { closed } = useGttDialogActions();
  if (!open) return null;
  return (
    <GttDialog
      key={`${open.instrumentToken}:${open.editing?.gttId ?? 'new'}`}
      instrumentToken={open.instrumentToken}
      initial={open.form}
      gttId={open.editing?.gttId ?? null}
      onClose={closed}
    />
  );
}

/** The outcome in words: placed, or not yet confirmed (never "failed" for something that may exist). */
function outcomeText(o: GttPlaceOutcome): string {
  return o.state === 'placed'
    ? `GTT ${o.gttId} created`
    : `Not yet confirmed (${o.clientGttId ?? 'no reference'}): ${o.detail}`;
}

/**
 * Sending the form (docs/gtt.md §When the broker fails): a creation or a change, each under one
 * request id however often it is sent; a refusal's field errors land on their fields, a risk
 * refusal offers "Create anyway".
 */
function useGttSend(gttId: string | null, onClose: () => void) {
  const [serverErrors, setServerErrors] = useState<Partial<Record<GttFormField, string>>>({});
  const [outcome, setOutcome] = useState<GttPlaceOutcome | null>(null);
  const [risk, setRisk] = useState<IpcError | null>(null);
  const [requestId] = useState(newRequestId);
  const place = usePlaceGtt();
  const modify = useModifyGtt();
  const failed = (e: unknown): void => {
    if (e instanceof AppError && isRiskRefusal(e.info)) {
      setRisk(e.info);
      return;
    }
    if (e instanceof AppError && e.info.fields) {
      const next: Partial<Record<GttFormField, string>> = {};
      for (const f of e.info.fields) next[formField(f.field)] ??= f.message;
      setServerErrors(next);
    } else setServerErrors({ form: describeError(e) });
  };
  const send = (request: GttRequest, override: boolean): void => {
    const riskOverride = override ? ({ riskOverride: true } as const) : {};
    setRisk(null);
    if (gttId !== null) {
      modify.mutate(
        { gttId, changes: { triggerValues: request.triggerValues, legs: request.legs }, requestId, ...riskOverride },
        { onSuccess: onClose, onError: failed },
      );
    } else {
      place.mutate({ gtt: request, requestId, ...riskOverride }, { onSuccess: setOutcome, onError: failed });
    }
  };
  /** The trader changed the form: what main said about the last one no longer applies. */
  const edited = (): void => {
    setServerErrors({});
    setRisk(null);
  };
  return { send, edited, serverErrors, outcome, risk, pending: place.isPending || modify.isPending };
}

/** The form's fields: type, side and quantity; the (stop-loss) trigger and price; an OCO's target. */
function GttFields(props: {
  readonly form: GttForm;
  readonly shown: Partial<Record<GttFormField, string>>;
  readonly ltp: number;
  readonly editing: boolean;
  readonly edit: (patch: Partial<GttForm>) => void;
}) {
  const { form, shown, ltp, edit } = props;
  const oco = form.type === 'oco';
  const input = (field: keyof GttForm, label: string) => (
    <Field label={label} error={shown[field as GttFormField]}>
      {(p) => (
        <input
          {...p}
          inputMode="decimal"
          autoComplete="off"
          value={form[field]}
          onChange={(e) => edit({ [field]: e.target.value })}
        />
      )}
    </Field>
  );
  return (
    <>
      <div className="ticket__row">
        <Field label="Type">
          {(p) => (
            <select
              {...p}
              value={form.type}
              disabled={props.editing}
              onChange={(e) => edit({ type: e.target.value === 'oco' ? 'oco' : 'single' })}
            >
              <option value="single">Single</option>
              <option value="oco">OCO</option>
            </select>
          )}
        </Field>
        <Field label="Side">
          {(p) => (
            <select
              {...p}
              value={form.side}
              onChange={(e) => edit({ side: e.target.value === 'BUY' ? 'BUY' : 'SELL' })}
            >
              <option value="BUY">BUY</option>
              <option value="SELL">SELL</option>
            </select>
          )}
        </Field>
        {input('quantity', 'Quantity')}
      </div>
      <div className="ticket__row">
        {input('trigger', oco ? 'Stop-loss trigger' : 'Trigger')}
        {input('price', oco ? 'Stop-loss limit price' : 'Limit price')}
        <span className="muted small" data-testid="gtt-distance-0">
          {distance(Number(form.trigger), ltp)}
        </span>
      </div>
      {oco ? (
        <div className="ticket__row">
          {input('targetTrigger', 'Target trigger')}
          {input('targetPrice', 'Target limit price')}
          <span className="muted small" data-testid="gtt-distance-1">
            {distance(Number(form.targetTrigger), ltp)}
          </span>
        </div>
      ) : null}
    </>
  );
}

/** What became of a creation: created, or not yet confirmed. */
function GttOutcomeView(props: { readonly outcome: GttPlaceOutcome; readonly onClose: () => void }) {
  return (
    <div className="form">
      <p role="status" data-testid="gtt-outcome">
        {outcomeText(props.outcome)}
      </p>
      <div className="form__buttons">
        <button type="button" className="primary" onClick={props.onClose} data-autofocus>
          Done
        </button>
      </div>
    </div>
  );
}

/**
 * A GTT form (docs/gtt.md): single (one trigger, one LIMIT order) or OCO (a stop-loss below and a
 * target above the last price, one LIMIT order each). The shared rules judge it as the trader
 * types; main judges it again and the broker a third time.
 */
function GttDialog(props: {
  readonly instrumentToken: number;
  readonly initial: GttForm;
  readonly gttId: string | null;
  readonly onClose: () => void;
}) {
  const instrument = useInstruments().byToken.get(props.instrumentToken);
  useMarketSubscription('gtt-dialog', [props.instrumentToken]);
  const ltp = useQuote(props.instrumentToken)?.lastPrice ?? 0;
  const [form, setForm] = useState<GttForm>(props.initial);
  const [touched, setTouched] = useState(false);
  const sending = useGttSend(props.gttId, props.onClose);
  if (!instrument) {
    return (
      <Dialog title="GTT" onClose={props.onClose}>
        <p className="muted">Loading the instrument…</p>
      </Dialog>
    );
  }
  const { request, errors } = evaluateGtt(form, instrument, ltp);
  const shown = { ...(touched ? errors : {}), ...sending.serverErrors };
  const edit = (patch: Partial<GttForm>): void => {
    setForm((f) => ({ ...f, ...patch }));
    sending.edited();
  };
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    setTouched(true);
    if (Object.keys(errors).length > 0 || sending.pending) return;
    sending.send(request, false);
  };
  const title = `${props.gttId === null ? 'New' : 'Modify'} GTT · ${instrument.tradingsymbol} ${instrument.exchange}`;
  return (
    <Dialog title={title} onClose={props.onClose}>
      {sending.outcome ? (
        <GttOutcomeView outcome={sending.outcome} onClose={props.onClose} />
      ) : (
        <form aria-label="GTT" className="form" onSubmit={submit} noValidate>
          <p className="muted small">
            LTP <span data-testid="gtt-ltp">{formatPrice(ltp, instrument.tickSize)}</span> · the broker places each
            LIMIT order when the price reaches its trigger
          </p>
          <GttFields form={form} shown={shown} ltp={ltp} editing={props.gttId !== null} edit={edit} />
          {shown.product ? <p className="field-error">{shown.product}</p> : null}
          {shown.form ? (
            <p className="field-error" role="alert">
              {shown.form}
            </p>
          ) : null}
          {sending.risk ? (
            <RiskRefusal
              error={sending.risk}
              anyway="Create anyway"
              onPlaceAnyway={() => sending.send(request, true)}
            />
          ) : null}
          <p className="muted small" data-testid="gtt-risk-note">
            Your risk limits judge each leg now: its quantity, its value at its price and the daily loss lock. When the
            GTT fires the broker places the order without Tradedesk, so the open-order and per-minute limits and the
            price’s distance from the market are not checked then.
          </p>
          <div className="form__buttons">
            <button type="submit" className="primary" disabled={sending.pending}>
              {props.gttId === null ? 'Create GTT' : 'Save GTT'}
            </button>
            <button type="button" onClick={props.onClose}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

import { TEMPLATES, type StrategyTemplate } from '@shared/strategy/templates';
import { formatPrice } from '../../lib/format';
import { formatExpiry, underlyingsOf } from '../options/chain-model';
import type { StrategyView } from './use-strategy-view';

/** The template the trader chose and its size: lots, and how many strikes out the wings sit. */
export interface TemplateChoice {
  readonly template: StrategyTemplate;
  readonly lots: number;
  readonly width: number;
  readonly templateChosen: (id: string) => void;
  readonly lotsChanged: (lots: number) => void;
  readonly widthChanged: (width: number) => void;
}

/**
 * The builder's bar (docs/strategy.md §Building): which underlying and chain, the template with its
 * lots and wings and the ways to fill the legs (a template, the open positions, none), and the
 * underlying's live price.
 */
export function StrategyBar(props: {
  readonly underlying: string;
  /** The instruments (its underlyings to choose from), the chain shown and the underlying's price. */
  readonly view: Pick<StrategyView, 'instruments' | 'chain' | 'spot' | 'spotFrom'>;
  readonly chainExpiry: string | null;
  readonly chainExpiryChosen: (expiry: string | null) => void;
  readonly underlyingChosen: (underlying: string) => void;
  readonly choice: TemplateChoice;
  readonly pending: boolean;
  readonly hasLegs: boolean;
  readonly onApply: () => void;
  readonly onFromPositions: () => void;
  readonly onClear: () => void;
}) {
  const { underlying, view, choice } = props;
  const underlyings = underlyingsOf(view.instruments.list);
  return (
    <div className="strategy__bar">
      <label>
        Underlying{' '}
        <select
          data-autofocus
          value={underlying}
          disabled={props.pending}
          onChange={(e) => props.underlyingChosen(e.target.value)}
        >
          {(underlyings.includes(underlying) ? underlyings : [underlying, ...underlyings]).map((u) => (
            <option key={u} value={u}>
              {u}
            </option>
          ))}
        </select>
      </label>
      <label>
        Expiry{' '}
        <select
          value={props.chainExpiry ?? view.chain?.expiry ?? ''}
          onChange={(e) => props.chainExpiryChosen(e.target.value || null)}
        >
          {(view.chain?.expiries ?? []).map((x, _, all) => (
            <option key={x} value={x}>
              {formatExpiry(x, all[0] ?? x)}
            </option>
          ))}
        </select>
      </label>
      <span className="strategy__sep" />
      <label title={choice.template.strikes}>
        Template{' '}
        <select
          value={choice.template.id}
          aria-describedby="strategy-template-strikes"
          onChange={(e) => choice.templateChosen(e.target.value)}
        >
          {TEMPLATES.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Lots <CountInput value={choice.lots} max={100} onChange={choice.lotsChanged} />
      </label>
      <label title="Wings: how many strikes beyond the sold legs the bought legs sit (spreads, condor, fly, butterfly)">
        Wings <CountInput value={choice.width} max={10} onChange={choice.widthChanged} />
      </label>
      <button type="button" disabled={props.pending} onClick={props.onApply}>
        Apply template
      </button>
      <button type="button" disabled={props.pending} onClick={props.onFromPositions}>
        From positions
      </button>
      <button type="button" disabled={props.pending || !props.hasLegs} onClick={props.onClear}>
        Clear
      </button>
      <span
        className="strategy__spot"
        data-testid="strategy-spot"
        title={view.spotFrom === 'stream' ? 'Live' : "The chain's last read"}
      >
        {underlying} {view.spot === null ? '…' : formatPrice(Math.round(view.spot * 100) / 100)}
        {view.spotFrom === 'chain' ? <span className="muted small"> (chain)</span> : null}
      </span>
    </div>
  );
}

/** A whole number from 1 to `max`: a figure past either end is held to it, anything else reads 1. */
function CountInput(props: { readonly value: number; readonly max: number; readonly onChange: (n: number) => void }) {
  return (
    <input
      className="strategy__lots"
      type="number"
      min={1}
      max={props.max}
      value={props.value}
      onChange={(e) => props.onChange(Math.max(1, Math.min(props.max, Math.round(Number(e.target.value)) || 1)))}
    />
  );
}

import type { Instrument } from '@shared/domain/instrument';
import type { Product } from '@shared/domain/order';
import { formatPrice, formatQty, formatRupees } from '../../lib/format';
import { Field } from '../layout/field';
import type { BracketDraft, BracketDraftField, BracketEvaluation } from './bracket-draft';

/**
 * The ticket's "Stop-loss, target & size" section (docs/brackets.md §In the ticket): a stop-loss
 * and a target as prices or distances from the entry, an optional trail by ₹ or %, the risk the
 * trader will take (₹ or % of the available funds) with the quantity it allows, and the choice to
 * place the order as a bracket main keeps — for a CNC or NRML order, with the note that a GTT OCO
 * is the broker's own pair for a position kept overnight (docs/brackets.md §Brackets or a GTT OCO).
 * Each problem sits under the field it is about.
 */
export function BracketSection(props: {
  readonly draft: BracketDraft;
  readonly evaluation: BracketEvaluation;
  /** Refusals from main naming a field of this section. */
  readonly refusals: Partial<Record<BracketDraftField, string>>;
  readonly instrument: Instrument | undefined;
  readonly quantity: number;
  /** The ticket's product: a CNC or NRML bracket notes that a GTT OCO is the overnight pair. */
  readonly product: Product;
  readonly expanded: boolean;
  onExpand(expanded: boolean): void;
  onEdit(patch: Partial<BracketDraft>): void;
  /** The trader takes the quantity the risk allows. */
  onUseQuantity(quantity: number): void;
}) {
  const { draft: d, evaluation: e, instrument } = props;
  const tick = instrument?.tickSize;
  const errorOf = (f: BracketDraftField): string | undefined => e.errors[f] ?? props.refusals[f];
  const size = e.size?.ok ? e.size : null;
  return (
    <section className="ticket__bracket" aria-label="Stop-loss, target and size">
      <button
        type="button"
        className="ticket__bracket-toggle"
        aria-expanded={props.expanded}
        onClick={() => props.onExpand(!props.expanded)}
      >
        {props.expanded ? '▾' : '▸'} Stop-loss, target &amp; size from risk
        {d.on ? <span className="badge st-open">Bracket</span> : null}
      </button>
      {props.expanded ? (
        <>
          <div className="ticket__row">
            <PairField
              label="Stop-loss"
              error={errorOf('stop')}
              hint={hintOf(d.stopBy, e.stopPrice, tick)}
              value={d.stop}
              onValue={(stop) => props.onEdit({ stop })}
              unitLabel="Stop-loss as"
              unit={d.stopBy}
              units={PRICE_OR_DISTANCE}
              onUnit={(stopBy) => props.onEdit({ stopBy })}
            />
            <PairField
              label="Target"
              error={errorOf('target')}
              hint={hintOf(d.targetBy, e.targetPrice, tick)}
              value={d.target}
              onValue={(target) => props.onEdit({ target })}
              unitLabel="Target as"
              unit={d.targetBy}
              units={PRICE_OR_DISTANCE}
              onUnit={(targetBy) => props.onEdit({ targetBy })}
            />
          </div>
          <div className="ticket__row">
            <PairField
              label="Trail the stop"
              error={errorOf('trail')}
              value={d.trailBy === 'none' ? '' : d.trail}
              disabled={d.trailBy === 'none'}
              placeholder={d.trailBy === 'none' ? 'no trail' : ''}
              onValue={(trail) => props.onEdit({ trail })}
              unitLabel="Trail by"
              unit={d.trailBy}
              units={TRAIL_BY}
              onUnit={(trailBy) => props.onEdit({ trailBy })}
            />
            <PairField
              label="Risk"
              error={errorOf('risk')}
              value={d.risk}
              placeholder="size from risk"
              onValue={(risk) => props.onEdit({ risk })}
              unitLabel="Risk in"
              unit={d.riskIn}
              units={RISK_IN}
              onUnit={(riskIn) => props.onEdit({ riskIn })}
            />
          </div>
          {size ? (
            <div className="ticket__size small" data-testid="size-from-risk" aria-live="polite">
              <span>
                Size <strong>{formatQty(size.quantity)}</strong>
                {instrument && instrument.lotSize > 1 ? ` (${formatQty(size.lots)} lots)` : ''} ·{' '}
                {formatRupees(size.atRisk)} at risk of {formatRupees(size.budget)} · stop{' '}
                {formatPrice(size.stopPrice, tick)}
              </span>
              {props.quantity !== size.quantity ? (
                <button type="button" className="small" onClick={() => props.onUseQuantity(size.quantity)}>
                  Use {formatQty(size.quantity)}
                </button>
              ) : null}
            </div>
          ) : null}
          <label className="check">
            <input type="checkbox" checked={d.on} onChange={(ev) => props.onEdit({ on: ev.target.checked })} />
            Place as a bracket: Tradedesk places the stop-loss and target once the entry fills, and cancels one when the
            other fills
          </label>
          {d.on && props.product !== 'MIS' ? (
            <p className="small muted" data-testid="bracket-overnight">
              The exits are day orders, paired by Tradedesk while it runs. To keep a {props.product} position protected
              overnight at the broker, use a GTT OCO (GTT on its position row).
            </p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

const PRICE_OR_DISTANCE = [
  ['price', 'price'],
  ['distance', '₹ away'],
] as const;
const TRAIL_BY = [
  ['none', 'off'],
  ['points', '₹ behind'],
  ['percent', '% behind'],
] as const;
const RISK_IN = [
  ['rupees', '₹'],
  ['percent', '% of funds'],
] as const;

/** A typed amount with its unit beside it ("20" "₹ away"), labelled, its error under both. */
function PairField<U extends string>(props: {
  readonly label: string;
  readonly error: string | undefined;
  readonly hint?: string | undefined;
  readonly value: string;
  readonly disabled?: boolean;
  readonly placeholder?: string;
  onValue(value: string): void;
  readonly unitLabel: string;
  readonly unit: U;
  readonly units: ReadonlyArray<readonly [U, string]>;
  onUnit(unit: U): void;
}) {
  return (
    <Field label={props.label} error={props.error} hint={props.hint}>
      {(p) => (
        <span className="ticket__pair">
          <input
            {...p}
            inputMode="decimal"
            autoComplete="off"
            disabled={props.disabled}
            placeholder={props.placeholder}
            value={props.value}
            onChange={(ev) => props.onValue(ev.target.value)}
          />
          <select
            aria-label={props.unitLabel}
            value={props.unit}
            onChange={(ev) => props.onUnit(props.units.find(([u]) => u === ev.target.value)?.[0] ?? props.unit)}
          >
            {props.units.map(([u, text]) => (
              <option key={u} value={u}>
                {text}
              </option>
            ))}
          </select>
        </span>
      )}
    </Field>
  );
}

/** "at 1,480.00" under a distance, so the trader sees the price main will be asked for. */
function hintOf(by: 'price' | 'distance', price: number | null, tick: number | undefined): string | undefined {
  return by === 'distance' && price !== null ? `at ${formatPrice(price, tick)}` : undefined;
}

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
            <Field label="Stop-loss" error={errorOf('stop')} hint={hintOf(d.stopBy, e.stopPrice, tick)}>
              {(p) => (
                <span className="ticket__pair">
                  <input
                    {...p}
                    inputMode="decimal"
                    autoComplete="off"
                    value={d.stop}
                    onChange={(ev) => props.onEdit({ stop: ev.target.value })}
                  />
                  <select
                    aria-label="Stop-loss as"
                    value={d.stopBy}
                    onChange={(ev) => props.onEdit({ stopBy: ev.target.value === 'distance' ? 'distance' : 'price' })}
                  >
                    <option value="price">price</option>
                    <option value="distance">₹ away</option>
                  </select>
                </span>
              )}
            </Field>
            <Field label="Target" error={errorOf('target')} hint={hintOf(d.targetBy, e.targetPrice, tick)}>
              {(p) => (
                <span className="ticket__pair">
                  <input
                    {...p}
                    inputMode="decimal"
                    autoComplete="off"
                    value={d.target}
                    onChange={(ev) => props.onEdit({ target: ev.target.value })}
                  />
                  <select
                    aria-label="Target as"
                    value={d.targetBy}
                    onChange={(ev) => props.onEdit({ targetBy: ev.target.value === 'distance' ? 'distance' : 'price' })}
                  >
                    <option value="price">price</option>
                    <option value="distance">₹ away</option>
                  </select>
                </span>
              )}
            </Field>
          </div>
          <div className="ticket__row">
            <Field label="Trail the stop" error={errorOf('trail')}>
              {(p) => (
                <span className="ticket__pair">
                  <input
                    {...p}
                    inputMode="decimal"
                    autoComplete="off"
                    disabled={d.trailBy === 'none'}
                    placeholder={d.trailBy === 'none' ? 'no trail' : ''}
                    value={d.trailBy === 'none' ? '' : d.trail}
                    onChange={(ev) => props.onEdit({ trail: ev.target.value })}
                  />
                  <select
                    aria-label="Trail by"
                    value={d.trailBy}
                    onChange={(ev) => {
                      const v = ev.target.value;
                      props.onEdit({ trailBy: v === 'points' || v === 'percent' ? v : 'none' });
                    }}
                  >
                    <option value="none">off</option>
                    <option value="points">₹ behind</option>
                    <option value="percent">% behind</option>
                  </select>
                </span>
              )}
            </Field>
            <Field label="Risk" error={errorOf('risk')}>
              {(p) => (
                <span className="ticket__pair">
                  <input
                    {...p}
                    inputMode="decimal"
                    autoComplete="off"
                    placeholder="size from risk"
                    value={d.risk}
                    onChange={(ev) => props.onEdit({ risk: ev.target.value })}
                  />
                  <select
                    aria-label="Risk in"
                    value={d.riskIn}
                    onChange={(ev) => props.onEdit({ riskIn: ev.target.value === 'percent' ? 'percent' : 'rupees' })}
                  >
                    <option value="rupees">₹</option>
                    <option value="percent">% of funds</option>
                  </select>
                </span>
              )}
            </Field>
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

/** "at 1,480.00" under a distance, so the trader sees the price main will be asked for. */
function hintOf(by: 'price' | 'distance', price: number | null, tick: number | undefined): string | undefined {
  return by === 'distance' && price !== null ? `at ${formatPrice(price, tick)}` : undefined;
}

import { useId } from 'react';
import type { BracketRequest } from '@shared/domain/bracket';
import { formatPrice } from '../../lib/format';
import { useConfirmOnEnter, useSettingsActions } from '../../state/settings-store';
import { LegOutcomes } from './slice-offer';
import { AddToBasket } from '../basket/add-to-basket';
import { OrderOutcome } from './order-outcome';
import { RiskRefusal } from '../safety/risk-override';
import { ConfirmOrder } from './confirm-order';
import { MarginSummary } from './margin-summary';
import { SendAsk } from './send-ask';
import { UnconfirmedGuard } from './unconfirmed-guard';
import { GttFromTicket } from '../gtt/gtt-buttons';
import { bracketState } from '../brackets/bracket-model';
import type { TicketForm } from './use-ticket-form';
import type { TicketSubmit } from './use-ticket-submit';

/** A bracket's exits in the confirmation's words: "with stop-loss 1,480.00 (trailing ₹5) and target 1,530.00, as a bracket". */
function bracketWords(r: BracketRequest, tickSize: number | undefined): string {
  const trail = r.trail ? ` (trailing ${r.trail.by === 'points' ? `₹${r.trail.amount}` : `${r.trail.amount}%`})` : '';
  const legs = [
    r.stop ? `stop-loss ${formatPrice(r.stop.triggerPrice, tickSize)}${trail}` : null,
    r.target ? `target ${formatPrice(r.target.price, tickSize)}` : null,
  ].filter((x) => x !== null);
  return `with ${legs.join(' and ')}, as a bracket`;
}

/**
 * The ticket's foot, pinned under its fields: the margin, the questions before sending (the
 * confirmation, the ticket's asks, an unconfirmed order's guard), Place, and the answer.
 */
export function TicketFoot({ form, submit }: { readonly form: TicketForm; readonly submit: TicketSubmit }) {
  const outcomeId = useId();
  const { draft, instrument, sending, bracket, asks, asking, setAsking } = form;
  const { request, variety, single: submitter, legs, confirming, setConfirming } = sending;
  const bracketSubmit = bracket.submitter;
  const bracketRequest = bracket.request;
  const { sentBracket, lastOutcome, submitOrder } = submit;
  const confirmOnEnter = useConfirmOnEnter();
  const { confirmOnEnterToggled } = useSettingsActions();
  return (
    <div className="ticket__foot">
      <MarginSummary margin={form.margin} />
      {confirming && request ? (
        <ConfirmOrder
          request={request}
          extra={bracketRequest ? bracketWords(bracketRequest, instrument?.tickSize) : null}
          onConfirm={() => submitOrder()}
          onBack={() => setConfirming(false)}
        />
      ) : null}

      {asking && asks.length > 0 ? (
        <SendAsk
          label="Before sending"
          placeLabel="Place anyway"
          onPlace={() => submitOrder(true)}
          onBack={() => setAsking(false)}
        >
          {asks.map((a) => (
            <p key={a}>{a}</p>
          ))}
        </SendAsk>
      ) : null}

      {submitter.warning ? (
        <UnconfirmedGuard
          warning={submitter.warning}
          onPlace={() => submitter.submit({ despiteUnconfirmed: true })}
          onBack={submitter.dismissWarning}
        />
      ) : null}
      {legs.warning ? (
        <UnconfirmedGuard
          warning={legs.warning}
          onPlace={() => sending.placeLegs({ despiteUnconfirmed: true })}
          onBack={legs.dismissWarning}
        />
      ) : null}

      <div className="form__buttons">
        <button
          type="submit"
          className={draft.side === 'BUY' ? 'buy-button' : 'sell-button'}
          disabled={!submit.canPlace || submit.pending}
          aria-describedby={outcomeId}
        >
          {submitter.pending || bracketSubmit.pending ? 'Placing…' : bracket.draft.on ? 'Place bracket' : 'Place order'}
        </button>
        <AddToBasket order={request} />
        <GttFromTicket instrument={instrument} draft={draft} />
        {variety === 'amo' ? <span className="badge st-pending">AMO</span> : null}
        <label className="check">
          <input type="checkbox" checked={confirmOnEnter} onChange={confirmOnEnterToggled} />
          Confirm on Enter
        </label>
      </div>

      <OrderOutcome
        outcome={
          sentBracket ? bracketSubmit.outcome : sending.lastSent === 'single' ? submitter.outcome : { kind: 'idle' }
        }
        id={outcomeId}
      />
      {sentBracket && bracketSubmit.bracket ? (
        <p className="small" data-testid="ticket-bracket">
          Bracket: {bracketState(bracketSubmit.bracket)} — followed in the Brackets tab
        </p>
      ) : null}
      {(sentBracket || sending.lastSent === 'single') && lastOutcome.kind === 'refused' ? (
        <RiskRefusal
          error={lastOutcome.error}
          onPlaceAnyway={() =>
            sentBracket && bracketRequest
              ? bracketSubmit.submit(bracketRequest, { riskOverride: true })
              : submitter.submit({ riskOverride: true })
          }
        />
      ) : null}
      {!sentBracket && sending.lastSent === 'legs' && legs.legs ? <LegOutcomes legs={legs.legs} /> : null}
    </div>
  );
}

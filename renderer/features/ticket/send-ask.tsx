import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A question the ticket asks before sending (an unconfirmed order, `send-asks.ts`' checks): what
 * is wrong in words, with Back focused so a stray Enter sends nothing, and the place button.
 */
export function SendAsk(props: {
  readonly label: string;
  readonly placeLabel: string;
  readonly children: ReactNode;
  readonly onPlace: () => void;
  readonly onBack: () => void;
}) {
  const back = useRef<HTMLButtonElement>(null);
  useEffect(() => back.current?.focus(), []);
  return (
    <div className="ticket__confirm ticket__guard" role="group" aria-label={props.label}>
      {props.children}
      <div className="form__buttons">
        <button type="button" onClick={props.onPlace}>
          {props.placeLabel}
        </button>
        <button ref={back} type="button" className="primary" onClick={props.onBack}>
          Back
        </button>
      </div>
    </div>
  );
}

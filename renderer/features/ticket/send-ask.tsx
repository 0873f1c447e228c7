import { useEffect, useRef } from 'react';

/**
 * The ticket's questions before an order it thinks is not what the trader meant (`send-asks.ts`):
 * each in words, with Back focused so a stray Enter sends nothing, and Place anyway.
 */
export function SendAsk(props: {
  readonly asks: readonly string[];
  readonly onPlace: () => void;
  readonly onBack: () => void;
}) {
  const back = useRef<HTMLButtonElement>(null);
  useEffect(() => back.current?.focus(), []);
  return (
    <div className="ticket__confirm ticket__guard" role="group" aria-label="Before sending">
      {props.asks.map((a) => (
        <p key={a}>{a}</p>
      ))}
      <div className="form__buttons">
        <button type="button" onClick={props.onPlace}>
          Place anyway
        </button>
        <button ref={back} type="button" className="primary" onClick={props.onBack}>
          Back
        </button>
      </div>
    </div>
  );
}

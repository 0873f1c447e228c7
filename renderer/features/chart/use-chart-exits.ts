import { useState } from 'react';
import type { Instrument } from '@shared/domain/instrument';
import type { Position } from '@shared/domain/portfolio';
import { describeError } from '../../lib/describe-error';
import { usePlaceBracket } from '../brackets/queries';
import { isRefusal, refusalText } from '../placements/placement-model';
import { newRequestId } from '../ticket/use-submit-order';
import type { ChartExit } from './chart-drag';

/** The exits drawn out of the position, not placed yet. */
export interface ExitDraft {
  readonly stop: number | null;
  readonly target: number | null;
}

const NO_EXITS: ExitDraft = { stop: null, target: null };

/**
 * The exits drawn out of the position's line (docs/brackets.md §On the chart): a stop-loss below
 * or above the last price, a target on the other side, which Place sends as one `brackets.place`
 * protecting the position (one click, one request id), so main keeps them one-cancels-other.
 * `key`: the instrument and position they were drawn for; another shows none of them.
 */
export function useChartExits(instrument: Instrument | undefined, position: Position | null, key: string) {
  const place = usePlaceBracket();
  const [exitsAt, setExits] = useState<{ readonly key: string; readonly exits: ExitDraft } | null>(null);
  const [placed, setPlaced] = useState<{ readonly ok: boolean; readonly text: string } | null>(null);
  const exits = exitsAt?.key === key ? exitsAt.exits : NO_EXITS;
  const drawn = (exit: ChartExit): void => {
    setPlaced(null);
    setExits({ key, exits: { ...exits, [exit.leg]: exit.price } });
  };
  const clearExits = (): void => {
    setExits(null);
    setPlaced(null);
  };
  const placeExits = (): void => {
    if (!instrument || !position || place.isPending || (exits.stop === null && exits.target === null)) return;
    const quantity = Math.abs(position.quantity);
    place.mutate(
      {
        request: {
          kind: 'protect',
          exchange: instrument.exchange,
          tradingsymbol: instrument.tradingsymbol,
          product: position.product,
          side: position.quantity > 0 ? 'BUY' : 'SELL',
          quantity,
          stop: exits.stop === null ? null : { triggerPrice: exits.stop },
          target: exits.target === null ? null : { price: exits.target },
          trail: null,
        },
        requestId: newRequestId(),
        clickedAt: Date.now(),
      },
      {
        onSuccess: () => {
          setExits(null);
          setPlaced({ ok: true, text: `Protecting ${quantity}: followed in the Brackets tab` });
        },
        onError: (err) =>
          setPlaced({
            ok: false,
            text: isRefusal(err)
              ? refusalText(err.info)
              : `Not yet confirmed (${describeError(err)}): see the Brackets tab before placing again`,
          }),
      },
    );
  };
  return { exits, drawn, clearExits, placeExits, placing: place.isPending, placed };
}

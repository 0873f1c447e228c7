import { fromUnits, toUnits } from '@shared/trading/money';
import { formatRupees } from '../../lib/format';

/**
 * What the ticket asks before sending an order that is probably not what the trader meant
 * (docs/brackets.md §In the ticket, docs/renderer.md §The ticket's funds check): exits typed but
 * left out of the order, or a margin the account does not have. Both are soft: the trader can
 * place anyway, and the broker's own answer is still the truth.
 */

/** The margin the order needs against what is available, both as last read; null while unknown. */
export interface MarginCheck {
  readonly required: number;
  readonly available: number;
}

/** How much more the order needs than is available, exact in paise; null when it fits or is unknown. */
export function shortfallOf(m: MarginCheck | null): number | null {
  if (!m) return null;
  const short = toUnits(m.required) - toUnits(m.available);
  return short > 0 ? fromUnits(short) : null;
}

/** The questions to answer before this order goes, in the order they are shown; none: send at once. */
export function asksBeforeSending(input: {
  readonly exitsLeftOut: boolean;
  readonly margin: MarginCheck | null;
}): string[] {
  const asks: string[] = [];
  if (input.exitsLeftOut)
    asks.push(
      'The stop-loss and target you typed are not part of this order ("Place as a bracket" is off): the entry goes alone, with no exit.',
    );
  const short = shortfallOf(input.margin);
  if (short !== null && input.margin)
    asks.push(
      `Required ${formatRupees(input.margin.required)} is ${formatRupees(short)} more than the ${formatRupees(
        input.margin.available,
      )} available: the broker is likely to reject it.`,
    );
  return asks;
}

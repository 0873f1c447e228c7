import type { InstrumentType } from '@shared/domain/instrument';
import type { Product, TransactionType } from '@shared/domain/order';

/**
 * How much money an order or a position ties up.
 *
 * Deliberately simple and documented (docs/api.md "Margins"): MIS gets 5x leverage, NRML 4x,
 * CNC none; buying an option blocks the whole premium (the most the buyer can lose).
 */

export const MIS_LEVERAGE = 5;
export const NRML_LEVERAGE = 4;

export function leverageOf(product: Product, instrumentType: InstrumentType, side: TransactionType): number {
  if (product === 'CNC') return 1;
  if ((instrumentType === 'CE' || instrumentType === 'PE') && side === 'BUY') return 1;
  return product === 'MIS' ? MIS_LEVERAGE : NRML_LEVERAGE;
}

/** Margin in price units for `valueUnits` of exposure, rounded up so blocks never undershoot. */
export function marginFor(valueUnits: number, leverage: number): number {
  return Math.ceil(valueUnits / leverage);
}

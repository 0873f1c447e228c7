import type { GttRequest } from '@shared/domain/gtt';

/**
 * Test-only: a single-trigger GTT on INFY that sells 1 (MIS) at
 * `trigger` once the price reaches it (docs/gtt.md).
 */
export function infyGttSell(trigger: number): GttRequest {
  return {
    type: 'single',
    exchange: 'NSE',
    tradingsymbol: 'INFY',
    triggerValues: [trigger],
    legs: [{ transactionType: 'SELL', quantity: 1, product: 'MIS', price: trigger }],
  };
}

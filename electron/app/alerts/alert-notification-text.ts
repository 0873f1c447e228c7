import type { PriceAlert } from '@shared/domain/alert';

/** Two decimals with Indian grouping, as the desk shows prices (1,510.00). */
const PRICE = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 4 });

/**
 * The title and body of a fired alert's OS notification (docs/contract.md §Alert notifications):
 * the alert in words and the price that met it, with the trader's note. Pure, so it is tested
 * without Electron; the Electron layer only shows it.
 */
export function alertNotificationText(alert: PriceAlert): { readonly title: string; readonly body: string } {
  const title = `Alert: ${alert.tradingsymbol} ${alert.condition} ${PRICE.format(alert.price)}`;
  const ltp = alert.triggeredPrice === null ? null : `LTP ${PRICE.format(alert.triggeredPrice)}`;
  const body = [ltp, alert.note].filter((x): x is string => !!x).join(' · ');
  return { title, body: body || `${alert.exchange}:${alert.tradingsymbol}` };
}

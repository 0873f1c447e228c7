import { describeAlert, type PriceAlert } from '@shared/domain/alert';

/** Two decimals with Indian grouping, as the desk shows prices (1,510.00). */
const PRICE = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 4 });

/** How the OS's notification daemon reads a notification's body. */
export interface NotificationTarget {
  /**
   * The body is markup (Linux: freedesktop daemons render `<b>`, `<a href>`, `<img>` in it), so
   * text the trader typed is escaped there; elsewhere it is plain text and shown as written.
   */
  readonly bodyIsMarkup: boolean;
}

/** The target of the OS this process runs on. */
export const THIS_OS: NotificationTarget = { bodyIsMarkup: process.platform === 'linux' };

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * The title and body of a fired alert's OS notification (docs/contract.md §Alert notifications):
 * the alert in words and the price that met it, with the trader's note. Pure, so it is tested
 * without Electron; the Electron layer only shows it. The title is plain text on every OS.
 */
export function alertNotificationText(
  alert: PriceAlert,
  target: NotificationTarget = THIS_OS,
): { readonly title: string; readonly body: string } {
  const title = `Alert: ${describeAlert(alert, (n) => PRICE.format(n))}`;
  const ltp =
    alert.triggeredPrice === null
      ? null
      : `${alert.basis.kind === 'mtm' ? 'MTM ₹' : 'LTP '}${PRICE.format(alert.triggeredPrice)}`;
  const text =
    [ltp, alert.note].filter((x): x is string => !!x).join(' · ') ||
    (alert.tradingsymbol === null ? 'The account' : `${alert.exchange}:${alert.tradingsymbol}`);
  return { title, body: target.bodyIsMarkup ? text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c) : text };
}

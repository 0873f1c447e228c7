import { Notification } from 'electron';
import type { PriceAlert } from '@shared/domain/alert';
import { alertNotificationText } from '../../app/alerts/alert-notification-text';

/**
 * Shows a fired price alert as the operating system's notification (docs/contract.md §Alert
 * notifications). Silent: the page plays the alert's own tone when it asks for one, so the two
 * never sound twice. Where the OS has no notifications it does nothing; it never throws into
 * the alert book.
 */
export function showAlertNotification(alert: PriceAlert): void {
  try {
    if (!Notification.isSupported()) return;
    new Notification({ ...alertNotificationText(alert), silent: true }).show();
  } catch {
    // A notification is a nicety: the page's toast has already told the trader.
  }
}

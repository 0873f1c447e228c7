import { describe, expect, it } from 'vitest';
import { PriceAlert } from '@shared/domain/alert';
import { alertNotificationText } from './alert-notification-text';

const alert = PriceAlert.parse({
  id: 'al-1',
  instrumentToken: 738561,
  exchange: 'NSE',
  tradingsymbol: 'RELIANCE',
  condition: 'above',
  price: 1510,
  note: `<a href="https://evil.example">Click</a> & <img src="file:///etc/passwd"> 'x'`,
  state: 'triggered',
  createdAt: 1,
  triggeredAt: 2,
  triggeredPrice: 1512.5,
});

describe('an alert’s OS notification', () => {
  it('on a daemon that reads markup, the trader’s note shows as typed: no link, no image', () => {
    const { title, body } = alertNotificationText(alert, { bodyIsMarkup: true });
    expect(title).toBe('Alert: RELIANCE above 1,510.00');
    expect(body).not.toMatch(/<|>/);
    expect(body).toBe(
      'LTP 1,512.50 · &lt;a href=&quot;https://evil.example&quot;&gt;Click&lt;/a&gt; &amp; &lt;img src=&quot;file:///etc/passwd&quot;&gt; &#39;x&#39;',
    );
  });

  it('where the body is plain text it is left as written (escaping would show &lt; to the trader)', () => {
    expect(alertNotificationText(alert, { bodyIsMarkup: false }).body).toBe(`LTP 1,512.50 · ${alert.note}`);
  });
});

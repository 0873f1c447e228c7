/**
 * Which broker URLs the app may send an API secret and a bearer token to (docs/architecture.md
 * §Security): https anywhere, plain http only to this machine's loopback, where nothing crosses
 * a network. One rule for every way a URL enters — the session dialog, the `session.login`
 * contract, `TRADEDESK_BROKER_URL`, the host's `--broker-url` — so none of them can be the gap.
 */

/** The error every entry point shows, naming the field. */
export const BROKER_URL_HTTPS_REQUIRED =
  'Broker URL must use https:// (plain http is allowed only for 127.0.0.1/localhost/::1)';

/** Host names (as `URL.hostname` spells them) that never leave the machine. */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Why `url` may not be used as a broker URL, or null if it may. */
export function brokerUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Broker URL is not a valid URL (e.g. https://broker.example/v1)';
  }
  if (parsed.protocol === 'https:') return null;
  if (parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname)) return null;
  return BROKER_URL_HTTPS_REQUIRED;
}

import { isIP } from 'node:net';
import { KiteError } from './errors';

/**
 * What a Kite Connect app's developer console sets and the paper dialect models
 * (docs/kite.md §The rules of 2026): the static IPs orders may come from, and the plan —
 * whether the app has market data at all.
 */

/** `connect`: market data included (quotes, historical, the ticker). `personal`: orders and account only. */
export type KitePlan = 'connect' | 'personal';

/** Where orders may come from by default: the loopback address every local test and the desk use. */
export const DEFAULT_ALLOWED_IPS: readonly string[] = ['127.0.0.1'];

/** Zerodha's page on registering a static IP, which Kite's refusal links to. */
const STATIC_IP_HELP =
  'https://support.zerodha.com/category/trading-and-markets/general-kite/kite-api/articles/static-ip';

/**
 * `--kite-allowed-ips`: a comma-separated list of IPv4/IPv6 addresses, or `none` (an app with no
 * IP registered). Throws an Error naming the first entry that is not an address.
 */
export function parseAllowedIps(spec: string): string[] {
  if (spec.trim() === 'none') return [];
  const ips = spec.split(',').map((s) => s.trim());
  for (const ip of ips)
    if (isIP(ip) === 0)
      throw new Error(`must be IP addresses separated by commas, or none; ${ip.slice(0, 60)} is not one`);
  return ips.map(canonicalIp);
}

/** An address as Kite would compare it: IPv4-mapped IPv6 (`::ffff:127.0.0.1`) as IPv4, IPv6 lower-cased. */
export function canonicalIp(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? (mapped[1] ?? address) : address.toLowerCase();
}

/**
 * Kite's static-IP rule (since 1 April 2026): placing, modifying or cancelling an order from an
 * address the app has not registered is a 403 PermissionException — the same status as an
 * expired token, told apart only by its words. Reads, the ticker and the login are not checked.
 */
export function checkOrderIp(allowed: readonly string[], remoteAddress: string): void {
  if (allowed.length === 0) throw new KiteError(403, 'PermissionException', 'No IPs configured for this app.');
  const ip = canonicalIp(remoteAddress);
  if (allowed.includes(ip)) return;
  throw new KiteError(
    403,
    'PermissionException',
    `IP (${ip}) is not allowed to place orders for this app. Update allowed IPs on the Kite developer console. Learn more - ${STATIC_IP_HELP}`,
  );
}

/** Kite's answer to a market-data call on an app whose plan has none: 403 PermissionException. */
export function noMarketData(): KiteError {
  return new KiteError(403, 'PermissionException', 'Insufficient permission for that call.');
}

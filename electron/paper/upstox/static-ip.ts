import { canonicalIp } from '../kite/app-settings';
import { UPSTOX_CODES, UpstoxError } from './errors';

/**
 * Upstox's static-IP rule (docs/upstox.md §Static IP): placing, modifying and cancelling an
 * order from an address the user has not registered is refused with 403 UDAPI1154; reads, the
 * feeds and the login work from anywhere. Addresses compare as Kite's do (IPv4-mapped IPv6 as
 * IPv4), and `--upstox-allowed-ips` parses as `--kite-allowed-ips`.
 */

export function checkStaticIp(allowed: readonly string[], remoteAddress: string): void {
  if (allowed.length === 0)
    throw new UpstoxError(403, UPSTOX_CODES.staticIp, 'No static IP has been configured for this account');
  const ip = canonicalIp(remoteAddress);
  if (allowed.includes(ip)) return;
  throw new UpstoxError(
    403,
    UPSTOX_CODES.staticIp,
    `Access to this API is blocked due to static IP restrictions (request from ${ip})`,
  );
}

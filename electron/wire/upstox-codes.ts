/**
 * Upstox's error codes (docs/upstox.md §Errors), one table for both sides of the wire: the
 * adapter tells refusals apart by them, and the paper broker's /upstox dialect answers with them.
 */
export const UPSTOX_CODES = {
  notSupported: 'UDAPI10000',
  tooManyRequests: 'UDAPI10005',
  orderNotFound: 'UDAPI100010',
  invalidCredentials: 'UDAPI100016',
  invalidInput: 'UDAPI100036',
  orderClosed: 'UDAPI100040',
  invalidToken: 'UDAPI100050',
  marketClosed: 'UDAPI100057',
  notFound: 'UDAPI100060',
  serverError: 'UDAPI100500',
  staticIp: 'UDAPI1154',
} as const;

export type UpstoxCode = (typeof UPSTOX_CODES)[keyof typeof UPSTOX_CODES];

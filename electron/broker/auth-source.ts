/**
 * Where the REST layer gets its bearer token, and whom it tells when the token stops working.
 *
 * The session manager (electron/core/session) implements it: the token stays in that one
 * object's memory and the transport asks for it per request, so nothing else holds a copy.
 */
export interface AuthSource {
  /** The current token, or null when logged out. */
  token(): string | null;
  /**
   * A request was refused with 401 while using `stale`: log in again and return the new token.
   *
   * Concurrent 401s share one re-login (the first caller's); null when it cannot be done.
   */
  renew(stale: string): Promise<string | null>;
  /** Re-login did not help: the session is over and the user must log in again. */
  expired(reason: string): void;
}

import type { ErrorKind, IpcError } from '@shared/ipc/result';
import { AppError } from '@shared/ipc/app-error';

/**
 * Builds the typed error every broker failure becomes.
 *
 * The broker layer throws the same `AppError` the bridge understands, so a classified HTTP
 * failure reaches the renderer with its kind, field and Retry-After intact and nothing in
 * between has to translate it. Messages never contain the token or request headers.
 */
export function brokerError(
  kind: ErrorKind,
  message: string,
  extra: Omit<IpcError, 'kind' | 'message'> = {},
): AppError {
  return new AppError({ kind, message, ...extra });
}

/** Kinds after which the outcome of a request is unknown: the server may or may not have acted. */
export const AMBIGUOUS_KINDS: ReadonlySet<ErrorKind> = new Set(['network', 'timeout', 'server_error']);

/** Kinds worth retrying after a wait (docs/brokers.md, "HTTP client, retries and limits"): the same request may succeed later. */
export const TRANSIENT_KINDS: ReadonlySet<ErrorKind> = new Set(['network', 'timeout', 'server_error', 'rate_limited']);

/**
 * Whether a request that failed below HTTP may have reached the broker.
 *
 * - `not_sent`: it provably never left (refused or unreachable at connect, connect timeout, the
 *   pool already closed): the broker cannot have acted on it.
 * - `in_doubt`: it may have been written (a timeout waiting for the reply, a socket closed
 *   mid-request): the broker may act on it, even later, so only a lookup can settle it.
 *
 * The order service re-sends an order only after sends that are closed (docs/money-path.md,
 * "Exactly-once orders"), so misreading `in_doubt` as `not_sent` would risk a second order;
 * anything not known to be connect-phase is `in_doubt`.
 */
export type Reach = 'not_sent' | 'in_doubt';

/** A transport failure (`network` or `timeout`) that says whether the request may have reached the broker. */
export class TransportFailure extends AppError {
  public readonly reach: Reach;

  public constructor(info: IpcError, reach: Reach) {
    super(info);
    this.reach = reach;
  }
}

/**
 * A request that never left because its time to be sent ran out while it waited for the
 * client's rate limit (an order's re-send window ended behind a 429 pause): certain not sent.
 */
export class SendTimePassed extends TransportFailure {
  public constructor() {
    super(
      {
        kind: 'timeout',
        message: 'its time ran out while it waited for the broker’s rate limit, so it was never sent',
      },
      'not_sent',
    );
  }
}

/**
 * The client's own count says a broker limit that waiting cannot help with is reached (Kite's
 * orders a day): nothing was sent, and unlike a broker's 429 it pauses no lane of the bucket.
 */
export class LimitReached extends AppError {
  public constructor(message: string, retryAfterMs: number) {
    super({ kind: 'rate_limited', message, retryAfterMs });
  }
}

import type { ErrorKind, IpcError } from '../../shared/ipc/result';
import { AppError } from '../app/app-error';

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

/** The error kind of anything thrown, `internal` for what is not an `AppError`. */
export function errorKind(err: unknown): ErrorKind {
  return err instanceof AppError ? err.info.kind : 'internal';
}

/** Kinds after which the outcome of a request is unknown: the server may or may not have acted. */
export const AMBIGUOUS_KINDS: ReadonlySet<ErrorKind> = new Set(['network', 'timeout', 'server_error']);

/** Kinds worth retrying after a wait (DESIGN.md §4): the same request may succeed later. */
export const TRANSIENT_KINDS: ReadonlySet<ErrorKind> = new Set(['network', 'timeout', 'server_error', 'rate_limited']);

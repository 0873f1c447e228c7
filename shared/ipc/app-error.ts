import type { IpcError } from './result';

/**
 * An expected failure with the fields the renderer needs (kind, field, retryAfterMs…).
 *
 * Services throw it; the dispatcher turns it into `{ok:false,error}`. Anything else thrown is a
 * bug and reaches the renderer only as `internal`, without its stack or message.
 */
export class AppError extends Error {
  public readonly info: IpcError;

  public constructor(info: IpcError) {
    super(info.message);
    this.name = 'AppError';
    this.info = info;
  }
}

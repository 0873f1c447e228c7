import type { IpcError } from './result';

/**
 * An expected failure carrying the fields a trader's screen needs (kind, field, retryAfterMs…).
 *
 * One class on both sides of the bridge: in main, the broker layer and the services throw it and
 * the dispatcher turns it into `{ok:false,error}` (anything else thrown is a bug and reaches the
 * renderer only as `internal`, without its stack or message); in the renderer, `call()` throws it
 * again from a failed reply, so react-query and the panels read the same `info` main built.
 */
export class AppError extends Error {
  public readonly info: IpcError;

  public constructor(info: IpcError) {
    super(info.message);
    this.name = 'AppError';
    this.info = info;
  }
}

import { z } from 'zod';

/**
 * Kinds of failure a bridge call can return.
 *
 * The broker-facing kinds mirror the HTTP client's classification (docs/contract.md §Error kinds); `bad_request`
 * also covers a payload the bridge refused. `internal` is a bug in main, never the user's.
 */
export const ErrorKind = z.enum([
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'rate_limited',
  'server_error',
  'network',
  'timeout',
  'unexpected_shape',
  'internal',
  /**
   * The link to the Tradedesk service itself dropped while the call was in flight: it may or
   * may not have reached main. For `orders.place` that is "not yet confirmed", never "failed".
   */
  'disconnected',
]);
export type ErrorKind = z.infer<typeof ErrorKind>;

/** A failure as the renderer sees it: a value with its fields, never a thrown Electron error. */
export const IpcError = z.object({
  kind: ErrorKind,
  message: z.string(),
  /** The request field at fault, in the app's spelling (e.g. `triggerPrice`, `payload.quantity`). */
  field: z.string().optional(),
  /** Every field at fault when there is more than one. */
  fields: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  retryAfterMs: z.number().int().nonnegative().optional(),
  /** For `conflict` on a duplicate client_order_id: the order that already exists. */
  orderId: z.string().optional(),
});
export type IpcError = z.infer<typeof IpcError>;

/** The reply of every bridge call: `{ok:true,data}` or `{ok:false,error}`. */
export type IpcResult<T> = { ok: true; data: T } | { ok: false; error: IpcError };

/** Builds the schema of a reply carrying `data` of the given schema. */
export function ipcResultSchema<T extends z.ZodType>(data: T) {
  return z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), data }),
    z.object({ ok: z.literal(false), error: IpcError }),
  ]);
}

import type { z } from 'zod';
import {
  events,
  requests,
  type EventName,
  type EventPayload,
  type RequestChannel,
  type RequestInput,
  type RequestOutput,
} from '@shared/ipc/contract';
import { AppError } from '@shared/ipc/app-error';
import { ipcResultSchema, type IpcError } from '@shared/ipc/result';
import { getBridge } from './bridge';

const resultSchemas = new Map<RequestChannel, z.ZodType>();

/**
 * Calls a contract channel and returns its parsed output, or throws an `AppError`.
 *
 * The reply is parsed against the contract even though main built it: a drift between the two
 * sides shows up here as `unexpected_shape`, not as a wrong number on screen.
 */
export async function call<C extends RequestChannel>(
  channel: C,
  ...payload: undefined extends RequestInput<C> ? [RequestInput<C>?] : [RequestInput<C>]
): Promise<RequestOutput<C>> {
  return parseReply(channel, await getBridge().invoke(channel, payload[0] as RequestInput<C>));
}

/**
 * A bridge reply to `channel`, parsed against the contract: its output, or an `AppError`. `call`
 * parses with it, and so does a caller that sent before this module was loaded (the main window's
 * first `orders.sync`, docs/live-data.md §The first screen first).
 */
export function parseReply<C extends RequestChannel>(channel: C, raw: unknown): RequestOutput<C> {
  let schema = resultSchemas.get(channel);
  if (!schema) resultSchemas.set(channel, (schema = ipcResultSchema(requests[channel].output)));
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new AppError({ kind: 'unexpected_shape', message: `The reply to ${channel} did not match the contract` });
  }
  const result = parsed.data as { ok: true; data: RequestOutput<C> } | { ok: false; error: IpcError };
  if (!result.ok) throw new AppError(result.error);
  return result.data;
}

/** Subscribes to a contract event; payloads that do not parse are dropped (and logged). */
export function subscribe<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
  return getBridge().on(event, (payload) => {
    const parsed = events[event].safeParse(payload);
    if (parsed.success) listener(parsed.data as EventPayload<E>);
    else console.warn(`dropped malformed ${event} event`);
  });
}

import type { z } from 'zod';
import {
  isRequestChannel,
  requests,
  type ParsedInput,
  type RequestChannel,
  type RequestOutput,
} from '@shared/ipc/contract';
import type { IpcError, IpcResult } from '@shared/ipc/result';
import { AppError } from '@shared/ipc/app-error';
import { MAIN_CALLER, runAsCaller } from '../broker/http/caller-context';

/** One handler per contract channel; a missing one is a compile error where handlers are built. */
export type Handlers = { readonly [C in RequestChannel]: (input: ParsedInput<C>) => Promise<RequestOutput<C>> };

/**
 * A transport-agnostic entry point: untrusted channel name and payload in, a result value out.
 * `caller` names the page making the call (a host WebSocket, an Electron webContents), so the
 * client rate limiter can take turns between pages (docs/brokers.md §Fair queuing).
 */
export type Dispatch = (channel: unknown, payload: unknown, caller?: string) => Promise<IpcResult<unknown>>;

/** Channels whose data is bulk (chart history, instrument lists): served after account data. */
const BULK_CHANNELS: ReadonlySet<RequestChannel> = new Set(['candles.get', 'instruments.list']);

/** Renders a zod issue path the way a form names a field: `order.triggerPrice`, `tokens.3`. */
function pathOf(issue: z.core.$ZodIssue): string {
  return issue.path.map(String).join('.') || 'payload';
}

/** Turns a failed parse into one `bad_request` naming every offending field. */
export function badRequestFromZod(error: z.ZodError, what: string): IpcError {
  const fields = error.issues.map((i) => ({ field: pathOf(i), message: i.message }));
  const first = fields[0] ?? { field: 'payload', message: 'invalid' };
  return {
    kind: 'bad_request',
    message: `Invalid ${what}: ${first.field}: ${first.message}`,
    field: first.field,
    fields,
  };
}

/**
 * Names what a peer sent as a channel without coercing it: `String(x)` throws on an object whose
 * `toString` and `valueOf` are not functions (`{"toString":0,"valueOf":0}` from JSON).
 */
function describeChannel(channel: unknown): string {
  return typeof channel === 'string' ? JSON.stringify(channel).slice(0, 80) : `of type ${typeof channel}`;
}

/**
 * Builds the single dispatch function both transports (Electron IPC, host WebSocket) call.
 *
 * Order of gates: the channel must be in the contract, the payload must parse against the
 * channel's input schema, and only then does a handler run. It never throws: every outcome,
 * including a bug in a handler, is an `IpcResult`, because Electron's `invoke` rejection keeps
 * only the message and drops the fields the renderer needs.
 */
export function createDispatcher(
  handlers: Handlers,
  log: (msg: string, err?: unknown) => void = console.error,
): Dispatch {
  return async (channel, payload, caller = MAIN_CALLER.caller) => {
    if (!isRequestChannel(channel)) {
      return {
        ok: false,
        error: {
          kind: 'bad_request',
          message: `Unknown channel ${describeChannel(channel)}`,
          field: 'channel',
        },
      };
    }
    const parsed = requests[channel].input.safeParse(payload);
    if (!parsed.success) return { ok: false, error: badRequestFromZod(parsed.error, `${channel} request`) };
    try {
      const handler = handlers[channel] as (input: unknown) => Promise<unknown>;
      const cls = BULK_CHANNELS.has(channel) ? 'bulk' : 'account';
      return { ok: true, data: await runAsCaller({ caller, cls }, () => handler(parsed.data)) };
    } catch (err) {
      if (err instanceof AppError) return { ok: false, error: err.info };
      log(`handler ${channel} failed`, err);
      return { ok: false, error: { kind: 'internal', message: `Tradedesk hit an internal error handling ${channel}` } };
    }
  };
}

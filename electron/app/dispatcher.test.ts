import { describe, expect, it, vi } from 'vitest';
import { AppError } from '@shared/ipc/app-error';
import { createDispatcher, type Handlers } from './dispatcher';

/** Handlers that record what reached them; every channel answers something valid-looking. */
function recordingHandlers(): { handlers: Handlers; reached: string[] } {
  const reached: string[] = [];
  const handlers = new Proxy({} as Handlers, {
    get: (_t, channel: string) => async (input: unknown) => {
      reached.push(channel);
      if (channel === 'orders.cancel')
        throw new AppError({ kind: 'conflict', message: 'already complete', orderId: 'X1' });
      if (channel === 'orders.get') throw new Error('secret stack detail');
      return { echoed: input };
    },
  });
  return { handlers, reached };
}

describe('createDispatcher', () => {
  it('refuses unknown channels, including inherited object keys, without calling anything', async () => {
    const { handlers, reached } = recordingHandlers();
    const dispatch = createDispatcher(handlers);
    for (const channel of ['fs.readFile', 'constructor', '__proto__', 42, null, undefined]) {
      const res = await dispatch(channel, {});
      expect(res).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'channel' } });
    }
    expect(reached).toEqual([]);
  });

  it('answers a channel that cannot be turned into text (a peer sent {"toString":0,"valueOf":0}) instead of throwing', async () => {
    const { handlers, reached } = recordingHandlers();
    const dispatch = createDispatcher(handlers);
    for (const channel of [JSON.parse('{"toString":0,"valueOf":0}'), Object.create(null), [{ toString: 1 }]]) {
      const res = await dispatch(channel, {});
      expect(res).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'channel' } });
    }
    expect(reached).toEqual([]);
  });

  it('names the offending field of an invalid payload, and every one of them', async () => {
    const { handlers, reached } = recordingHandlers();
    const dispatch = createDispatcher(handlers);
    const res = await dispatch('orders.place', {
      order: {
        exchange: 'NSE',
        tradingsymbol: 'INFY',
        transactionType: 'HOLD',
        quantity: 1.5,
        orderType: 'MARKET',
        product: 'CNC',
        validity: 'DAY',
      },
    });
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.error.kind).toBe('bad_request');
    expect(res.error.fields?.map((f) => f.field).sort()).toEqual(['order.quantity', 'order.transactionType']);
    expect(res.error.message).toMatch(/order\.(quantity|transactionType)/);
    expect(reached).toEqual([]);
  });

  it('rejects unknown fields rather than passing them on', async () => {
    const { handlers, reached } = recordingHandlers();
    const res = await createDispatcher(handlers)('orders.cancel', { orderId: 'A1', force: true });
    expect(res).toMatchObject({ ok: false, error: { kind: 'bad_request' } });
    expect(reached).toEqual([]);
  });

  it('passes the parsed payload to the handler and wraps its value', async () => {
    const { handlers, reached } = recordingHandlers();
    const res = await createDispatcher(handlers)('instruments.list', { exchange: 'NFO' });
    expect(res).toEqual({ ok: true, data: { echoed: { exchange: 'NFO' } } });
    expect(reached).toEqual(['instruments.list']);
  });

  it('returns an AppError as its typed error, with all its fields', async () => {
    const { handlers } = recordingHandlers();
    const res = await createDispatcher(handlers)('orders.cancel', { orderId: 'X1' });
    expect(res).toEqual({ ok: false, error: { kind: 'conflict', message: 'already complete', orderId: 'X1' } });
  });

  it('turns a bug into `internal` without leaking its message, and logs it', async () => {
    const { handlers } = recordingHandlers();
    const log = vi.fn();
    const res = await createDispatcher(handlers, log)('orders.get', { orderId: 'X1' });
    expect(res).toMatchObject({ ok: false, error: { kind: 'internal' } });
    expect(JSON.stringify(res)).not.toContain('secret stack detail');
    expect(log).toHaveBeenCalledOnce();
  });
});

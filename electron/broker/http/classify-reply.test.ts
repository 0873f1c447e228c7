import { describe, expect, it } from 'vitest';
import { classifyErrorReply, parseRetryAfter } from './classify-reply';

const problem = (status: number, code: string, extra: object = {}): object => ({
  type: 'about:blank',
  title: 'x',
  status,
  detail: `detail ${code}`,
  code,
  ...extra,
});

describe('status-family classification', () => {
  it.each([
    [400, 'bad_request'],
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [404, 'not_found'],
    [409, 'conflict'],
    [412, 'conflict'],
    [415, 'bad_request'],
    [429, 'rate_limited'],
    [500, 'server_error'],
    [502, 'server_error'],
    [503, 'server_error'],
    [504, 'server_error'],
    [418, 'bad_request'],
  ])('%i → %s, whatever the body', (status, kind) => {
    expect(classifyErrorReply(status, '<html>proxy</html>', undefined).kind).toBe(kind);
  });

  it('names every offending field of a 400 in the app spelling', () => {
    const info = classifyErrorReply(
      400,
      problem(400, 'invalid_field', {
        errors: [
          { field: 'trigger_price', message: 'off the tick grid' },
          { field: 'quantity', message: 'not a lot multiple' },
        ],
      }),
      undefined,
    );
    expect(info).toMatchObject({ kind: 'bad_request', field: 'triggerPrice', message: 'detail invalid_field' });
    expect(info.fields?.map((f) => f.field)).toEqual(['triggerPrice', 'quantity']);
  });

  it('carries the existing order id of a duplicate client_order_id', () => {
    expect(
      classifyErrorReply(409, problem(409, 'duplicate_client_order_id', { order_id: 'P-42' }), undefined),
    ).toMatchObject({
      kind: 'conflict',
      orderId: 'P-42',
    });
  });

  it('turns Retry-After into milliseconds (seconds or HTTP date)', () => {
    expect(classifyErrorReply(429, problem(429, 'rate_limited'), '2').retryAfterMs).toBe(2_000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:05 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(5_000);
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('caps a Retry-After of an hour (seconds or date) at 30 s', () => {
    expect(classifyErrorReply(429, problem(429, 'rate_limited'), '3600').retryAfterMs).toBe(30_000);
    expect(classifyErrorReply(503, problem(503, 'server_error'), '3600').retryAfterMs).toBe(30_000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 08:28:00 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(30_000);
  });
});

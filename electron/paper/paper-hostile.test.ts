import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WireProblem } from '../../shared/wire/schemas';
import { rawHttp, upgradeRequest, type RawHttpReply } from './raw-http';
import { type Api, startTestBroker } from './test-helpers';

/**
 * Inputs an attacker on the same machine can send without credentials, each of which once
 * crashed the broker or earned a degraded answer (docs/api.md §Hostile input). Every reply
 * here must be problem+json naming what is wrong, and the broker must keep serving.
 */

let api: Api;
beforeAll(async () => {
  api = await startTestBroker();
});
afterAll(() => api.close());

function problemOf(r: RawHttpReply | null, status: number): WireProblem {
  expect(r?.status).toBe(status);
  expect(r?.headers['content-type']).toBe('application/problem+json');
  return WireProblem.parse(JSON.parse(r?.body ?? ''));
}

async function stillServes(): Promise<void> {
  expect((await api.call('GET', '/funds')).status).toBe(200);
}

describe('request targets new URL() cannot parse', () => {
  it.each(['//[/v1/funds', 'http://[::1/v1/funds', '//[/v1/stream'])(
    'GET %s answers 400 naming the path, not 500',
    async (target) => {
      const r = await rawHttp(api.broker.port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(problemOf(r, 400).errors?.[0]?.field).toBe('path');
      await stillServes();
    },
  );

  it.each(['//[/v1/stream', 'http://[::1/v1/stream'])(
    'a WebSocket upgrade to %s is refused with 400 and the broker keeps serving',
    async (target) => {
      const r = await rawHttp(api.broker.port, upgradeRequest(target, { Authorization: `Bearer ${api.token}` }));
      expect(problemOf(r, 400).errors?.[0]?.field).toBe('path');
      await stillServes();
    },
  );
});

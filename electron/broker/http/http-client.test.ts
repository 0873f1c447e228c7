import { afterEach, describe, expect, it } from 'vitest';
import { startPaperBroker, type PaperBroker } from '../../paper';
import { TransportFailure } from '../broker-error';
import { HttpClient, type RawRequest } from './http-client';

/** A public endpoint the broker handles (and then faults) without a token. */
const LOGIN: RawRequest = { method: 'POST', path: '/session', body: { api_key: 'paper', api_secret: 'paper' } };

/** The typed failure `send` rejects with. */
async function failureOf(p: Promise<unknown>): Promise<TransportFailure> {
  try {
    await p;
  } catch (err) {
    if (err instanceof TransportFailure) return err;
    throw err;
  }
  throw new Error('expected a transport failure');
}

describe('HttpClient says whether a failed request may have reached the broker', () => {
  let paper: PaperBroker | null = null;
  let client: HttpClient | null = null;
  afterEach(async () => {
    await client?.close();
    await paper?.close();
    client = null;
    paper = null;
  });

  it('connection refused (nothing listening) is network / not_sent', async () => {
    const gone = await startPaperBroker({ port: 0, tickIntervalMs: 0 });
    await gone.close();
    client = new HttpClient(gone.url);
    const f = await failureOf(client.send(LOGIN));
    expect([f.info.kind, f.reach]).toEqual(['network', 'not_sent']);
    expect(f.info.message).toMatch(/ECONNREFUSED/);
  });

  it('a reply that never comes (stall_reply) ends at the request timeout as timeout / in_doubt', async () => {
    paper = await startPaperBroker({ port: 0, tickIntervalMs: 0, faults: 'stall_reply=1' });
    client = new HttpClient(paper.url);
    const f = await failureOf(client.send({ ...LOGIN, timeoutMs: 200 }));
    expect([f.info.kind, f.reach]).toEqual(['timeout', 'in_doubt']);
  });

  it('a connection closed after the request was handled (drop_reply) is network / in_doubt', async () => {
    paper = await startPaperBroker({ port: 0, tickIntervalMs: 0, faults: 'drop_reply=1' });
    client = new HttpClient(paper.url);
    const f = await failureOf(client.send(LOGIN));
    expect([f.info.kind, f.reach]).toEqual(['network', 'in_doubt']);
  });
});

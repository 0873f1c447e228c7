import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher, type Dispatch } from './dispatcher';
import { startPaperBroker, type PaperBroker } from '../paper';
import { createAppServices, type AppServices } from './app-services';
import { logFiles, openAppLog, type AppLog } from './support/app-log';

/**
 * The broker token never leaves main (docs/architecture.md §Security), also on the paths where
 * main has the most to say about it: a silent mid-session re-login, and a session that expires
 * for good. Everything the renderer could ever receive — each reply and each event — is kept and
 * searched for every token the broker issued. (The e2e token-leak spec checks the same in a real
 * page; this runs in CI without a browser and does not wait on the desk's poll cadence.) Main's
 * log is wired as the Electron shell wires it, and its files are searched too.
 */
describe('no broker token in a reply, an event or the log through a re-login and an expiry', () => {
  let dir: string;
  let paper: PaperBroker;
  let services: AppServices;
  let dispatch: Dispatch;
  let appLog: AppLog;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-token-'));
    paper = await startPaperBroker({ port: 0, tickIntervalMs: 0 });
    appLog = await openAppLog({ dir: join(dir, 'logs') });
    services = await createAppServices({
      dataDir: dir,
      log: (m) => appLog.problem(m),
      brokerUrl: paper.url,
      apiKey: 'paper',
      apiSecret: 'paper',
      core: { stream: false },
    });
    appLog.follow(services.events);
    dispatch = createDispatcher(services.handlers, appLog.problem);
  });
  afterAll(async () => {
    paper.setFaults({});
    await services.close();
    await appLog.close();
    await paper.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the first login, a re-login after the broker drops the token, and an expired session: no token in any reply, event or log line', async () => {
    const seen: string[] = [];
    const events: string[] = [];
    const off = services.events.onAny((event, payload) => {
      events.push(event);
      seen.push(JSON.stringify({ event, payload }));
    });
    const tokens = new Set<string>();
    const noteTokens = (): void => paper.sessions().forEach((s) => tokens.add(s.token));
    const call = async (channel: 'funds.get' | 'orders.list' | 'session.status') => {
      const r = await dispatch(channel, undefined);
      seen.push(JSON.stringify(r));
      return r;
    };
    try {
      expect((await call('funds.get')).ok).toBe(true);
      noteTokens();
      expect(tokens.size).toBeGreaterThan(0);

      // The broker drops every token main holds; the next call logs in again and succeeds.
      for (const token of tokens) {
        const r = await fetch(`${paper.url}/session`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(r.status).toBe(204);
      }
      expect((await call('orders.list')).ok).toBe(true);
      noteTokens();
      expect(tokens.size, 'the re-login issued a new token').toBeGreaterThan(1);

      // Now the broker refuses every token, the re-login's too: the session ends, and says why.
      paper.setFaults('token_expiry=1');
      const refused = await call('funds.get');
      expect(refused).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
      noteTokens();
      expect(events).toContain('session.expired');
      await call('session.status');
    } finally {
      off();
      paper.setFaults({});
    }
    for (const token of tokens) {
      expect(token.length).toBeGreaterThan(8);
      for (const text of seen) expect(text.includes(token), `a token in ${text}`).toBe(false);
    }

    // The log holds the session's story (the expiry at least), and no token in any file.
    await appLog.close();
    const files = await logFiles(join(dir, 'logs'));
    const logged = (await Promise.all(files.map((f) => readFile(f, 'utf8')))).join('');
    expect(logged).toContain('session.expired');
    for (const token of tokens) expect(logged.includes(token), 'a token in the log').toBe(false);
  });
});

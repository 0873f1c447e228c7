import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_BROKER } from '@shared/testing/fake-broker';
import { INFY_RESTING_BUY } from '@shared/testing/order-fixtures';
import { createAppServices, type AppServices } from '../../../app/app-services';
import { createDispatcher } from '../../../app/dispatcher';
import { BROKER_ENTRIES, BrokerRegistry, COMMAND_LINE_BROKERS } from '../../../app/session/broker-registry';
import { startPaperBroker, type PaperBroker } from '../../../paper';
import { fakeEntry } from './fake-entry';

/**
 * A broker added from its folder alone (docs/brokers.md §The broker registry): the registry of the
 * shipped entries plus this folder's offers it to the command line, to the session dialog (as
 * data on `brokers.list`) and to the ticket (its products), and the desk trades through it —
 * here against the real paper broker's `/v1`, which the fake broker's adapter speaks.
 */
const brokers = new BrokerRegistry([...BROKER_ENTRIES, fakeEntry]);

let paper: PaperBroker;
let dir: string | null = null;
let services: AppServices | null = null;

beforeAll(async () => {
  paper = await startPaperBroker({ port: 0, tickIntervalMs: 0 });
});
afterAll(async () => {
  await paper.close();
});
afterEach(async () => {
  await services?.close();
  services = null;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = null;
});

async function desk(config: { broker?: string; brokerUrl?: string; apiKey?: string; apiSecret?: string } = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'td-fake-broker-'));
  dir = dataDir;
  services = await createAppServices({ dataDir, brokers, core: { stream: false }, kiteRedirectPort: 0, ...config });
  return createDispatcher(services.handlers, () => undefined);
}

describe('a broker added from its own folder', () => {
  it('is one the command line may name, and needs its URL', () => {
    // After the shipped kinds, whichever they are: adding a shipped broker changes no test here.
    expect(brokers.commandLineNames()).toEqual([...COMMAND_LINE_BROKERS, 'fake']);
    expect(brokers.commandLineProblem('fake', undefined)).toBe(
      "--broker fake needs --broker-url (its API root, or the paper broker's dialect)",
    );
    expect(brokers.commandLineProblem('fake', paper.url)).toBeNull();
    expect(new BrokerRegistry().commandLineProblem('fake', paper.url)).toBe(
      `--broker must be one of ${COMMAND_LINE_BROKERS.join(', ')}, got "fake"`,
    );
  });

  it('--broker fake starts the desk on it, and the ticket’s order reaches the broker', async () => {
    const dispatch = await desk({ broker: 'fake', brokerUrl: paper.url, apiKey: 'paper', apiSecret: 'paper' });
    const status = await dispatch('session.status', undefined);
    expect(status).toMatchObject({
      ok: true,
      data: { state: 'connected', broker: 'fake', brokerLabel: `Fake Securities (${new URL(paper.url).host})` },
    });
    const listed = await dispatch('brokers.list', undefined);
    expect(listed).toMatchObject({ ok: true });
    // The renderer receives the descriptor as data: the dialog's fields, the ticket's products.
    expect((listed.ok ? (listed.data as unknown[]) : []).at(-1)).toEqual(FAKE_BROKER);
    const placed = await dispatch('orders.place', {
      order: { ...INFY_RESTING_BUY, product: 'CNC' },
      requestId: 'fake-broker-1',
    });
    expect(placed).toMatchObject({ ok: true, data: { state: 'placed' } });
  });

  it('the session dialog’s login is judged by its own schema, naming the field, and saved without the PIN', async () => {
    const dispatch = await desk();
    const profile = { kind: 'fake', baseUrl: paper.url, apiKey: 'paper' };
    const bad = await dispatch('session.login', { profile: { ...profile, apiSecret: 'x' } });
    expect(bad).toMatchObject({
      ok: false,
      error: { kind: 'bad_request', field: 'profile.apiSecret', message: 'PIN is 4 to 16 letters or digits' },
    });
    // The paper session it had is still there: a refused profile changes nothing.
    expect(await dispatch('session.status', undefined)).toMatchObject({ data: { broker: 'paper' } });
    const good = await dispatch('session.login', { profile: { ...profile, apiSecret: 'paper' } });
    expect(good).toMatchObject({ ok: true, data: { state: 'connected', broker: 'fake' } });
    // It has no login page of its own: the dialog never offers one, and main refuses one asked for.
    expect(await dispatch('session.loginPage', { profile: { ...profile, apiSecret: 'paper' } })).toMatchObject({
      ok: false,
      error: { kind: 'bad_request', field: 'profile.kind' },
    });
    const saved = JSON.parse(await readFile(join(dir ?? '', 'settings.json'), 'utf8')) as { profile: unknown };
    expect(saved.profile).toEqual(profile);
  });
});

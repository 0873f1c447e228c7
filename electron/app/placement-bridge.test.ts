import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Instrument } from '@shared/domain/instrument';
import type { PlaceOutcome, Placement } from '@shared/domain/placement';
import { IntentsLedger } from '../core/ledger/intents-ledger';
import { marketBuyOf } from '../core/testing/core-fixture';
import { LedgerRecord } from '../core/ledger/ledger-record';
import { journalJson } from '../core/storage/durable-journal';
import { createDispatcher, type Dispatch } from './dispatcher';
import { startPaperBroker, type PaperBroker, type PaperBrokerOptions } from '../paper';
import { createAppServices, type AppServices } from './app-services';

/** The main-process services on a paper broker the test controls, and the bridge's dispatch. */
interface Rig {
  paper: PaperBroker;
  services: AppServices;
  dispatch: Dispatch;
  dir: string;
  /** Every `placements.changed` payload so far. */
  lists: Placement[][];
  instruments: Instrument[];
}

let rig: Rig | null = null;

async function startRig(paperOptions: PaperBrokerOptions = {}): Promise<Rig> {
  const dir = await mkdtemp(join(tmpdir(), 'td-place-'));
  const paper = await startPaperBroker({ port: 0, tickIntervalMs: 0, ...paperOptions });
  const services = await createAppServices({
    dataDir: dir,
    brokerUrl: paper.url,
    apiKey: 'paper',
    apiSecret: 'paper',
    core: { rate: null, stream: false, placementTimings: { answerDeadlineMs: 500 } },
  });
  const lists: Placement[][] = [];
  services.events.on('placements.changed', ({ placements }) => lists.push(placements));
  const dispatch = createDispatcher(services.handlers, () => undefined);
  const list = await dispatch('instruments.list', undefined);
  if (!list.ok) throw new Error(list.error.message);
  rig = { paper, services, dispatch, dir, lists, instruments: list.data as Instrument[] };
  return rig;
}

afterEach(async () => {
  if (!rig) return;
  await rig.services.close();
  await rig.paper.close();
  await rm(rig.dir, { recursive: true, force: true });
  rig = null;
});

function firstEquity(r: Rig): Instrument {
  const eq = r.instruments.find((i) => i.exchange === 'NSE' && i.instrumentType === 'EQ');
  if (!eq) throw new Error('no NSE equity');
  return eq;
}

/** Intents in the ledger file and which are still open. */
async function ledger(dir: string): Promise<{ intents: string[]; open: string[] }> {
  const file = (await readdir(dir)).find((f) => f.startsWith('intents-') && f.endsWith('.jsonl'));
  const text = file ? await readFile(join(dir, file), 'utf8') : '';
  const intents: string[] = [];
  const open = new Set<string>();
  for (const json of journalJson(text)) {
    const r = LedgerRecord.safeParse(json);
    if (!r.success) continue;
    if (r.data.t === 'intent') {
      intents.push(r.data.clientOrderId);
      open.add(r.data.clientOrderId);
    } else if (r.data.t === 'resolved') open.delete(r.data.clientOrderId);
  }
  return { intents, open: [...open] };
}

describe('orders.place over the bridge answers placed, refused or not yet confirmed', () => {
  it('every reply dropped → ok:true "unconfirmed" with the reference; faults cleared → placements.changed reports it placed, and the broker holds exactly one order', async () => {
    const r = await startRig();
    const order = marketBuyOf(firstEquity(r));
    r.paper.setFaults('drop_reply=1');
    const res = await r.dispatch('orders.place', { order, requestId: 'click-0001' });
    expect(res).toMatchObject({ ok: true, data: { state: 'unconfirmed' } });
    const cid = (res as { ok: true; data: PlaceOutcome }).data.clientOrderId;
    expect(cid).toMatch(/^td-/);
    expect(r.lists.at(-1)).toEqual([expect.objectContaining({ clientOrderId: cid, state: 'checking' })]);
    expect(await r.dispatch('placements.list', undefined)).toMatchObject({
      ok: true,
      data: [{ clientOrderId: cid, requestId: 'click-0001', state: 'checking' }],
    });

    r.paper.setFaults({});
    await expect.poll(() => r.lists.at(-1)?.[0]?.state, { timeout: 10_000 }).toBe('placed');
    const orders = await r.dispatch('orders.list', undefined);
    const held = orders.ok ? (orders.data as Array<{ orderId: string; clientOrderId: string }>) : [];
    expect(held.filter((o) => o.clientOrderId === cid).map((o) => o.orderId)).toEqual([r.lists.at(-1)?.[0]?.orderId]);
    expect(r.paper.orderCount()).toBe(1);
  });

  it('the same requestId twice returns the first answer and journals one intent', async () => {
    const r = await startRig();
    const order = marketBuyOf(firstEquity(r));
    const [a, b] = await Promise.all([
      r.dispatch('orders.place', { order, requestId: 'click-0002' }),
      r.dispatch('orders.place', { order, requestId: 'click-0002' }),
    ]);
    const c = await r.dispatch('orders.place', { order, requestId: 'click-0002' });
    expect(a).toMatchObject({ ok: true, data: { state: 'placed' } });
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(r.paper.orderCount()).toBe(1);
    expect((await ledger(r.dir)).intents).toHaveLength(1);
    // A different order under a used request id is refused, naming the field.
    const other = await r.dispatch('orders.place', { order: { ...order, quantity: 2 }, requestId: 'click-0002' });
    expect(other).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'requestId' } });
    // So is the same order as an after-market order: another variety is another order.
    const amo = await r.dispatch('orders.place', { order: { ...order, variety: 'amo' }, requestId: 'click-0002' });
    expect(amo).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'requestId' } });
    // Absent and 'regular' are the same variety.
    expect(
      await r.dispatch('orders.place', { order: { ...order, variety: 'regular' }, requestId: 'click-0002' }),
    ).toEqual(a);
    expect(r.paper.orderCount()).toBe(1);
  });

  it("a broker's definitive 400 → ok:false naming the field, nothing at the broker, the intent resolved", async () => {
    // Main's instrument list says the option exists; the broker (restarted with another
    // universe) no longer lists it, and refuses the order with 400 naming tradingsymbol.
    const first = await startRig({ seed: 1 });
    // One order on the first broker: main's instrument list is loaded from it, for certain.
    expect(await first.dispatch('orders.place', { order: marketBuyOf(firstEquity(first)) })).toMatchObject({
      ok: true,
    });
    const port = first.paper.port;
    const other = new Set(
      await startPaperBroker({ port: 0, tickIntervalMs: 0, seed: 2 }).then(async (p) => {
        const res = await fetch(`${p.url}/instruments?exchange=NFO`, {
          headers: { authorization: `Bearer ${await token(p)}` },
        });
        const body = (await res.json()) as { instruments: Array<{ tradingsymbol: string }> };
        await p.close();
        return body.instruments.map((i) => i.tradingsymbol);
      }),
    );
    const gone = first.instruments.find(
      (i) => i.exchange === 'NFO' && i.instrumentType === 'CE' && !other.has(i.tradingsymbol),
    );
    if (!gone) throw new Error('no option unique to seed 1');
    await first.paper.close();
    first.paper = await startPaperBroker({ port, tickIntervalMs: 0, seed: 2 });

    const res = await first.dispatch('orders.place', { order: marketBuyOf(gone) });
    expect(res).toMatchObject({
      ok: false,
      error: { kind: 'bad_request', field: 'tradingsymbol', message: expect.stringMatching(/^Not placed: /) },
    });
    expect(first.paper.orderCount()).toBe(0);
    const l = await ledger(first.dir);
    expect([l.intents.length, l.open]).toEqual([2, []]); // the first order's intent, and this one's
  });

  it('broker down (connection refused) → ok:false "Not sent", and nothing is sent once the broker is back', async () => {
    const r = await startRig();
    const order = marketBuyOf(firstEquity(r));
    const port = r.paper.port;
    await r.paper.close();
    const res = await r.dispatch('orders.place', { order });
    expect(res).toMatchObject({ ok: false, error: { kind: 'network', message: expect.stringMatching(/Not sent/) } });
    const l = await ledger(r.dir);
    expect([l.intents.length, l.open]).toEqual([1, []]);
    expect(r.lists).toEqual([]); // never listed as unconfirmed

    r.paper = await startPaperBroker({ port, tickIntervalMs: 0 });
    // The next order goes through the same core (re-login on the restarted broker)…
    const next = await r.dispatch('orders.place', { order });
    expect(next).toMatchObject({ ok: true, data: { state: 'placed' } });
    // …and the refused one was never sent: the broker holds only the new one.
    expect(r.paper.orderCount()).toBe(1);
    expect((await ledger(r.dir)).open).toEqual([]);
  });

  it('a rules failure → ok:false naming the field before anything is journaled or sent', async () => {
    const r = await startRig();
    const res = await r.dispatch('orders.place', { order: { ...marketBuyOf(firstEquity(r)), price: 101 } });
    expect(res).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'price' } });
    expect((await ledger(r.dir)).intents).toEqual([]);
    expect(r.paper.orderCount()).toBe(0);
  });
});

describe('after a restart, an intent the broker never saw waits for the trader', () => {
  it('placements.list shows it needs a decision; placements.placeAgain sends it once under the same reference; placements.discard of another sends nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'td-restart-'));
    const paper = await startPaperBroker({ port: 0, tickIntervalMs: 0 });
    const config = {
      dataDir: dir,
      brokerUrl: paper.url,
      apiKey: 'paper',
      apiSecret: 'paper',
      core: { rate: null, stream: false, placementTimings: { resendWindowMs: 200, landingHorizonMs: 200 } },
    };
    try {
      // A first run places one order (so its ledger exists), then "crashes" after journaling
      // two more intents and before sending them: that is what the ledger then holds.
      // The first run keeps the usual windows: on a loaded machine its order could otherwise run
      // out of a 200 ms send window before it leaves, and this test needs it placed.
      const first = await createAppServices({ ...config, core: { rate: null, stream: false } });
      const firstDispatch = createDispatcher(first.handlers);
      const list = await firstDispatch('instruments.list', undefined);
      const eq = (list.ok ? (list.data as Instrument[]) : []).find(
        (i) => i.exchange === 'NSE' && i.instrumentType === 'EQ',
      );
      if (!eq) throw new Error('no NSE equity');
      const placed = await firstDispatch('orders.place', { order: marketBuyOf(eq) });
      const firstRef = placed.ok ? (placed.data as PlaceOutcome).clientOrderId : '';
      await first.close();
      const file = (await readdir(dir)).find((f) => f.startsWith('intents-')) ?? 'intents-missing.jsonl';
      const ledgerFile = await IntentsLedger.open(join(dir, file));
      for (const cid of ['td-never-sent-1', 'td-never-sent-2']) {
        await ledgerFile.appendIntent({ clientOrderId: cid, at: Date.now(), order: marketBuyOf(eq) });
      }
      await ledgerFile.close();

      const services = await createAppServices(config);
      const lists: Placement[][] = [];
      services.events.on('placements.changed', ({ placements }) => lists.push(placements));
      const dispatch = createDispatcher(services.handlers, () => undefined);
      try {
        const stateOf = async (cid: string): Promise<string | undefined> => {
          const r = await dispatch('placements.list', undefined);
          return r.ok ? (r.data as Placement[]).find((p) => p.clientOrderId === cid)?.state : undefined;
        };
        await expect.poll(() => stateOf('td-never-sent-1'), { timeout: 10_000 }).toBe('needs_decision');
        await expect.poll(() => stateOf('td-never-sent-2'), { timeout: 10_000 }).toBe('needs_decision');
        expect(paper.orderCount()).toBe(1); // the first run's order: nothing was sent on its own

        const again = await dispatch('placements.placeAgain', { clientOrderId: 'td-never-sent-1' });
        expect(again).toMatchObject({ ok: true, data: { state: 'placed', clientOrderId: 'td-never-sent-1' } });
        const dropped = await dispatch('placements.discard', { clientOrderId: 'td-never-sent-2' });
        expect(dropped).toMatchObject({ ok: true, data: { state: 'discarded' } });
        expect(await dispatch('placements.discard', { clientOrderId: 'td-never-sent-2' })).toMatchObject({
          ok: false,
          error: { kind: 'conflict' },
        });
        const orders = await dispatch('orders.list', undefined);
        const refs = orders.ok
          ? (orders.data as Array<{ clientOrderId: string | null }>).map((o) => o.clientOrderId)
          : [];
        expect(refs).toEqual([firstRef, 'td-never-sent-1']);
        expect(
          lists
            .at(-1)
            ?.map((p) => [p.clientOrderId, p.state])
            .sort(),
        ).toEqual([
          ['td-never-sent-1', 'placed'],
          ['td-never-sent-2', 'discarded'],
        ]);
      } finally {
        await services.close();
      }
    } finally {
      await paper.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** A trade token for a bare paper broker. */
async function token(p: PaperBroker): Promise<string> {
  const res = await fetch(`${p.url}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: 'paper', api_secret: 'paper' }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

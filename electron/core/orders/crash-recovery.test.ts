import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Placement } from '@shared/domain/placement';
import { mulberry32 } from '../../paper/rng';
import { buildChild } from '../testing/build-child';
import { startCoreFixture, type CoreFixture } from '../testing/core-fixture';
import { KILL_POINTS, type CrashPlan, type KillPoint } from '../testing/crash-plan';

/**
 * The seed that picks where in its run each child dies; printed, and `CRASH_SEED=N` replays it.
 */
const SEED = Number(process.env.CRASH_SEED ?? 20261123);
const HORIZON_MS = 300;

/** What one child did before it died (or finished). */
interface Run {
  readonly plan: CrashPlan;
  readonly killed: boolean;
  readonly journaled: string[];
  readonly sent: string[];
}

function runChild(script: string, baseUrl: string, dir: string, plan: CrashPlan): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, baseUrl, dir, JSON.stringify(plan)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += String(d)));
    child.stderr.on('data', (d: Buffer) => (err += String(d)));
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL' && code !== 0) return reject(new Error(`child failed (${code}): ${err}`));
      const lines = out.split('\n');
      const refs = (verb: string): string[] =>
        lines.filter((l) => l.startsWith(`${verb} `)).map((l) => l.slice(verb.length + 1));
      resolve({ plan, killed: signal === 'SIGKILL', journaled: refs('journaled'), sent: refs('send') });
    });
  });
}

/** One plan per kill point, in an order where each point can be reached; the seed picks the moment. */
function plans(seed: number): CrashPlan[] {
  const rng = mulberry32(seed);
  const pick = (n: number): number => 1 + Math.floor(rng() * n);
  const occurrences: Record<KillPoint, number> = {
    journaled: pick(6),
    'in-flight': pick(6),
    replied: pick(6),
    settled: pick(6),
    'batch-written': pick(6),
    'compaction-written': pick(2),
    'compaction-renamed': pick(2),
    'recovery-lookup': 1,
    'needs-decision': 1,
  };
  // `journaled` first leaves an intent the broker never saw, which a later start must list for
  // a decision; the recovery points need something left open by the round before.
  return KILL_POINTS.map((point) => ({ point, occurrence: occurrences[point], orders: 12, horizonMs: HORIZON_MS }));
}

describe('crash recovery: a placing process SIGKILLed at seeded points, then restarted', () => {
  let fx: CoreFixture;
  let script: string;

  beforeAll(async () => {
    // A broker that would accept a reused reference as a second order: any re-send shows.
    fx = await startCoreFixture({ rate: { perSecond: 100_000, burst: 100_000 }, idempotency: false });
    script = await buildChild('crash-child', fx.dir);
  });
  afterAll(async () => fx.close());

  it(`every intent maps to at most one order, none is sent after a restart without "Place again", and each kill point is reached (seed ${SEED})`, async () => {
    console.info(`crash-recovery seed ${SEED} (replay with CRASH_SEED=${SEED})`);
    fx.paper.setFaults('drop_reply=0.2,server_error=0.1,latency_ms=10');
    const runs: Run[] = [];
    for (const plan of plans(SEED)) runs.push(await runChild(script, fx.paper.url, fx.dir, plan));
    fx.paper.setFaults({});

    // No child sent an intent it had not journaled itself: an intent left open by a dead
    // process is only ever looked up after a restart.
    for (const r of runs) {
      const own = new Set(r.journaled);
      expect(
        r.sent.filter((ref) => !own.has(ref)),
        `${r.plan.point} sent another process's intent`,
      ).toEqual([]);
    }

    // Each child died where its plan said, not by luck or by finishing early.
    expect(runs.map((r) => [r.plan.point, r.killed])).toEqual(runs.map((r) => [r.plan.point, true]));
    // A final start: recovery runs in the background and settles or lists everything.
    const lists: Placement[][] = [];
    const core = await fx.newCore({
      rate: null,
      placementTimings: { resendWindowMs: HORIZON_MS, landingHorizonMs: HORIZON_MS, answerDeadlineMs: 2_000 },
      events: { onPlacements: (p) => lists.push(p) },
    });
    await core.start();
    await core.recovery();
    const journaled = new Set(runs.flatMap((r) => r.journaled));
    const perRef = new Map<string, number>();
    for (const o of await core.broker.listOrders()) {
      expect(o.clientOrderId !== null && journaled.has(o.clientOrderId), `order ${o.orderId} has no intent`).toBe(true);
      perRef.set(o.clientOrderId ?? '', (perRef.get(o.clientOrderId ?? '') ?? 0) + 1);
    }
    expect([...perRef].filter(([, n]) => n > 1)).toEqual([]);

    // Intents the broker never saw wait for the trader, with nothing at the broker.
    const waiting = core.orders.placements().filter((p) => p.state === 'needs_decision');
    expect(waiting.length).toBeGreaterThan(0);
    for (const p of waiting) expect(perRef.get(p.clientOrderId) ?? 0).toBe(0);
    for (const p of core.orders.placements().filter((x) => x.state === 'placed')) {
      expect(perRef.get(p.clientOrderId)).toBe(1);
    }
    expect(core.orders.openIntents()).toBe(waiting.length);

    // The trader decides: one discarded (never sent), the rest placed again, exactly once.
    const [discard, ...again] = waiting;
    expect(await core.orders.discard(discard?.clientOrderId ?? '')).toMatchObject({ state: 'discarded' });
    for (const p of again) expect(await core.orders.placeAgain(p.clientOrderId)).toMatchObject({ state: 'placed' });
    const after = new Map<string, number>();
    for (const o of await core.broker.listOrders())
      after.set(o.clientOrderId ?? '', (after.get(o.clientOrderId ?? '') ?? 0) + 1);
    expect(after.get(discard?.clientOrderId ?? '') ?? 0).toBe(0);
    for (const p of again) expect(after.get(p.clientOrderId)).toBe(1);
    expect(core.orders.openIntents()).toBe(0);
  });
});

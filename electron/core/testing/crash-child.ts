import { writeSync } from 'node:fs';
import type { LedgerStep } from '../ledger/intents-ledger';
import type { AppHop } from '../orders/lifecycle-timeline';
import { createCore, marketBuy } from './core-fixture';
import type { CrashPlan, KillPoint } from './crash-plan';

/**
 * Test-only child process for the crash test. argv: <paper base URL> <data dir> <plan JSON>.
 *
 * It starts a trading core on the data dir (which looks up, in the background, what the
 * previous, killed child left open), places `orders` orders three at a time, and SIGKILLs
 * itself the `occurrence`-th time the program reaches `point` — so the kill lands at the same
 * place in the code for the same plan, and the parent can print the seed that chose it.
 *
 * Kill points: `journaled` (intent on disk, nothing sent), `in-flight` (the POST is out, no
 * reply), `replied` (the reply is in, not yet settled), `settled` (placed, the resolution not
 * yet durable), the ledger steps `batch-written`, `compaction-written`, `compaction-renamed`,
 * `recovery-lookup` (looking up an intent left open by the previous child) and
 * `needs-decision` (an old intent was just found absent past its horizon).
 *
 * It prints, synchronously (so nothing is lost to the kill): `journaled <ref>`, `send <ref>`
 * before every POST, `outcome <ref> <state>`, and `done` if the point was never reached.
 */

const say = (line: string): void => void writeSync(1, `${line}\n`);

async function main(): Promise<void> {
  const [baseUrl, dataDir, planJson] = process.argv.slice(2);
  if (!baseUrl || !dataDir || !planJson) throw new Error('usage: crash-child <baseUrl> <dataDir> <plan>');
  const plan = JSON.parse(planJson) as CrashPlan;
  let reached = 0;
  const at = (point: KillPoint): void => {
    if (point === plan.point && (reached += 1) === plan.occurrence) process.kill(process.pid, 'SIGKILL');
  };

  const core = await createCore(baseUrl, dataDir, {
    rate: null,
    pauseAllOnRetryAfter: false,
    ledgerCompactAfter: 6,
    ledgerOnStep: (step: LedgerStep) => {
      if (step === 'batch-written' || step === 'compaction-written' || step === 'compaction-renamed') at(step);
    },
    readBackoff: { baseMs: 5, capMs: 100, maxRetries: 12 },
    placementTimings: { answerDeadlineMs: 500, resendWindowMs: plan.horizonMs, landingHorizonMs: plan.horizonMs },
    events: {
      onPlacements: (list) => {
        if (list.some((p) => p.state === 'needs_decision')) at('needs-decision');
      },
    },
  });

  // Watch the program points through the core's own collaborators (instance methods).
  const journaledHere = new Set<string>();
  const record = core.timeline.record.bind(core.timeline);
  core.timeline.record = (cid: string, hop: AppHop, when: number) => {
    record(cid, hop, when);
    if (hop === 'journaled') {
      journaledHere.add(cid);
      say(`journaled ${cid}`);
      at('journaled');
    }
    if (hop === 'acknowledged' || hop === 'recovered') at('settled');
  };
  const place = core.broker.placeOrder.bind(core.broker);
  core.broker.placeOrder = async (cmd, options) => {
    say(`send ${cmd.clientOrderId}`);
    const reply = place(cmd, options);
    void new Promise((r) => setTimeout(r, 2)).then(() => at('in-flight'));
    const ack = await reply;
    at('replied');
    return ack;
  };
  const find = core.broker.findOrders.bind(core.broker);
  core.broker.findOrders = async (cid) => {
    // A lookup of an intent this child did not journal: the previous child left it open.
    if (!journaledHere.has(cid)) at('recovery-lookup');
    return find(cid);
  };

  await core.start();
  const order = marketBuy(await core.broker.listInstruments());
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < plan.orders) {
      next += 1;
      try {
        const outcome = await core.orders.place(order);
        say(`outcome ${outcome.clientOrderId} ${outcome.state}`);
      } catch {
        say('outcome - refused');
      }
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  await core.recovery();
  await core.orders.idle();
  say('done');
  await core.close();
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`crash-child failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

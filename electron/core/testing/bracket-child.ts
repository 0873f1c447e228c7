import { writeSync } from 'node:fs';
import type { BracketAction } from '../brackets/bracket-machine';
import { createCore } from './core-fixture';
import { infyBracket } from './bracket-requests';
import { BRACKET_KILL_POINTS } from './bracket-crash-points';

/**
 * Test-only child process for the brackets crash test (docs/brackets.md §Crash tests). argv:
 * <paper base URL> <data dir> <kill point>.
 *
 * It starts a trading core on the data dir, places a bracket — a MARKET BUY of INFY, which fills
 * at once, with a stop-loss and a target — and SIGKILLs itself where it is told, between the
 * entry's fill and the exits' placement:
 *
 * - `fill-seen`: the fill is seen and the exits decided, nothing journaled yet;
 * - `journal-written`: the decision is written to the brackets journal, not yet fsynced;
 * - `journaled`: the decision is on disk, nothing sent;
 * - `stop-in-flight`: the stop-loss's POST is out, no reply yet, the target not sent;
 * - `target-replied`: both POSTs answered, neither answer journaled;
 * - `target-settled`: the order service recorded the target placed (its ledger resolution is on
 *   disk), and the brackets journal does not know its order yet.
 *
 * It prints `bracket <id>` once the bracket is journaled, `send <ref>` before every POST, and
 * `done` if the point was never reached.
 */

const say = (line: string): void => void writeSync(1, `${line}\n`);
const POINTS = BRACKET_KILL_POINTS;

async function main(): Promise<void> {
  const [baseUrl, dataDir, point] = process.argv.slice(2);
  if (!baseUrl || !dataDir || !POINTS.includes(point as (typeof POINTS)[number]))
    throw new Error(`usage: bracket-child <baseUrl> <dataDir> <${POINTS.join('|')}>`);
  const die = (here: string): void => {
    if (here === point) process.kill(process.pid, 'SIGKILL');
  };
  const placesExits = (actions: readonly BracketAction[]): boolean =>
    actions.some((a) => a.t === 'place' && a.child !== 'entry');
  let exitsDecided = false;
  let resolutionSynced: () => void = () => undefined;
  const core = await createCore(baseUrl, dataDir, {
    rate: null,
    ledgerOnStep: (step) => {
      if (step === 'batch-synced') resolutionSynced();
    },
    brackets: {
      everyMs: 20,
      onPoint: (at, _bracket, actions) => {
        if (!placesExits(actions)) return;
        if (at === 'decided') {
          exitsDecided = true;
          die('fill-seen');
        } else die('journaled');
      },
      onJournalStep: (step) => {
        if (step === 'batch-written' && exitsDecided) die('journal-written');
      },
    },
  });
  let stopRef = '';
  let targetRef = '';
  const place = core.broker.placeOrder.bind(core.broker);
  core.broker.placeOrder = async (cmd, options) => {
    say(`send ${cmd.clientOrderId}`);
    const reply = place(cmd, options);
    if (cmd.clientOrderId === stopRef) {
      // The request is on the wire: die before its reply, and before the target goes.
      await new Promise((r) => setTimeout(r, 5));
      die('stop-in-flight');
    }
    const ack = await reply;
    if (cmd.clientOrderId === targetRef) die('target-replied');
    return ack;
  };

  // The order service's answer for the target reaches the bracket only after its ledger
  // resolution is on disk: a kill then leaves the order known to the ledger alone.
  const placeIntent = core.orders.place.bind(core.orders);
  core.orders.place = async (order, options) => {
    const answer = await placeIntent(order, options);
    if (options?.clientOrderId === targetRef && point === 'target-settled') {
      await new Promise<void>((r) => (resolutionSynced = r));
      die('target-settled');
    }
    return answer;
  };

  await core.start();
  const placed = await core.brackets.create(infyBracket(4, { stop: 1400, target: 1600 }));
  stopRef = placed.bracket.stop?.ref ?? '';
  targetRef = placed.bracket.target?.ref ?? '';
  say(`bracket ${placed.bracket.id}`);
  // The exits go out once the book shows the fill (read every 20 ms without a stream).
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const b = core.brackets.get(placed.bracket.id);
    if (b?.stop?.status === 'working' && b.target?.status === 'working') break;
    await new Promise((r) => setTimeout(r, 20));
  }
  await core.brackets.idle();
  say('done');
  await core.close();
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`bracket-child failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

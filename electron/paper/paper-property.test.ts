import fc from 'fast-check';
import { describe, it } from 'vitest';
import { generateInstruments } from './instruments';
import { DAY_MS, httpDriver, inProcessDriver, START_MS, type TestClock } from './testing/broker-driver';
import { accountLives, modelInstruments, type Row, Sequence } from './testing/model-run';
import { PaperModel, units } from './testing/reference-model';
import { startTestBroker } from './test-helpers';

/**
 * Model-based test of the paper broker's order state machine (docs/api.md §Orders, §Matching,
 * §Margins, positions, holdings, funds; the run itself is testing/model-run.ts).
 *
 * Random sequences of place / exit / modify / cancel / price moves / turns of the IST day go
 * to the broker and to an independent reference model (testing/reference-model.ts, written
 * from docs/api.md, sharing no code with the broker); after every command they must agree on
 * every reply, margin quote, order, fill, position (values, P&L and m2m, with multipliers),
 * holding and the funds, and the broker must keep what a trader relies on (no fill worse than
 * the limit, no stop before its trigger, IOC never rests, nothing fills once cancelled, margin
 * released exactly).
 *
 * The bulk runs in process (the broker's route handlers without sockets); a smaller run goes
 * over HTTP so the wire is covered too. Seeded: on a failure fast-check prints the seed and
 * the shrunk sequence; PAPER_PROPERTY_SEED and PAPER_PROPERTY_RUNS override the seed and the
 * number of sequences (`npm run test:deep` runs many more).
 */

const SEED = Number(process.env.PAPER_PROPERTY_SEED ?? 20261123);
const RUNS = Number(process.env.PAPER_PROPERTY_RUNS ?? 10_000);
const HTTP_RUNS = Math.max(20, Math.round(RUNS / 300));

describe('paper broker against its reference model (property)', () => {
  it(
    `agrees with the model and keeps every trader promise over ${RUNS} in-process sequences (seed ${SEED})`,
    async () => {
      // A fixed day, so the universe (expiries, option premiums) is the same on every run.
      const universe = generateInstruments(1, START_MS);
      const rows: Row[] = universe.map((i) => ({
        instrument_token: i.token,
        exchange: i.exchange,
        tradingsymbol: i.tradingsymbol,
        name: i.name,
        instrument_type: i.instrumentType,
        lot_size: i.lotSize,
        tick_size: i.tickSize,
        freeze_quantity: i.freezeQuantity,
        multiplier: i.multiplier,
        expiry: i.expiry,
        last_price: i.baseUnits / 10_000,
      }));
      const instruments = modelInstruments(rows);
      const traded = universe.filter((u) => instruments.some((mi) => mi.token === u.token));
      await fc.assert(
        fc.asyncProperty(accountLives, async ({ cash, cmds }) => {
          const driver = inProcessDriver(traded, units(cash));
          await new Sequence(driver, new PaperModel(instruments, units(cash))).run(cmds);
        }),
        { seed: SEED, numRuns: RUNS },
      );
    },
    120_000 + RUNS * 20,
  );

  it(
    `agrees with the model over HTTP too, ${HTTP_RUNS} sequences (seed ${SEED})`,
    async () => {
      await fc.assert(
        fc.asyncProperty(accountLives, async ({ cash, cmds }) => {
          // The same fixed day as in process; the token outlives every day a sequence crosses.
          const clock: TestClock = { now: START_MS };
          const api = await startTestBroker({ startingCash: cash, clock: () => clock.now, tokenTtlMs: 400 * DAY_MS });
          try {
            const rows = (await api.call('GET', '/instruments')).body.instruments as Row[];
            const model = new PaperModel(modelInstruments(rows), units(cash));
            await new Sequence(httpDriver(api, clock), model).run(cmds);
          } finally {
            await api.close();
          }
        }),
        { seed: SEED, numRuns: HTTP_RUNS },
      );
    },
    120_000 + HTTP_RUNS * 3_000,
  );
});

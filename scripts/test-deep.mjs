// `npm run test:deep`: the nightly-sized run of the paper broker's model-based property test
// (electron/paper/paper-property.test.ts) — the same property CI runs, with far more command
// sequences and a fresh seed each time unless one is given. Not part of `npm test`.
//
//   npm run test:deep                                  # 250,000 sequences, random seed
//   PAPER_PROPERTY_SEED=123 npm run test:deep          # replay a seed (fast-check prints it on failure)
//   PAPER_PROPERTY_RUNS=1000000 npm run test:deep      # longer still
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';

const seed = process.env.PAPER_PROPERTY_SEED ?? String(randomInt(1, 2 ** 31 - 1));
const runs = process.env.PAPER_PROPERTY_RUNS ?? '250000';
console.log(`test:deep: ${runs} sequences, seed ${seed} (replay: PAPER_PROPERTY_SEED=${seed} npm run test:deep)`);
const r = spawnSync('npx', ['vitest', 'run', 'electron/paper/paper-property.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, PAPER_PROPERTY_SEED: seed, PAPER_PROPERTY_RUNS: runs },
});
process.exit(r.status ?? 1);

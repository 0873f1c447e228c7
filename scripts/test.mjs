// `npm test`: typecheck, lint, the static Electron security gate, the doc-citation check, unit
// tests (Vitest), the build, and end-to-end tests (Playwright on Debian Chromium). Every step
// runs even if an earlier one failed, so one run shows everything that is wrong; each runner's
// own summary is printed, and the last line sums them as `N passed, N failed, N skipped` (a
// failed static step counts as one failed check). The exit code is non-zero if anything failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const env = {
  ...process.env,
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
  ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
  FORCE_COLOR: '0',
};
const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];

function run(title, cmd, args, extraEnv = {}) {
  console.log(`\n=== ${title}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...env, ...extraEnv } });
  const ok = r.status === 0;
  console.log(
    `=== ${title}: ${ok ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return ok;
}

function staticStep(title, cmd, args) {
  const ok = run(title, cmd, args);
  lines.push(`${title}: ${ok ? 'ok' : 'FAILED'}`);
  if (ok) totals.passed += 1;
  else totals.failed += 1;
  return ok;
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

mkdirSync('reports', { recursive: true });

staticStep('typecheck (main side)', 'npx', ['tsc', '-p', 'tsconfig.json']);
staticStep('typecheck (renderer)', 'npx', ['tsc', '-p', 'tsconfig.web.json']);
staticStep('lint', 'npx', ['eslint', '.', '--max-warnings', '0']);
staticStep('format (prettier --check)', 'npx', ['prettier', '--check', '.', '--log-level', 'warn']);
staticStep('electronegativity gate', 'node', ['scripts/electronegativity-gate.mjs']);
staticStep('doc citations resolve', 'node', ['scripts/check-doc-citations.mjs']);

// Unit tests.
rmSync('reports/vitest.json', { force: true });
const unitOk = run('unit (vitest)', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  '--outputFile.json=reports/vitest.json',
]);
const v = readJson('reports/vitest.json');
if (v) {
  const skipped = (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  lines.push(`vitest: ${v.numPassedTests} passed, ${v.numFailedTests} failed, ${skipped} skipped`);
  totals.passed += v.numPassedTests;
  totals.failed += v.numFailedTests;
  totals.skipped += skipped;
  if (!unitOk && v.numFailedTests === 0) {
    lines.push('vitest: exited non-zero with no failed test (a suite failed to load?)');
    totals.failed += 1;
  }
} else {
  lines.push('vitest: no report (it did not run)');
  totals.failed += 1;
}

// Build, then end-to-end tests on the built app.
const buildOk = staticStep('build', 'npm', ['run', 'build', '--silent']);
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  // Playwright never downloads its own browser here; say what is missing instead of a trace.
  console.log(
    `\n=== e2e: no Chromium at ${chromium} — install Debian's: sudo apt-get install -y chromium (bash .ci/run does it)`,
  );
  lines.push(`playwright: not run, no Chromium at ${chromium}`);
  totals.failed += 1;
} else if (buildOk) {
  rmSync('reports/playwright.json', { force: true });
  // The Electron spec needs a display; headless Chromium does not. Use Xvfb only where needed.
  const hasElectron = existsSync('node_modules/electron/dist');
  const useXvfb = hasElectron && !process.env.DISPLAY && spawnSync('which', ['xvfb-run']).status === 0;
  const e2eOk = useXvfb
    ? run('e2e (playwright, under xvfb)', 'xvfb-run', ['-a', 'npx', 'playwright', 'test'])
    : run('e2e (playwright)', 'npx', ['playwright', 'test']);
  const p = readJson('reports/playwright.json');
  if (p?.stats) {
    const passed = (p.stats.expected ?? 0) + (p.stats.flaky ?? 0);
    const failed = p.stats.unexpected ?? 0;
    const skipped = p.stats.skipped ?? 0;
    lines.push(
      `playwright: ${passed} passed, ${failed} failed, ${skipped} skipped${p.stats.flaky ? ` (${p.stats.flaky} flaky)` : ''}`,
    );
    totals.passed += passed;
    totals.failed += failed;
    totals.skipped += skipped;
    if (!e2eOk && failed === 0) {
      lines.push('playwright: exited non-zero with no failed test (global error?)');
      totals.failed += 1;
    }
  } else {
    lines.push('playwright: no report (it did not run)');
    totals.failed += 1;
  }
} else {
  lines.push('playwright: not run, the build failed');
}

console.log('\n=== summary');
for (const l of lines) console.log(l);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);

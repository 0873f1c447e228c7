// Static security gate: runs @doyensec/electronegativity with every check over exactly what
// ships of the Electron side — the TypeScript sources of electron/ plus the renderer's
// index.html (where the CSP <meta> lives) — and fails on any finding. electronegativity
// always exits 0 by itself, so the gate reads its SARIF output.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

// Findings a person has reviewed and accepted, by rule and file, each with its reason. A new
// finding, or one of these in another file, fails the gate.
const REVIEWED = new Map([
  [
    'PRELOAD_JS_CHECK electron/main/window/main-window.ts',
    'the preload exposes exactly {invoke, on} over contract channels (electron/preload/index.ts); e2e/electron.spec.ts pins the surface',
  ],
  [
    'CSP_GLOBAL_CHECK renderer/index.html',
    "csp-evaluator's generic caution on script-src 'self' (JSONP, Angular, user uploads); the app origin serves only the built bundle",
  ],
]);

const stage = mkdtempSync(join(tmpdir(), 'electronegativity-'));
const sarif = join(stage, 'result.sarif');
try {
  cpSync('electron', join(stage, 'src', 'electron'), {
    recursive: true,
    filter: (src) => !/\.test\.ts$/.test(src), // tests are not shipped
  });
  cpSync('renderer/index.html', join(stage, 'src', 'renderer', 'index.html'));
  const run = spawnSync(
    process.execPath,
    [
      'node_modules/@doyensec/electronegativity/dist/index.js',
      '-i',
      join(stage, 'src'),
      '-e',
      '45.5.0',
      '-r',
      '-v',
      'false',
      '-o',
      sarif,
    ],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) {
    console.error(run.stdout, run.stderr);
    console.log('electronegativity: FAILED to run');
    process.exit(1);
  }
  const results = JSON.parse(readFileSync(sarif, 'utf8')).runs.flatMap((r) => r.results ?? []);
  let open = 0;
  for (const r of results) {
    const loc = r.locations?.[0]?.physicalLocation;
    const file = loc?.artifactLocation?.uri ?? '';
    const reason = REVIEWED.get(`${r.ruleId} ${file}`);
    if (!reason) open++;
    console.log(
      `  ${reason ? 'reviewed' : 'FINDING '} ${r.ruleId} ${file}:${loc?.region?.startLine ?? ''} ${reason ?? r.message?.text ?? ''}`,
    );
  }
  console.log(
    `electronegativity: ${open} open finding(s), ${results.length - open} reviewed, over electron/ + renderer/index.html with all checks`,
  );
  process.exit(open ? 1 : 0);
} finally {
  rmSync(stage, { recursive: true, force: true });
}

// Bundles the Node side with esbuild: Electron main + preload (CJS, as Electron's sandboxed
// preload requires one self-contained CommonJS file), the browser host, the paper broker CLI and
// its worker, the benchmark CLI and the soak (ESM). Why esbuild and not Vite:
// docs/decisions/2026-11-23-esbuild-for-the-node-side.md.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  // ws's optional native speed-ups are not installed; ws falls back to JS without them.
  external: ['electron', 'bufferutil', 'utf-8-validate'],
};

const esmBanner = {
  // Bundled CJS dependencies (ws, undici) may call require(); give ESM bundles one.
  js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
};

const jobs = [
  { entryPoints: ['electron/main/index.ts'], outfile: 'out/main.cjs', format: 'cjs' },
  {
    entryPoints: ['electron/preload/index.ts'],
    outfile: 'out/preload.cjs',
    format: 'cjs',
    platform: 'browser',
    external: ['electron'],
  },
  { entryPoints: ['electron/host/cli.ts'], outfile: 'out/host.mjs', format: 'esm', banner: esmBanner },
  { entryPoints: ['electron/paper/cli.ts'], outfile: 'out/paper.mjs', format: 'esm', banner: esmBanner },
  // The embedded paper broker's worker thread (electron/app/embedded-paper.ts starts it).
  { entryPoints: ['electron/paper/worker.ts'], outfile: 'out/paper-worker.mjs', format: 'esm', banner: esmBanner },
  { entryPoints: ['bench/soak.ts'], outfile: 'out/soak.mjs', format: 'esm', banner: esmBanner },
  // Playwright drives Chromium from its own package files, and the poll bench builds its
  // baseline renderer with Vite: both are loaded, never bundled.
  {
    entryPoints: ['bench/cli.ts'],
    outfile: 'out/bench.mjs',
    format: 'esm',
    banner: esmBanner,
    external: [...common.external, '@playwright/test', 'vite'],
  },
].filter((j) => existsSync(j.entryPoints[0]));

await Promise.all(jobs.map((j) => build({ ...common, ...j })));
console.log(`built ${jobs.map((j) => j.outfile).join(', ')}`);

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Test-only: bundles a child-process script from core/testing/ into `dir` the way
 * scripts/build-node.mjs bundles the Node entry points, and returns the bundle's path. Crash
 * tests run it with `node` and SIGKILL it, so the crash is a real process dying.
 */
export async function buildChild(
  name: 'crash-child' | 'ledger-child' | 'bracket-child' | 'gtt-child' | 'journal-child',
  dir: string,
): Promise<string> {
  const outfile = join(dir, `${name}.mjs`);
  await bundleForTest(fileURLToPath(new URL(`./${name}.ts`, import.meta.url)), outfile);
  return outfile;
}

/**
 * Test-only: bundles `entry` (a command line such as electron/host/cli.ts) into `outfile` as
 * scripts/build-node.mjs bundles the Node entry points, for tests that run it as a process.
 */
export async function bundleForTest(entry: string, outfile: string, external: readonly string[] = []): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    external: [...external, 'bufferutil', 'utf-8-validate'],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
}

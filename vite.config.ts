import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Vite builds the renderer (renderer/ → out/renderer); Vitest runs the unit tests. `--mode bench`
 * builds the dashboard benchmark's own renderer into out/bench/renderer, the one build with the
 * blotter's paint probe and plain mode (renderer/features/orders/blotter-paint-probe.ts).
 *
 * Electron main, preload, the browser host and the paper broker are bundled for Node by
 * esbuild (scripts/build-node.mjs) — why: docs/decisions/2026-11-23-esbuild-for-the-node-side.md.
 */
export default defineConfig(({ mode }) => ({
  root: 'renderer',
  base: './', // relative asset URLs: Electron loads the built page from disk
  plugins: [react()],
  // `@shared/…` names the layer both sides use (tsconfig.base.json `paths`; esbuild reads the same).
  resolve: { alias: { '@shared': fileURLToPath(new URL('./shared', import.meta.url)) } },
  build: {
    outDir: mode === 'bench' ? '../out/bench/renderer' : '../out/renderer',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
  },
  server: { host: '127.0.0.1', strictPort: true },
  test: {
    root: '.',
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['electron/**/*.test.ts', 'shared/**/*.test.ts', 'bench/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'happy-dom',
          include: ['renderer/**/*.test.{ts,tsx}'],
          setupFiles: ['renderer/test-setup.ts'],
        },
      },
    ],
  },
}));

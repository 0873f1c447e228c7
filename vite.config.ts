import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const BOOT = fileURLToPath(new URL('./renderer/boot.ts', import.meta.url));

/**
 * The page's first script (`renderer/boot.ts`) is an entry of its own, ahead of the desk's in
 * index.html: a few kilobytes that open the bridge and send the main window's first order sync
 * while the desk's code is still being fetched (docs/live-data.md §The first screen first). As one
 * of index.html's module scripts Vite would bundle it into the desk's entry, which runs only once
 * all of that code is here. Module scripts run in document order, each once its own code is here.
 */
function bootFirst(): Plugin {
  return {
    name: 'tradedesk-boot-first',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const boot = Object.values(ctx.bundle ?? {}).find(
          (c) => c.type === 'chunk' && c.isEntry && c.facadeModuleId === BOOT,
        );
        if (!boot) throw new Error('renderer/boot.ts was not built as an entry');
        // Ahead of the desk's script, after the Content-Security-Policy meta (it covers what follows it).
        const desk = html.indexOf('<script type="module"');
        if (desk < 0) throw new Error("index.html has no module script for the desk's code");
        const tag = `<script type="module" crossorigin src="./${boot.fileName}"></script>\n    `;
        return html.slice(0, desk) + tag + html.slice(desk);
      },
    },
  };
}

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
  plugins: [react(), bootFirst()],
  // `@shared/…` names the layer both sides use (tsconfig.base.json `paths`; esbuild reads the same).
  resolve: { alias: { '@shared': fileURLToPath(new URL('./shared', import.meta.url)) } },
  build: {
    outDir: mode === 'bench' ? '../out/bench/renderer' : '../out/renderer',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: { input: { index: 'renderer/index.html', boot: BOOT } },
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

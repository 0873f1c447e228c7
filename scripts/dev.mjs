// `npm run dev`: Vite's dev server for the renderer (hot reload) + the Node side bundled once,
// then Electron pointed at the dev server (main trusts that origin only when
// VITE_DEV_SERVER_URL is set). Without an Electron binary, launch-electron says so in one line;
// `npm run host` is the browser alternative.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'vite';

const build = spawnSync(process.execPath, ['scripts/build-node.mjs'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const server = await createServer({ configFile: 'vite.config.ts', server: { port: 5173 } });
await server.listen();
const url = server.resolvedUrls?.local[0] ?? 'http://127.0.0.1:5173/';
console.log(`renderer dev server at ${url}`);

const electron = spawn(process.execPath, ['scripts/launch-electron.mjs'], {
  stdio: 'inherit',
  env: { ...process.env, VITE_DEV_SERVER_URL: url, TRADEDESK_DEVTOOLS: '1' },
});
electron.on('exit', async (code) => {
  await server.close();
  process.exit(code ?? 0);
});

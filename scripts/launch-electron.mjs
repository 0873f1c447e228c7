// `npm start` after the build: launches Electron on out/main.cjs. Where the Electron binary is
// missing (electron >= 42 downloads it on first use, which fails offline) it says so in one
// line, with how to get it, instead of a stack trace.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

function electronBinary() {
  if (process.env.ELECTRON_BINARY) return existsSync(process.env.ELECTRON_BINARY) ? process.env.ELECTRON_BINARY : null;
  try {
    const pkg = join('node_modules', 'electron');
    const bin = join(pkg, 'dist', readFileSync(join(pkg, 'path.txt'), 'utf8').trim());
    return existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}

const bin = electronBinary();
if (!bin) {
  console.error(
    'Tradedesk: no Electron binary here (node_modules/electron/dist is missing) — run `npx install-electron` on a machine with internet access, or set ELECTRON_BINARY; meanwhile `npm run host` serves the same app in a browser.',
  );
  process.exit(1);
}
const child = spawn(bin, ['out/main.cjs', ...process.argv.slice(2)], { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

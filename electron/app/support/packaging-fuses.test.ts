import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

/**
 * The packaged app cannot be built here (no Electron binary), so what ships is pinned where it is
 * decided: electron-builder.yml's `electronFuses`, which electron-builder flips in the binary after
 * packing (docs/architecture.md §Release).
 */
const config = parse(readFileSync(join(__dirname, '../../../electron-builder.yml'), 'utf8')) as {
  asar?: unknown;
  electronFuses?: Record<string, unknown>;
};

describe('the packaged binary is hardened by its fuses', () => {
  it.each([
    ['runAsNode', false, 'ELECTRON_RUN_AS_NODE cannot turn the app into a plain Node'],
    ['enableNodeOptionsEnvironmentVariable', false, 'NODE_OPTIONS cannot preload code into main'],
    ['enableNodeCliInspectArguments', false, '--inspect cannot attach a debugger to main'],
    ['enableCookieEncryption', true, 'cookies are encrypted on disk'],
    ['onlyLoadAppFromAsar', true, 'a loose app/ folder beside the archive is never loaded'],
    ['enableEmbeddedAsarIntegrityValidation', true, 'a changed app.asar refuses to load'],
    ['grantFileProtocolExtraPrivileges', false, 'file:// pages get no extra privileges'],
  ])('%s is %s: %s', (fuse, value) => {
    expect(config.electronFuses?.[fuse]).toBe(value);
  });

  it('the app ships as an asar archive, which the asar fuses need', () => {
    expect(config.asar).toBe(true);
  });
});

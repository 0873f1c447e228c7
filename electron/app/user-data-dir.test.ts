import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { userDataDir } from './user-data-dir';

describe('the per-user data folder (the Electron app and npm run host alike)', () => {
  it('is where Electron keeps an app named Tradedesk on each OS', () => {
    expect(userDataDir('linux', {}, '/home/t')).toBe(join('/home/t', '.config', 'Tradedesk'));
    expect(userDataDir('linux', { XDG_CONFIG_HOME: '/cfg' }, '/home/t')).toBe(join('/cfg', 'Tradedesk'));
    expect(userDataDir('linux', { XDG_CONFIG_HOME: '' }, '/home/t')).toBe(join('/home/t', '.config', 'Tradedesk'));
    expect(userDataDir('darwin', {}, '/Users/t')).toBe(join('/Users/t', 'Library', 'Application Support', 'Tradedesk'));
    expect(userDataDir('win32', { APPDATA: 'C:\\Users\\t\\AppData\\Roaming' }, 'C:\\Users\\t')).toBe(
      join('C:\\Users\\t\\AppData\\Roaming', 'Tradedesk'),
    );
  });
});

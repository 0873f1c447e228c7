import { describe, expect, it } from 'vitest';
import { importWorkspaces } from './workspace-actions';

describe('importing a workspace file', () => {
  it('says a file that is not JSON is not a workspace file', async () => {
    await expect(importWorkspaces('{ nope')).rejects.toThrow('The file is not a workspace file: it is not JSON');
  });

  it('names the field of a file that does not fit, before the bridge is asked', async () => {
    const file = { format: 'tradedesk-workspaces', version: 1, workspaces: [{ name: 'A', layouts: {}, tabs: {} }] };
    await expect(importWorkspaces(JSON.stringify(file))).rejects.toThrow(/workspaces\.0\.desk/);
    await expect(importWorkspaces(JSON.stringify({ ...file, version: 2 }))).rejects.toThrow(/version/);
  });
});

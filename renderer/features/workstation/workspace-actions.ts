import { WorkspaceFile } from '@shared/domain/workstation';
import { call } from '../../lib/ipc-client';
import { downloadText } from '../../lib/download';
import { savedLayouts } from '../../state/settings-store';
import { shownTabs } from '../layout/tabs-store';

/**
 * The named workspaces as a page handles them (docs/workstation.md §Workspaces): main keeps them;
 * a page saves the desk under a name with its own panel sizes and tabs, loads one, exports them
 * to a file and imports one.
 */

/** Saves the desk as `name`, with this page's panel sizes and shown tabs. */
export async function saveWorkspace(name: string): Promise<void> {
  await call('workspaces.save', { name, layouts: savedLayouts(), tabs: shownTabs() });
}

export async function loadWorkspace(name: string): Promise<void> {
  await call('workspaces.load', { name });
}

export async function deleteWorkspace(name: string): Promise<void> {
  await call('workspaces.delete', { name });
}

/** Downloads every workspace as one file (`tradedesk-workspaces.json`). */
export async function exportWorkspaces(): Promise<void> {
  const file = await call('workspaces.export', {});
  downloadText('tradedesk-workspaces.json', `${JSON.stringify(file, null, 2)}\n`, 'application/json');
}

/**
 * Imports a file's workspaces; answers the names as imported. A file that is not JSON says so;
 * its shape is checked by main against the contract, whose error names the field. The local
 * parse only turns a wrong shape into the same clear error before the bridge is asked.
 */
export async function importWorkspaces(text: string): Promise<readonly string[]> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('The file is not a workspace file: it is not JSON');
  }
  const parsed = WorkspaceFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'file';
    throw new Error(`The file is not a workspace file: ${field}: ${issue?.message ?? 'not valid'}`);
  }
  return (await call('workspaces.import', { file: parsed.data })).names;
}

import { useRef, useState, type FormEvent } from 'react';
import { describeError } from '../../lib/describe-error';
import { useDeskView } from './desk-queries';
import { deleteWorkspace, exportWorkspaces, importWorkspaces, loadWorkspace, saveWorkspace } from './workspace-actions';

/**
 * The header's workspace menu (docs/workstation.md §Workspaces): load a named workspace, save the
 * desk as one, delete one, export them all to a file or import a file. What went wrong is said in
 * the menu, naming the field of a file that does not fit.
 */
export function WorkspaceSwitcher() {
  const view = useDeskView();
  const [name, setName] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const file = useRef<HTMLInputElement>(null);
  const names = view?.workspaces ?? [];
  const current = view?.loaded?.name ?? '';
  const run = (what: string, action: () => Promise<string | void>) => {
    setNote(null);
    action().then(
      (done) => setNote(done ?? null),
      (e: unknown) => setNote(`Could not ${what}: ${describeError(e)}`),
    );
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    const n = name.trim();
    if (!n) return setNote('Name the workspace first');
    run('save the workspace', async () => {
      await saveWorkspace(n);
      setName('');
      return `Saved “${n}”`;
    });
  };
  return (
    <details className="workspaces">
      {/* A glyph in the header, which is full at 1280 px; the name is its accessible name and tooltip. */}
      <summary
        aria-label={current ? `Workspace: ${current}` : 'Workspaces'}
        title={current ? `Workspace: ${current}` : 'Workspaces: save, load, export, import'}
      >
        ▦
      </summary>
      <div className="workspaces__menu" role="group" aria-label="Workspaces">
        <label className="small">
          Load{' '}
          <select
            aria-label="Load workspace"
            value={names.includes(current) ? current : ''}
            onChange={(e) => e.target.value && run('load the workspace', () => loadWorkspace(e.target.value))}
          >
            <option value="">{names.length ? 'Choose…' : 'None saved'}</option>
            {names.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <form className="workspaces__save" aria-label="Save workspace" onSubmit={save}>
          <input
            aria-label="Workspace name"
            placeholder="Save as…"
            maxLength={40}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <button type="submit">Save</button>
        </form>
        <div className="workspaces__row">
          <button
            type="button"
            disabled={!names.includes(current)}
            onClick={() => run('delete the workspace', () => deleteWorkspace(current))}
          >
            Delete{current ? ` “${current}”` : ''}
          </button>
          <button type="button" disabled={!names.length} onClick={() => run('export', exportWorkspaces)}>
            Export…
          </button>
          <button type="button" onClick={() => file.current?.click()}>
            Import…
          </button>
          <input
            ref={file}
            type="file"
            accept="application/json,.json"
            aria-label="Import workspaces from a file"
            hidden
            onChange={(e) => {
              const f = e.target.files?.[0];
              e.target.value = '';
              if (f)
                run('import', async () => {
                  const imported = await importWorkspaces(await f.text());
                  return `Imported ${imported.join(', ')}`;
                });
            }}
          />
        </div>
        {note ? (
          <p className="small workspaces__note" role="status">
            {note}
          </p>
        ) : null}
      </div>
    </details>
  );
}

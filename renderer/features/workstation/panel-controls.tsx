import { useState } from 'react';
import { LINK_GROUPS, MAIN_WINDOW, type LinkGroup } from '@shared/domain/workstation';
import { describeError } from '../../lib/describe-error';
import { call } from '../../lib/ipc-client';
import { useToastActions } from '../../state/toast-store';
import { useShownInstrument } from '../market/use-shown-instrument';
import { moveTo, popOut, relink } from './desk-actions';
import { useDeskPanel } from './desk-panel';
import { useDeskView } from './desk-queries';
import { kindInfo, panelTitle } from './panel-kinds';
import { IS_MAIN_WINDOW } from './this-window';
import './workstation.css';

/** A group as the trader reads it: a number and a name beside the colour, never the colour alone ("1 Red"). */
export function groupLabel(group: LinkGroup): string {
  return `${LINK_GROUPS.indexOf(group) + 1} ${group[0]!.toUpperCase()}${group.slice(1)}`;
}

/** The chip's short form, where a header has little room: its number. */
function groupSign(group: LinkGroup): string {
  return String(LINK_GROUPS.indexOf(group) + 1);
}

/**
 * A desk panel's own controls, in its header (docs/workstation.md): the colour chip of a panel
 * that follows a group, and "Pop out" (in a pop-out, "Back" to the main window). Nothing outside
 * the desk: a panel drawn without a desk panel has none.
 */
export function DeskPanelControls() {
  const panel = useDeskPanel();
  if (!panel) return null;
  return (
    <span className="desk-controls">
      {kindInfo(panel.kind)?.linkable ? <LinkChip /> : null}
      <MoveButton />
      {panel.id !== panel.kind ? <RemoveButton /> : null}
    </span>
  );
}

function MoveButton() {
  const panel = useDeskPanel()!;
  const view = useDeskView();
  const { toastRaised } = useToastActions();
  const [busy, setBusy] = useState(false);
  const title = panelTitle(panel);
  const run = (action: () => Promise<unknown>) => {
    setBusy(true);
    action()
      .catch((e: unknown) =>
        toastRaised({
          id: `desk-move-${panel.id}`,
          tone: 'bad',
          title: `Could not move ${title}`,
          detail: describeError(e),
        }),
      )
      .finally(() => setBusy(false));
  };
  if (!IS_MAIN_WINDOW)
    return (
      <button
        type="button"
        className="desk-controls__move"
        disabled={busy}
        aria-label={`Move ${title} back to the main window`}
        title="Back to the main window"
        onClick={() => run(() => moveTo(panel, MAIN_WINDOW))}
      >
        ↙
      </button>
    );
  return (
    <button
      type="button"
      className="desk-controls__move"
      disabled={busy || !view}
      aria-label={`Pop out ${title}`}
      title="Pop out into a window of its own"
      onClick={() => run(() => popOut(panel, view?.opener ?? 'main'))}
    >
      ↗
    </button>
  );
}

/** Takes another panel of a kind (a second chart) off the desk; a kind's own panel only moves. */
function RemoveButton() {
  const panel = useDeskPanel()!;
  const title = panelTitle(panel);
  return (
    <button
      type="button"
      className="desk-controls__remove"
      aria-label={`Remove ${title}`}
      title={`Remove ${title}`}
      onClick={() => void call('desk.remove', { panel: panel.id }).catch(() => undefined)}
    >
      ×
    </button>
  );
}

/** The colour chip: which group the panel follows, or none (then it keeps its own instrument). */
function LinkChip() {
  const panel = useDeskPanel()!;
  const view = useDeskView();
  const { token } = useShownInstrument();
  const title = panelTitle(panel);
  return (
    <select
      className="link-chip"
      data-group={panel.link ?? 'none'}
      aria-label={`Link group of ${title}`}
      title="Panels of one colour follow one instrument"
      value={panel.link ?? ''}
      onChange={(e) => {
        const group = e.target.value === '' ? null : (e.target.value as LinkGroup);
        relink(panel, group, token, group !== null && view?.desk.links[group] !== undefined).catch(() => undefined);
      }}
    >
      <option value="" aria-label="No link">
        –
      </option>
      {LINK_GROUPS.map((g) => (
        <option key={g} value={g} aria-label={groupLabel(g)}>
          {groupSign(g)}
        </option>
      ))}
    </select>
  );
}

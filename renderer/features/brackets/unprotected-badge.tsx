import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useToastActions } from '../../state/toast-store';
import { unprotectedBrackets, unprotectedLabel } from './bracket-model';
import { bracketQueries } from './queries';
import './brackets.css';

/**
 * "UNPROTECTED · RELIANCE 1,369" in the header while any bracket's held position has no working
 * stop-loss covering it (docs/brackets.md §Unprotected is loud); a title says why. Nothing shows
 * otherwise. The words stay until main says the position is protected, or the trader cancels.
 */
export function UnprotectedBadge() {
  const { data } = useQuery(bracketQueries.list());
  const list = unprotectedBrackets(data);
  const first = list[0];
  if (!first) return null;
  const more = list.length > 1 ? ` (+${list.length - 1})` : '';
  return (
    <span
      className="unprotected-badge"
      role="alert"
      data-testid="unprotected-badge"
      title={list.map((b) => `${unprotectedLabel(b)}: ${b.unprotected?.why ?? ''}`).join('\n')}
    >
      ⚠ {unprotectedLabel(first)}
      {more}
    </span>
  );
}

/**
 * A sticky toast (first in the tray, no ×) for each bracket that becomes UNPROTECTED, withdrawn
 * once main says it is protected again or it is done: the trader cannot wave it away while the
 * position is bare, and the tray's other toasts never push it out of sight.
 */
export function useUnprotectedToasts(): void {
  const { data } = useQuery(bracketQueries.list());
  const { toastRaised, toastDismissed } = useToastActions();
  const shown = useRef(new Set<string>());
  useEffect(() => {
    const now = new Set<string>();
    for (const b of unprotectedBrackets(data)) {
      const id = `unprotected-${b.id}`;
      now.add(id);
      if (shown.current.has(id)) continue;
      toastRaised({
        id,
        tone: 'bad',
        sticky: true,
        title: unprotectedLabel(b),
        detail: `${b.unprotected?.why ?? ''}. Main keeps trying; see the Brackets tab.`,
      });
    }
    for (const id of shown.current) if (!now.has(id)) toastDismissed(id);
    shown.current = now;
  }, [data, toastRaised, toastDismissed]);
}

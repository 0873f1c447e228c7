import { useState, type FormEvent } from 'react';
import {
  listAdded,
  listMoved,
  listRemoved,
  listRenamed,
  nameProblem,
  type NamedList,
} from '../../state/watchlists-model';
import { Dialog } from '../layout/dialog';
import type { Watchlists } from './use-watchlist-tokens';

/**
 * Managing the named watchlists (docs/desk.md §Named watchlists): add one, rename, reorder
 * (↑/↓ buttons, which the keyboard reaches like any button) and delete — never the last. A name
 * that cannot be used says why next to its field and changes nothing.
 */
export function WatchlistsDialog({ lists, onClose }: { readonly lists: Watchlists; readonly onClose: () => void }) {
  const { profile, change } = lists;
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = (e: FormEvent): void => {
    e.preventDefault();
    const problem = nameProblem(profile, name);
    setError(problem);
    if (problem === null) {
      change((p) => listAdded(p, name));
      setName('');
    }
  };
  return (
    <Dialog title="Watchlists" onClose={onClose}>
      <ol className="watchlists" aria-label="Your watchlists">
        {profile.lists.map((l, n) => (
          <ListRow
            key={l.id}
            list={l}
            first={n === 0}
            last={n === profile.lists.length - 1}
            only={profile.lists.length === 1}
            problemOf={(text) => nameProblem(profile, text, l.id)}
            onRename={(text) => change((p) => listRenamed(p, l.id, text))}
            onMove={(step) => change((p) => listMoved(p, l.id, step))}
            onRemove={() => change((p) => listRemoved(p, l.id))}
          />
        ))}
      </ol>
      <form className="watchlists__add" onSubmit={add} aria-label="New watchlist">
        <input
          aria-label="New list name"
          placeholder="New list name"
          value={name}
          data-autofocus
          aria-invalid={error !== null}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit">Add list</button>
        {error ? (
          <span role="alert" className="inline-error small">
            {error}
          </span>
        ) : null}
      </form>
    </Dialog>
  );
}

function ListRow(props: {
  readonly list: NamedList;
  readonly first: boolean;
  readonly last: boolean;
  readonly only: boolean;
  readonly problemOf: (name: string) => string | null;
  readonly onRename: (name: string) => void;
  readonly onMove: (step: number) => void;
  readonly onRemove: () => void;
}) {
  const { list } = props;
  const [text, setText] = useState(list.name);
  const problem = text === list.name ? null : props.problemOf(text);
  const commit = (): void => {
    if (problem === null && text !== list.name) props.onRename(text);
  };
  return (
    <li className="watchlists__row">
      <input
        aria-label={`Name of ${list.name}`}
        value={text}
        aria-invalid={problem !== null}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
        }}
      />
      <span className="muted small">{list.tokens.length}</span>
      <button
        type="button"
        className="mini"
        aria-label={`Move ${list.name} up`}
        disabled={props.first}
        onClick={() => props.onMove(-1)}
      >
        ↑
      </button>
      <button
        type="button"
        className="mini"
        aria-label={`Move ${list.name} down`}
        disabled={props.last}
        onClick={() => props.onMove(1)}
      >
        ↓
      </button>
      <button
        type="button"
        className="mini"
        aria-label={`Delete ${list.name}`}
        disabled={props.only}
        onClick={props.onRemove}
      >
        Delete
      </button>
      {problem ? (
        <span role="alert" className="inline-error small">
          {problem}
        </span>
      ) : null}
    </li>
  );
}

import { useState } from 'react';
import {
  basketDeleted,
  basketLoaded,
  basketNameProblem,
  basketSaved,
  type ProfileBaskets,
} from '../../state/baskets-model';

/**
 * Saving the basket under a name and loading or deleting a saved one (docs/desk.md §Baskets);
 * a name the trader cannot use is refused next to the box.
 */
export function SavedBaskets({
  basket,
  change,
  busy,
}: {
  readonly basket: ProfileBaskets;
  readonly change: (fn: (b: ProfileBaskets) => ProfileBaskets) => void;
  /** Legs are being placed: loading waits. */
  readonly busy: boolean;
}) {
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [chosen, setChosen] = useState('');
  const save = (): void => {
    const problem = basketNameProblem(name) ?? (basket.legs.length === 0 ? 'Add a leg first' : null);
    setNameError(problem);
    if (problem === null) {
      change((b) => basketSaved(b, name));
      setChosen(name.trim());
      setName('');
    }
  };
  const picked = basket.saved.find((s) => s.name === chosen) ? chosen : (basket.saved[0]?.name ?? '');
  return (
    <>
      <input
        aria-label="Basket name"
        placeholder="Name…"
        value={name}
        aria-invalid={nameError !== null}
        onChange={(e) => setName(e.target.value)}
      />
      <button type="button" onClick={save}>
        Save
      </button>
      {basket.saved.length > 0 ? (
        <>
          <select aria-label="Saved baskets" value={picked} onChange={(e) => setChosen(e.target.value)}>
            {basket.saved.map((s) => (
              <option key={s.name} value={s.name}>
                {s.name} ({s.legs.length})
              </option>
            ))}
          </select>
          <button type="button" disabled={busy} onClick={() => change((b) => basketLoaded(b, picked))}>
            Load
          </button>
          <button type="button" onClick={() => change((b) => basketDeleted(b, picked))}>
            Delete
          </button>
        </>
      ) : null}
      {nameError ? (
        <span role="alert" className="inline-error small">
          {nameError}
        </span>
      ) : null}
    </>
  );
}

import { SHORTCUTS, type ShortcutScope } from '../../lib/shortcuts';
import { Dialog } from '../layout/dialog';
import { useOverlay, useOverlayActions } from './overlay-store';
import './keyboard.css';

const SCOPE_TITLES: ReadonlyArray<readonly [ShortcutScope, string]> = [
  ['anywhere', 'Anywhere'],
  ['watchlist', 'On a watchlist row'],
  ['orders', 'On an order row'],
  ['ladder', 'On the price ladder'],
];

/**
 * The shortcuts sheet (`?`): every binding of the registry, by where it applies. Drawn from the
 * same list the handlers consult, so it is complete by construction.
 */
export function ShortcutsSheet() {
  const shown = useOverlay() === 'shortcuts';
  const { overlayClosed } = useOverlayActions();
  if (!shown) return null;
  return (
    <Dialog title="Keyboard shortcuts" onClose={overlayClosed} wide>
      <div className="shortcuts">
        {SCOPE_TITLES.map(([scope, title]) => (
          <section key={scope} aria-label={title}>
            <h3>{title}</h3>
            <table className="shortcuts__table">
              <tbody>
                {SHORTCUTS.filter((s) => s.scope === scope).map((s) => (
                  <tr key={s.id}>
                    <th scope="row">
                      {s.keys.map((k) => (
                        <kbd key={k}>{k}</kbd>
                      ))}
                    </th>
                    <td>{s.does}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
      </div>
    </Dialog>
  );
}

import { onMarketClock } from '../../lib/market-clock';
import { useQuery } from '@tanstack/react-query';
import type { Bracket } from '@shared/domain/bracket';
import { describeError } from '../../lib/describe-error';
import { formatIstTime, formatQty } from '../../lib/format';
import { Panel } from '../layout/panel';
import { PanelPlaceholder } from '../layout/panel-states';
import { RecordTable, RowActions } from '../layout/record-table';
import { bracketBadge, bracketState, childText, trailText } from './bracket-model';
import { bracketQueries, useCancelBracket } from './queries';
import './brackets.css';

/**
 * The Brackets tab (docs/brackets.md): each bracket and trailing stop main keeps, in its state —
 * waiting for entry, protecting N, trailing at X, done — with its entry, stop-loss and target,
 * what needs the trader's eye, and Cancel while it runs. Pushed by main as it changes.
 */
export function BracketsPanel() {
  const result = useQuery(bracketQueries.list());
  const brackets = result.data ?? [];
  const running = brackets.filter((b) => b.phase !== 'done').length;
  return (
    <Panel
      title="Brackets"
      source={{ ...result, queryKey: bracketQueries.list().queryKey }}
      actions={<span className="muted">{formatQty(running)} running</span>}
    >
      {result.data === undefined ? (
        <PanelPlaceholder what="brackets" error={result.error} />
      ) : (
        <div className="table-scroll">
          <RecordTable
            label="Brackets"
            columns={[
              'Created',
              'Symbol',
              'Side',
              { header: 'Qty', num: true },
              'State',
              'Entry',
              'Stop-loss',
              'Target',
            ]}
            records={brackets}
            what="brackets"
            empty="No brackets: type a stop-loss or target under “Stop-loss, target & size from risk” in the ticket, or drag them out of a position on the chart"
            row={(b) => <BracketRow key={b.id} bracket={b} />}
          />
        </div>
      )}
    </Panel>
  );
}

function BracketRow({ bracket: b }: { readonly bracket: Bracket }) {
  const cancel = useCancelBracket();
  const error = cancel.error ? describeError(cancel.error) : null;
  return (
    <tr
      data-testid={`bracket-${b.id}`}
      data-phase={b.phase}
      data-unprotected={b.unprotected ? 'true' : undefined}
      className={b.unprotected ? 'bracket-row--unprotected' : undefined}
    >
      <td className="muted small">{formatIstTime(onMarketClock(b.createdAt))}</td>
      <td className="sym">
        {b.tradingsymbol} <span className="muted small">{b.exchange}</span>
      </td>
      <td className={b.side === 'BUY' ? 'buy' : 'sell'}>{b.side === 'BUY' ? 'Long' : 'Short'}</td>
      <td className="num">{formatQty(b.entry ? b.entry.order.quantity : b.quantity)}</td>
      <td>
        <span className={`badge ${bracketBadge(b)}`} data-testid="bracket-state">
          {bracketState(b)}
        </span>
        {b.problem ? (
          <div className="small inline-warning" role="note">
            ⚠ {b.problem}
          </div>
        ) : null}
      </td>
      <td className="small">{b.entry ? childText(b.entry, b.tickSize) : 'position'}</td>
      <td className="small">
        <span data-testid="bracket-stop">{childText(b.stop, b.tickSize)}</span>
        {b.trail ? (
          <div className="muted" data-testid="bracket-trail">
            {trailText(b)}
          </div>
        ) : null}
      </td>
      <td className="small" data-testid="bracket-target">
        {childText(b.target, b.tickSize)}
      </td>
      <RowActions>
        {b.phase !== 'done' ? (
          <button
            type="button"
            className="small"
            disabled={cancel.isPending || b.cancelRequested}
            onClick={() => cancel.mutate(b.id)}
            aria-label={`Cancel the bracket on ${b.tradingsymbol}`}
          >
            {b.cancelRequested ? 'Cancelling…' : 'Cancel'}
          </button>
        ) : null}
        {error ? <div className="small inline-error">{error}</div> : null}
      </RowActions>
    </tr>
  );
}
